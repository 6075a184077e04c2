// Sets of run ordinals kept as sorted, disjoint, non-adjacent inclusive ranges. Coverage, a thread's
// live history and a provider thread's native runs are all such sets; keeping them as ranges makes
// their size follow the number of switches and rollbacks, not the number of runs.
import type { OrdinalRange } from './records.js';

export type Ranges = readonly OrdinalRange[];

/** The same set, sorted, with overlapping and adjacent ranges merged and empty ones dropped. */
export function normalize(ranges: Ranges): OrdinalRange[] {
  // Stored sets and the results of these functions are normal already: a linear check spares them
  // the sort, which on a thread with a range per rollback was most of a full handoff's plan.
  if (isNormal(ranges)) return ranges.slice();
  const sorted = ranges.filter((range) => range.from <= range.to).sort((a, b) => a.from - b.from);
  const merged: OrdinalRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.from <= last.to + 1) last.to = Math.max(last.to, range.to);
    else merged.push({ from: range.from, to: range.to });
  }
  return merged;
}

function isNormal(ranges: Ranges): boolean {
  let previousTo = -Infinity;
  for (const range of ranges) {
    if (range.from > range.to || range.from <= previousTo + 1) return false;
    previousTo = range.to;
  }
  return true;
}

export function union(...sets: Ranges[]): OrdinalRange[] {
  return normalize(sets.flat());
}

export function intersect(a: Ranges, b: Ranges): OrdinalRange[] {
  // One sweep over both sorted sets: a thread's history holds a range per rollback, so comparing
  // every pair would grow with the square of its rollbacks.
  const [left, right] = [normalize(a), normalize(b)];
  const result: OrdinalRange[] = [];
  let [i, j] = [0, 0];
  for (let l = left[i], r = right[j]; l && r; l = left[i], r = right[j]) {
    const from = Math.max(l.from, r.from);
    const to = Math.min(l.to, r.to);
    if (from <= to) result.push({ from, to });
    if (l.to < r.to) i++;
    else j++;
  }
  return result;
}

/** The ordinals of `a` that are not in `b`, in one sweep over both sorted sets. */
export function subtract(a: Ranges, b: Ranges): OrdinalRange[] {
  const cuts = normalize(b);
  const result: OrdinalRange[] = [];
  let first = 0;
  for (const range of normalize(a)) {
    let from = range.from;
    while ((cuts[first]?.to ?? Infinity) < from) first++;
    for (let k = first, cut = cuts[k]; cut && cut.from <= range.to && from <= range.to; cut = cuts[++k]) {
      if (cut.from > from) result.push({ from, to: cut.from - 1 });
      from = Math.max(from, cut.to + 1);
    }
    if (from <= range.to) result.push({ from, to: range.to });
  }
  return result;
}

export function contains(ranges: Ranges, ordinal: number): boolean {
  return ranges.some((range) => range.from <= ordinal && ordinal <= range.to);
}

export function count(ranges: Ranges): number {
  return normalize(ranges).reduce((total, range) => total + range.to - range.from + 1, 0);
}

/** The highest ordinal of the set; 0 when it is empty. */
export function highest(ranges: Ranges): number {
  return normalize(ranges).at(-1)?.to ?? 0;
}

/** The lowest ordinal of the set; null when it is empty. */
export function lowest(ranges: Ranges): number | null {
  return normalize(ranges)[0]?.from ?? null;
}

/** At most `limit` ordinals of the set, ascending: a bounded list for clients that want ordinals. */
export function firstOrdinals(ranges: Ranges, limit: number): number[] {
  const ordinals: number[] = [];
  for (const range of normalize(ranges)) {
    for (let ordinal = range.from; ordinal <= range.to && ordinals.length < limit; ordinal += 1) ordinals.push(ordinal);
    if (ordinals.length >= limit) break;
  }
  return ordinals;
}

/** Ranges stored in the graph as two parallel integer lists (`<name>From`, `<name>To`). */
export function fromLists(
  from: readonly number[] | null | undefined,
  to: readonly number[] | null | undefined,
): OrdinalRange[] {
  return (from ?? []).map((start, index) => ({ from: Number(start), to: Number(to?.[index]) }));
}

export function toLists(ranges: Ranges): { from: number[]; to: number[] } {
  const normal = normalize(ranges);
  return { from: normal.map((range) => range.from), to: normal.map((range) => range.to) };
}

/**
 * Stored ranges `next` as a change to `before`, as stored (in its stored order): how many of before's
 * first ranges it keeps as they are, and the lists of the ranges that follow them. A rollback keeps
 * all but the last few and appends one, so it writes that instead of every range the thread has.
 */
export function changeOfLists(before: Ranges, next: Ranges): { kept: number; from: number[]; to: number[] } {
  const lists = toLists(next);
  let kept = 0;
  for (const range of before) {
    if (kept >= lists.from.length || range.from !== lists.from[kept] || range.to !== lists.to[kept]) break;
    kept++;
  }
  return { kept, from: lists.from.slice(kept), to: lists.to.slice(kept) };
}

