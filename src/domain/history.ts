// A thread's history is the runs it inherited from its source (for a fork: the source's live runs up
// to the fork point, as they were when it forked) followed by its own runs. Inherited runs stay in
// their own thread's graph; a fork records where they are as segments, so a later rollback of the
// source, which marks those runs rolled back, does not change what the fork inherited.
import type { OrdinalRange } from './records.js';

/** Ordinals from..to of thread threadId, as live at asOf (null: as live now). */
export interface HistorySegment {
  threadId: string;
  from: number;
  to: number;
  asOf: string | null;
}

export interface ThreadHistory {
  id: string;
  /** Ordinals at or below it were inherited; 0 for a thread that inherited nothing. */
  forkOrdinal: number;
  /** Inherited segments, ascending and contiguous from ordinal 1 to forkOrdinal. */
  inherited: HistorySegment[];
}

/** The segments that hold the thread's history within range, oldest first. */
export function segmentsFor(thread: ThreadHistory, range: OrdinalRange): HistorySegment[] {
  const own: HistorySegment = { threadId: thread.id, from: thread.forkOrdinal + 1, to: Number.MAX_SAFE_INTEGER, asOf: null };
  return [...thread.inherited, own]
    .map((segment) => ({ ...segment, from: Math.max(segment.from, range.from), to: Math.min(segment.to, range.to) }))
    .filter((segment) => segment.from <= segment.to);
}

/** The segment holding one ordinal of the thread's history. */
export function segmentHolding(thread: ThreadHistory, ordinal: number): HistorySegment {
  return segmentsFor(thread, { from: ordinal, to: ordinal })[0]!;
}

/**
 * What a fork at ordinal k of `source` inherits: the source's inherited segments up to k, then the
 * source's own runs up to k as live at the fork (asOf null here: the graph stamps the fork's time).
 */
export function inheritedByFork(source: ThreadHistory, k: number): HistorySegment[] {
  return segmentsFor(source, { from: 1, to: k });
}
