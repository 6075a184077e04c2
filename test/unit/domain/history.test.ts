// The edges of src/domain/history.ts: the fork point, the first and last ordinal, empty histories
// and ranges, rolled-back ranges that touch. test/unit/coverage.test.ts has the everyday cases.
import { describe, expect, it } from 'vitest';
import {
  inheritedByFork,
  liveHistory,
  livePiecesFor,
  rangeEnds,
  rolledBackAfterRollback,
  rolledBackInheritedByFork,
  segmentHolding,
  segmentsFor,
  withdrawnByRollback,
  type ThreadHistory,
} from '../../../src/domain/history.js';
import { union } from '../../../src/domain/ranges.js';
import type { OrdinalRange } from '../../../src/domain/records.js';

const r = (from: number, to: number): OrdinalRange => ({ from, to });

function root(lastOrdinal: number, rolledBack: OrdinalRange[] = []): ThreadHistory {
  return { id: 'root', forkOrdinal: 0, inherited: [], lastOrdinal, rolledBack };
}

/** A fork of `source` at ordinal k, as the graph makes one, with runs of its own through lastOrdinal. */
function forkOf(
  source: ThreadHistory,
  k: number,
  lastOrdinal: number,
  id = 'fork',
  ownRolledBack: OrdinalRange[] = [],
): ThreadHistory {
  return {
    id,
    forkOrdinal: k,
    inherited: inheritedByFork(source, k),
    lastOrdinal,
    rolledBack: union(rolledBackInheritedByFork(source, k), ownRolledBack),
  };
}

describe('the segments of a history', () => {
  it('are one segment of its own, from ordinal 1, for a thread that inherited nothing', () => {
    expect(segmentsFor(root(5), r(1, 5))).toEqual([{ threadId: 'root', from: 1, to: 5, asOf: null }]);
    expect(segmentHolding(root(5), 1)).toEqual({ threadId: 'root', from: 1, to: 1, asOf: null });
  });

  it('are none for an empty range', () => {
    expect(segmentsFor(root(5), r(3, 2))).toEqual([]);
    expect(segmentsFor(forkOf(root(6), 4, 6), r(5, 4))).toEqual([]);
  });

  it('split at the fork point: the fork point is inherited, the ordinal after it is the fork own', () => {
    const fork = forkOf(root(6), 4, 6);
    expect(segmentsFor(fork, r(4, 5))).toEqual([
      { threadId: 'root', from: 4, to: 4, asOf: null },
      { threadId: 'fork', from: 5, to: 5, asOf: null },
    ]);
    expect(segmentsFor(fork, r(1, 4)).map((segment) => segment.threadId)).toEqual(['root']);
    expect(segmentsFor(fork, r(5, 6)).map((segment) => segment.threadId)).toEqual(['fork']);
    expect(segmentHolding(fork, 1).threadId).toBe('root');
    expect(segmentHolding(fork, 4).threadId).toBe('root');
    expect(segmentHolding(fork, 5).threadId).toBe('fork');
  });

  it('pass a fork of a fork through both sources, each up to its own fork point', () => {
    const first = forkOf(root(6), 4, 7, 'first');
    expect(inheritedByFork(first, 6)).toEqual([
      { threadId: 'root', from: 1, to: 4, asOf: null },
      { threadId: 'first', from: 5, to: 6, asOf: null },
    ]);
    // Forked at or below the first fork point: nothing of the first fork's own runs.
    expect(inheritedByFork(first, 4)).toEqual([{ threadId: 'root', from: 1, to: 4, asOf: null }]);
    expect(inheritedByFork(first, 1)).toEqual([{ threadId: 'root', from: 1, to: 1, asOf: null }]);
    const second = forkOf(first, 6, 8, 'second');
    expect(segmentsFor(second, r(1, 8)).map(({ threadId, from, to }) => [threadId, from, to])).toEqual([
      ['root', 1, 4],
      ['first', 5, 6],
      ['second', 7, 8],
    ]);
  });

  it('inherit nothing from a fork at ordinal 0', () => {
    expect(inheritedByFork(root(5), 0)).toEqual([]);
  });
});