/**
 * Ranges named one by one in describeOrdinals: past it, the first and last few and a count. A thread
 * gains a gap with every rollback, and these words are stored with each run's plan: listed whole,
 * a full handoff's reason on a long thread ran to thousands of ranges.
 */
export const DESCRIBED_RANGES_MAX = 6;
/** Past DESCRIBED_RANGES_MAX, how many of the first and of the last ranges are still named. */
const NAMED_FIRST = 3;
const NAMED_LAST = 2;

/**
 * The set in words, for reasons and summaries: "run 10", "runs 6-8", "runs 1-5, 10"; more than
 * DESCRIBED_RANGES_MAX ranges as "runs 1-5, 7-9, 11-20, …, 90-95, 97-99 (8 ranges, 80 runs)".
 */
export function describeOrdinals(ranges: Ranges): string {
  const normal = normalize(ranges);
  if (normal.length === 0) return 'no runs';
  if (normal.length > DESCRIBED_RANGES_MAX)
    return describeMany(normal.slice(0, NAMED_FIRST), normal.slice(-NAMED_LAST), normal.length, count(normal));
  const single = normal.length === 1 && normal.every(({ from, to }) => from === to);
  return `${single ? 'run' : 'runs'} ${normal.map(rangeWords).join(', ')}`;
}

const rangeWords = ({ from, to }: OrdinalRange) => (from === to ? `${from}` : `${from}-${to}`);

/** More than DESCRIBED_RANGES_MAX ranges in words: the ranges named, then the set's totals. */
function describeMany(first: Ranges, last: Ranges, rangeCount: number, ordinalCount: number): string {
  const named = [...first.map(rangeWords), '…', ...last.map(rangeWords)];
  return `runs ${named.join(', ')} (${rangeCount} ranges, ${ordinalCount} runs)`;
}

/**
 * A set read by its ends: its lowest and its highest ranges, and how many ranges and ordinals it
 * holds in all. A plan reads a long thread's rolled-back ranges (one per rollback) so: reading every
 * one and subtracting them was the part of a plan that grew with the thread, while a plan's span and
 * words need only the ends (subtractEnds).
 */
export interface RangeEnds {
  /** Its lowest ranges, ascending. */
  lowest: OrdinalRange[];
  /** Its highest ranges, ascending; they overlap `lowest` when the set holds few. */
  highest: OrdinalRange[];
  rangeCount: number;
  ordinalCount: number;
}

/**
 * How many ranges from each end of a set read by its ends name the first and last pieces a range
 * leaves of it (the pieces lie between ranges): fewer, and subtractEnds cannot describe a range that
 * holds the ranges not read.
 */
export const RANGES_NAMING_THE_ENDS = { lowest: NAMED_FIRST + 1, highest: NAMED_LAST + 1 };

/** A whole set as RangeEnds. */
export function endsOf(ranges: Ranges): RangeEnds {
  const normal = normalize(ranges);
  return { lowest: normal, highest: normal, rangeCount: normal.length, ordinalCount: count(normal) };
}

/** What a range leaves outside a set: its lowest and highest ordinals (null: nothing) and its words. */
export interface Remainder {
  span: OrdinalRange | null;
  words: string;
}

/**
 * `range` less a set read by its ends, as subtract() and describeOrdinals() give it from the whole
 * set. The ranges not read lie between the ends: `range` must hold all of them or none, and when it
 * holds them, the ends must name its first NAMED_FIRST and last NAMED_LAST pieces. A range that
 * does not is a caller that read too few ends: an error, not a guess.
 */
export function subtractEnds(range: OrdinalRange, ends: RangeEnds): Remainder {
  const read = union(ends.lowest, ends.highest);
  const pieces = subtract([range], read);
  const span = pieces.length === 0 ? null : { from: lowest(pieces) ?? range.from, to: highest(pieces) };
  const unreadRanges = ends.rangeCount - read.length;
  // Past the last of the lowest ranges and before the first of the highest: where the unread ones lie.
  const unread = { from: (ends.lowest.at(-1)?.to ?? 0) + 1, to: (ends.highest[0]?.from ?? Infinity) - 1 };
  if (unreadRanges === 0 || range.to < unread.from || range.from > unread.to)
    return { span, words: describeOrdinals(pieces) };
  const split = pieces.findIndex((piece) => piece.from <= unread.from && unread.to <= piece.to);
  if (split < NAMED_FIRST || pieces.length - 1 - split < NAMED_LAST)
    throw new Error(
      `runs ${range.from}-${range.to} reach past the ${read.length} of ${ends.rangeCount} ranges read from the ends of the set`,
    );
  // The piece over the unread ranges is in truth one piece more than they are, less their ordinals.
  const unreadOrdinals = ends.ordinalCount - count(read);
  const words = describeMany(
    pieces.slice(0, NAMED_FIRST),
    pieces.slice(-NAMED_LAST),
    pieces.length + unreadRanges,
    count(pieces) - unreadOrdinals,
  );
  return { span, words };
}
