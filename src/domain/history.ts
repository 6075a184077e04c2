// A thread's history is the runs it inherited from its source (for a fork: the source's live runs up
// to the fork point, as they were when it forked) followed by its own runs. Inherited runs stay in
// their own thread's graph; a fork records where they are as segments, so a later rollback of the
// source, which marks those runs rolled back, does not change what the fork inherited.
//
// Which ordinals of a history are live is stored as data, not worked out run by run: each thread
// keeps the ranges of its history that are not live (`rolledBack`): the runs its own rollbacks
// withdrew, and for a fork the ordinals its source had rolled back before the fork was made. A
// fork copies them once, at creation, which is the as-of rule: what the fork inherited never changes.
import { present } from './errors.js';
import { intersect, subtract, union } from './ranges.js';
import type { OrdinalRange } from './records.js';

/** Ordinals from..to of thread threadId, as live at asOf (null: as live now). */
export interface HistorySegment {
  threadId: string;
  from: number;
  to: number;
  asOf: string | null;
}

/** Ordinals from..to of thread threadId, every one a live run of the history being read. */
export interface LivePiece {
  threadId: string;
  from: number;
  to: number;
}

export interface ThreadHistory {
  id: string;
  /** Ordinals at or below it were inherited; 0 for a thread that inherited nothing. */
  forkOrdinal: number;
  /** Inherited segments, ascending and contiguous from ordinal 1 to forkOrdinal. */
  inherited: HistorySegment[];
  /** Highest ordinal ever allocated (for a fork, at least forkOrdinal). */
  lastOrdinal: number;
  /** Ordinals of the history, 1..lastOrdinal, that are not live. */
  rolledBack: OrdinalRange[];
}

/** The segments that hold the thread's history within range, oldest first. */
export function segmentsFor(thread: ThreadHistory, range: OrdinalRange): HistorySegment[] {
  const own: HistorySegment = {
    threadId: thread.id,
    from: thread.forkOrdinal + 1,
    to: Number.MAX_SAFE_INTEGER,
    asOf: null,
  };
  return [...thread.inherited, own]
    .map((segment) => ({ ...segment, from: Math.max(segment.from, range.from), to: Math.min(segment.to, range.to) }))
    .filter((segment) => segment.from <= segment.to);
}

/** The segment holding one ordinal of the thread's history. */
export function segmentHolding(thread: ThreadHistory, ordinal: number): HistorySegment {
  return present(
    segmentsFor(thread, { from: ordinal, to: ordinal })[0],
    `segment of run ${ordinal} in thread ${thread.id}`,
  );
}

/**
 * What a fork at ordinal k of `source` inherits: the source's inherited segments up to k, then the
 * source's own runs up to k as live at the fork (asOf null here: the graph stamps the fork's time).
 */
export function inheritedByFork(source: ThreadHistory, k: number): HistorySegment[] {
  return segmentsFor(source, { from: 1, to: k });
}

/** The live ordinals of the thread's history: every allocated ordinal that was not rolled back. */
export function liveHistory(thread: Pick<ThreadHistory, 'lastOrdinal' | 'rolledBack'>): OrdinalRange[] {
  return subtract([{ from: 1, to: thread.lastOrdinal }], thread.rolledBack);
}

/**
 * The live runs of the thread's history within range, as pieces of the threads that hold them:
 * every ordinal of a piece is a live run of that piece's thread. Reads that must see only live runs
 * take these pieces instead of testing each run's status.
 */
export function livePiecesFor(thread: ThreadHistory, range: OrdinalRange): LivePiece[] {
  const live = intersect(liveHistory(thread), [range]);
  return segmentsFor(thread, range).flatMap((segment) =>
    intersect(live, [segment]).map((piece) => ({ threadId: segment.threadId, from: piece.from, to: piece.to })),
  );
}

/** A run of a history, named by the thread that holds it and its ordinal. */
export interface RunAt {
  threadId: string;
  ordinal: number;
}

/** The first and the last live run of the range, where the threads holding them are; none when no run is live. */
export function rangeEnds(thread: ThreadHistory, range: OrdinalRange): RunAt[] {
  const pieces = livePiecesFor(thread, range);
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  if (!first || !last) return [];
  const ends = [
    { threadId: first.threadId, ordinal: first.from },
    { threadId: last.threadId, ordinal: last.to },
  ];
  return first.from === last.to ? ends.slice(0, 1) : ends;
}

/** A rollback to toOrdinal withdraws every ordinal above it: the thread's rolled-back ranges after it. */
export function rolledBackAfterRollback(thread: ThreadHistory, toOrdinal: number): OrdinalRange[] {
  return union(thread.rolledBack, [{ from: toOrdinal + 1, to: thread.lastOrdinal }]);
}

/** The runs a rollback to toOrdinal withdraws now: the live ordinals above it. */
export function withdrawnByRollback(thread: ThreadHistory, toOrdinal: number): OrdinalRange[] {
  return intersect(liveHistory(thread), [{ from: toOrdinal + 1, to: thread.lastOrdinal }]);
}

/** What a fork at ordinal k of `source` inherits as not live: the source's rolled-back ordinals up to k, as of now. */
export function rolledBackInheritedByFork(source: ThreadHistory, k: number): OrdinalRange[] {
  return intersect(source.rolledBack, [{ from: 1, to: k }]);
}