describe('the live runs of a history', () => {
  it('are none when every allocated ordinal was rolled back', () => {
    expect(liveHistory(root(4, [r(1, 4)]))).toEqual([]);
    expect(livePiecesFor(root(4, [r(1, 4)]), r(1, 4))).toEqual([]);
    expect(rangeEnds(root(4, [r(1, 4)]), r(1, 4))).toEqual([]);
  });

  it('lose the first or the last ordinal alone when only it was rolled back', () => {
    expect(liveHistory(root(4, [r(1, 1)]))).toEqual([r(2, 4)]);
    expect(liveHistory(root(4, [r(4, 4)]))).toEqual([r(1, 3)]);
  });

  it('treat two touching rolled-back ranges as one gap', () => {
    expect(liveHistory(root(6, [r(2, 3), r(4, 5)]))).toEqual([r(1, 1), r(6, 6)]);
  });

  it('stop at the last allocated ordinal, whatever the range asks for', () => {
    expect(livePiecesFor(root(5), r(4, 10))).toEqual([{ threadId: 'root', from: 4, to: 5 }]);
    expect(livePiecesFor(root(5), r(6, 10))).toEqual([]);
    expect(livePiecesFor(root(0), r(1, 1))).toEqual([]);
  });

  it('come in one piece per thread, even where the ordinals run on across the fork point', () => {
    expect(livePiecesFor(forkOf(root(6), 4, 6), r(1, 6))).toEqual([
      { threadId: 'root', from: 1, to: 4 },
      { threadId: 'fork', from: 5, to: 6 },
    ]);
  });

  it('keep what the fork inherited when its source is rolled back afterwards', () => {
    const source = root(6);
    const fork = forkOf(source, 4, 6);
    const sourceAfterRollback: ThreadHistory = { ...source, rolledBack: rolledBackAfterRollback(source, 2) };
    expect(liveHistory(sourceAfterRollback)).toEqual([r(1, 2)]);
    expect(livePiecesFor(fork, r(1, 4))).toEqual([{ threadId: 'root', from: 1, to: 4 }]);
  });

  it('end at the first and last live run of the range, skipping rolled-back ends', () => {
    expect(rangeEnds(root(6, [r(1, 2), r(6, 6)]), r(1, 6))).toEqual([
      { threadId: 'root', ordinal: 3 },
      { threadId: 'root', ordinal: 5 },
    ]);
    expect(rangeEnds(root(6, [r(1, 2), r(4, 6)]), r(1, 6))).toEqual([{ threadId: 'root', ordinal: 3 }]);
  });
});

describe('a rollback', () => {
  it('to the head withdraws nothing and records nothing new', () => {
    expect(withdrawnByRollback(root(5, [r(2, 3)]), 5)).toEqual([]);
    expect(rolledBackAfterRollback(root(5, [r(2, 3)]), 5)).toEqual([r(2, 3)]);
  });

  it('to 0 withdraws every live run and leaves no ordinal live', () => {
    expect(withdrawnByRollback(root(5, [r(2, 3)]), 0)).toEqual([r(1, 1), r(4, 5)]);
    expect(rolledBackAfterRollback(root(5, [r(2, 3)]), 0)).toEqual([r(1, 5)]);
  });

  it('of a thread without runs withdraws nothing', () => {
    expect(withdrawnByRollback(root(0), 0)).toEqual([]);
    expect(rolledBackAfterRollback(root(0), 0)).toEqual([]);
  });

  it('merges with a rolled-back range it touches', () => {
    const thread = root(9, [r(6, 7)]);
    expect(withdrawnByRollback(thread, 7)).toEqual([r(8, 9)]);
    expect(rolledBackAfterRollback(thread, 7)).toEqual([r(6, 9)]);
    expect(rolledBackAfterRollback(thread, 5)).toEqual([r(6, 9)]);
    expect(withdrawnByRollback(thread, 5)).toEqual([r(8, 9)]);
  });

  it('of the source before a fork reaches the fork up to the fork point only', () => {
    const source = root(9, [r(3, 4)]);
    expect(rolledBackInheritedByFork(source, 0)).toEqual([]);
    expect(rolledBackInheritedByFork(source, 2)).toEqual([]);
    expect(rolledBackInheritedByFork(source, 3)).toEqual([r(3, 3)]);
    expect(rolledBackInheritedByFork(source, 9)).toEqual([r(3, 4)]);
    expect(liveHistory(forkOf(source, 3, 5))).toEqual([r(1, 2), r(4, 5)]);
  });
});
