import { describe, expect, it } from 'vitest';
import type { OrdinalRange } from '../../src/domain/records.js';
import {
  changeOfLists,
  contains,
  count,
  describeOrdinals,
  endsOf,
  DESCRIBED_RANGES_MAX,
  firstOrdinals,
  fromLists,
  highest,
  intersect,
  lowest,
  normalize,
  subtract,
  subtractEnds,
  toLists,
  union,
} from '../../src/domain/ranges.js';

const r = (from: number, to: number) => ({ from, to });

describe('ordinal ranges', () => {
  it('normalizes: sorted, overlapping and adjacent merged, empty dropped', () => {
    expect(normalize([r(7, 9), r(1, 3), r(4, 5), r(8, 12), r(6, 5)])).toEqual([r(1, 5), r(7, 12)]);
    expect(normalize([])).toEqual([]);
  });

  it('answers a set that is normal already with a copy of it', () => {
    const normal = [r(1, 3), r(5, 6), r(9, 9)];
    const again = normalize(normal);
    expect(again).toEqual(normal);
    again.push(r(20, 20));
    expect(normal).toHaveLength(3);
    expect(normalize([r(1, 3), r(4, 6)])).toEqual([r(1, 6)]);
    expect(normalize([r(5, 6), r(1, 3)])).toEqual([r(1, 3), r(5, 6)]);
  });

  it('keeps a gap of one ordinal apart', () => {
    expect(normalize([r(1, 3), r(5, 6)])).toEqual([r(1, 3), r(5, 6)]);
  });

  it('unions, intersects and subtracts', () => {
    expect(union([r(1, 2)], [r(3, 4)], [r(10, 10)])).toEqual([r(1, 4), r(10, 10)]);
    expect(intersect([r(1, 10)], [r(0, 2), r(5, 6), r(9, 20)])).toEqual([r(1, 2), r(5, 6), r(9, 10)]);
    expect(intersect([r(1, 3)], [r(4, 6)])).toEqual([]);
    expect(subtract([r(1, 10)], [r(3, 4), r(10, 12)])).toEqual([r(1, 2), r(5, 9)]);
    expect(subtract([r(1, 10)], [r(1, 10)])).toEqual([]);
    expect(subtract([r(5, 5)], [])).toEqual([r(5, 5)]);
  });

  it('intersects and subtracts as the sets of ordinals do, however the ranges interleave', () => {
    let state = 7;
    const next = (bound: number) => (state = (state * 48271) % 2147483647) % bound;
    const randomRanges = () => Array.from({ length: next(8) }, () => next(40)).map((from) => r(from, from + next(6)));
    const ordinals = (ranges: ReturnType<typeof randomRanges>) =>
      new Set(ranges.flatMap(({ from, to }) => Array.from({ length: to - from + 1 }, (_, i) => from + i)));
    const asRanges = (set: Set<number>) => normalize([...set].map((ordinal) => r(ordinal, ordinal)));
    for (let round = 0; round < 500; round++) {
      const [a, b] = [randomRanges(), randomRanges()];
      const [inA, inB] = [ordinals(a), ordinals(b)];
      expect(intersect(a, b)).toEqual(asRanges(new Set([...inA].filter((ordinal) => inB.has(ordinal)))));
      expect(subtract(a, b)).toEqual(asRanges(new Set([...inA].filter((ordinal) => !inB.has(ordinal)))));
    }
  });

  it('counts, finds the ends and tests membership', () => {
    expect(count([r(1, 3), r(10, 10)])).toBe(4);
    expect(count([])).toBe(0);
    expect(highest([r(1, 3), r(10, 12)])).toBe(12);
    expect(highest([])).toBe(0);
    expect(lowest([r(4, 6), r(1, 1)])).toBe(1);
    expect(lowest([])).toBeNull();
    expect(contains([r(1, 3), r(10, 12)], 11)).toBe(true);
    expect(contains([r(1, 3), r(10, 12)], 5)).toBe(false);
  });

  it('lists at most the first ordinals asked for, whatever the size of the ranges', () => {
    expect(firstOrdinals([r(1, 2), r(5, 1_000_000_000)], 4)).toEqual([1, 2, 5, 6]);
    expect(firstOrdinals([r(1, 3)], 10)).toEqual([1, 2, 3]);
    expect(firstOrdinals([r(1, 3)], 0)).toEqual([]);
  });

  it('round-trips the two parallel lists the graph stores', () => {
    expect(toLists([r(5, 6), r(1, 2)])).toEqual({ from: [1, 5], to: [2, 6] });
    expect(fromLists([1, 5], [2, 6])).toEqual([r(1, 2), r(5, 6)]);
    expect(fromLists(undefined, undefined)).toEqual([]);
  });

  it('names every range up to the limit, then the first and last few and how many', () => {
    expect(describeOrdinals([r(10, 10)])).toBe('run 10');
    expect(describeOrdinals([r(10, 10), r(1, 5)])).toBe('runs 1-5, 10');
    const gaps = (n: number) => Array.from({ length: n }, (_, i) => r(10 * i + 1, 10 * i + 8));
    expect(describeOrdinals(gaps(DESCRIBED_RANGES_MAX))).toBe('runs 1-8, 11-18, 21-28, 31-38, 41-48, 51-58');
    expect(describeOrdinals(gaps(DESCRIBED_RANGES_MAX + 1))).toBe(
      'runs 1-8, 11-18, 21-28, …, 51-58, 61-68 (7 ranges, 56 runs)',
    );
    // A long thread rolled back a thousand times: the words stay a line.
    expect(describeOrdinals(gaps(1000))).toBe(
      'runs 1-8, 11-18, 21-28, …, 9981-9988, 9991-9998 (1000 ranges, 8000 runs)',
    );
  });

  it('subtracts a set read by its ends as it subtracts the whole set, or refuses', () => {
    let state = 11;
    const next = (bound: number) => (state = (state * 48271) % 2147483647) % bound;
    let [answered, answeredAcrossUnread] = [0, 0];
    for (let round = 0; round < 2000; round++) {
      // Up to 30 ranges, each 1-3 ordinals, at least one live ordinal apart.
      const set: OrdinalRange[] = [];
      for (let k = next(30), from = 1 + next(3); k > 0; k--, from = (set.at(-1)?.to ?? 0) + 2 + next(4))
        set.push(r(from, from + next(3)));
      const [lowestRead, highestRead] = [1 + next(6), 1 + next(8)];
      const ends = { ...endsOf(set), lowest: set.slice(0, lowestRead), highest: set.slice(-highestRead) };
      // Half of the ranges from the first ordinal, as a full handoff's.
      const from = next(2) === 0 ? 1 : 1 + next(120);
      const range = r(from, from + next(200));
      const whole = subtract([range], set);
      const expected = {
        span: whole.length === 0 ? null : r(lowest(whole) ?? 0, highest(whole)),
        words: describeOrdinals(whole),
      };
      try {
        expect(subtractEnds(range, ends)).toEqual(expected);
        answered++;
        const unread = set.slice(lowestRead, Math.max(lowestRead, set.length - highestRead));
        if (intersect(unread, [range]).length > 0) answeredAcrossUnread++;
      } catch (error) {
        expect(String(error)).toContain('ranges read from the ends of the set');
        // Refused only when ranges went unread, and the range reaches where they lie.
        const [lastLowest, firstHighest] = [ends.lowest.at(-1)?.to ?? 0, ends.highest[0]?.from ?? Infinity];
        expect(set.length).toBeGreaterThan(lowestRead + highestRead);
        expect(range.to > lastLowest && range.from < firstHighest).toBe(true);
      }
    }
    // Most cases are answered, many of them over ranges that were not read: the test is not vacuous.
    expect(answered).toBeGreaterThan(1000);
    expect(answeredAcrossUnread).toBeGreaterThan(100);
  });

  it('names a full range of a long history from its ends', () => {
    const set = Array.from({ length: 1000 }, (_, i) => r(10 * i + 9, 10 * i + 10));
    const byEnds = { ...endsOf(set), lowest: set.slice(0, 4), highest: set.slice(-22) };
    expect(subtractEnds(r(1, 9998), byEnds)).toEqual({
      span: r(1, 9998),
      words: 'runs 1-8, 11-18, 21-28, …, 9981-9988, 9991-9998 (1000 ranges, 8000 runs)',
    });
    // A range that starts among the unread ranges cannot be answered from the ends.
    expect(() => subtractEnds(r(5000, 9998), byEnds)).toThrow('reach past the 26 of 1000 ranges');
  });

  it('stores a change of ranges as the first ones kept and the lists of the rest', () => {
    // A rollback after runs above the last one rolled back: every range kept, one appended.
    expect(changeOfLists([r(3, 4), r(8, 9)], [r(3, 4), r(8, 9), r(12, 15)])).toEqual({ kept: 2, from: [12], to: [15] });
    // A rollback that reaches back into the ranges merges the ones it covers into one.
    expect(changeOfLists([r(3, 4), r(8, 9)], [r(3, 4), r(6, 15)])).toEqual({ kept: 1, from: [6], to: [15] });
    expect(changeOfLists([r(3, 4), r(8, 9)], [r(1, 15)])).toEqual({ kept: 0, from: [1], to: [15] });
    // A range that touches the last one extends it: that one is written again.
    expect(changeOfLists([r(3, 4)], [r(3, 9)])).toEqual({ kept: 0, from: [3], to: [9] });
    expect(changeOfLists([], [r(5, 5)])).toEqual({ kept: 0, from: [5], to: [5] });
    expect(changeOfLists([r(5, 5)], [r(5, 5)])).toEqual({ kept: 1, from: [], to: [] });
    // Kept and appended make the new lists, whatever the stored order of before.
    const before = [r(8, 9), r(3, 4)];
    const change = changeOfLists(before, [r(3, 4), r(8, 9), r(20, 21)]);
    expect(change.kept).toBe(0);
    expect(fromLists(change.from, change.to)).toEqual([r(3, 4), r(8, 9), r(20, 21)]);
  });
});
