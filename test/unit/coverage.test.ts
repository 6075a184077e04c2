import { describe, expect, it } from 'vitest';
import {
  coverageOf,
  coveredThrough,
  leavingRun,
  rollbackDecision,
  servedAfterRollback,
  servingRun,
  turnsDroppedByRollback,
} from '../../src/domain/coverage.js';
import {
  inheritedByFork,
  liveHistory,
  livePiecesFor,
  rangeEnds,
  rolledBackAfterRollback,
  rolledBackInheritedByFork,
  segmentsFor,
  withdrawnByRollback,
  type ThreadHistory,
} from '../../src/domain/history.js';
import type { OrdinalRange } from '../../src/domain/records.js';

const r = (from: number, to: number) => ({ from, to });

function root(lastOrdinal: number, rolledBack = [] as { from: number; to: number }[]): ThreadHistory {
  return { id: 'root', forkOrdinal: 0, inherited: [], lastOrdinal, rolledBack };
}

describe('a thread history as ranges', () => {
  it('is every allocated ordinal less the rolled-back ones', () => {
    expect(liveHistory(root(12, [r(6, 9)]))).toEqual([r(1, 5), r(10, 12)]);
    expect(liveHistory(root(0))).toEqual([]);
  });

  it('withdraws on rollback only what is live above the point, and records all of it', () => {
    const thread = root(12, [r(6, 9)]);
    expect(withdrawnByRollback(thread, 4)).toEqual([r(5, 5), r(10, 12)]);
    expect(rolledBackAfterRollback(thread, 4)).toEqual([r(5, 12)]);
    expect(withdrawnByRollback(thread, 12)).toEqual([]);
    expect(rolledBackAfterRollback(root(3), 0)).toEqual([r(1, 3)]);
  });

  it('gives a fork, once, what its source had rolled back up to the fork point', () => {
    const source = root(12, [r(3, 4), r(8, 9)]);
    expect(rolledBackInheritedByFork(source, 6)).toEqual([r(3, 4)]);
    expect(rolledBackInheritedByFork(source, 8)).toEqual([r(3, 4), r(8, 8)]);
  });

  it('splits a range into live pieces of the threads that hold them', () => {
    const source = root(10, [r(3, 4)]);
    const fork: ThreadHistory = {
      id: 'fork',
      forkOrdinal: 6,
      inherited: inheritedByFork(source, 6),
      lastOrdinal: 9,
      rolledBack: [r(3, 4), r(8, 8)],
    };
    expect(segmentsFor(fork, r(1, 9)).map((segment) => segment.threadId)).toEqual(['root', 'fork']);
    expect(livePiecesFor(fork, r(2, 9))).toEqual([
      { threadId: 'root', from: 2, to: 2 },
      { threadId: 'root', from: 5, to: 6 },
      { threadId: 'fork', from: 7, to: 7 },
      { threadId: 'fork', from: 9, to: 9 },
    ]);
    expect(rangeEnds(fork, r(2, 9))).toEqual([
      { threadId: 'root', ordinal: 2 },
      { threadId: 'fork', ordinal: 9 },
    ]);
    expect(rangeEnds(fork, r(3, 4))).toEqual([]);
    expect(rangeEnds(fork, r(7, 8))).toEqual([{ threadId: 'fork', ordinal: 7 }]);
  });
});

describe('what a provider thread knows', () => {
  it('is the design example: C1 knows 1-5 and 9 natively and 6-8 by H2; L1 misses 9', () => {
    const history = liveHistory(root(9));
    const c1 = coverageOf(
      {
        providerThreadId: 'C1',
        served: [r(1, 5), r(9, 9)],
        inheritedThroughOrdinal: null,
        handoffRanges: [r(6, 8)],
        handoffIds: ['H2'],
      },
      history,
    );
    expect(c1).toEqual({
      providerThreadId: 'C1',
      nativeRanges: [r(1, 5), r(9, 9)],
      handoffRanges: [r(6, 8)],
      handoffIds: ['H2'],
      coveredThroughOrdinal: 9,
      missingRanges: [],
    });
    const l1 = coverageOf(
      {
        providerThreadId: 'L1',
        served: [r(6, 8)],
        inheritedThroughOrdinal: null,
        handoffRanges: [r(1, 5)],
        handoffIds: ['H1'],
      },
      history,
    );
    expect(l1).toMatchObject({
      nativeRanges: [r(6, 8)],
      handoffRanges: [r(1, 5)],
      coveredThroughOrdinal: 8,
      missingRanges: [r(9, 9)],
    });
  });

  it('never counts a rolled-back ordinal inside a handoff range as known or missing', () => {
    const history = liveHistory(root(11, [r(6, 9)]));
    const known = coverageOf(
      {
        providerThreadId: 'P',
        served: [r(1, 5)],
        inheritedThroughOrdinal: null,
        handoffRanges: [r(6, 10)],
        handoffIds: ['H'],
      },
      history,
    );
    expect(known).toMatchObject({ handoffRanges: [r(10, 10)], missingRanges: [r(11, 11)], coveredThroughOrdinal: 10 });
  });

  it('counts a native fork inherited runs as native, up to its fork point', () => {
    const history = liveHistory({ lastOrdinal: 5, rolledBack: [r(2, 2)] });
    const known = coverageOf(
      { providerThreadId: 'P', served: [r(4, 4)], inheritedThroughOrdinal: 3, handoffRanges: [], handoffIds: [] },
      history,
    );
    expect(known).toMatchObject({
      nativeRanges: [r(1, 1), r(3, 4)],
      missingRanges: [r(5, 5)],
      coveredThroughOrdinal: 4,
    });
  });

  it('over a window, answers of its runs only: ranges, handoff coverage, misses and the highest known', () => {
    // The design example, read for runs 4-7 and for 9 alone.
    const history = liveHistory(root(9));
    const c1 = {
      providerThreadId: 'C1',
      served: [r(1, 5), r(9, 9)],
      inheritedThroughOrdinal: null,
      handoffRanges: [r(6, 8)],
      handoffIds: ['H2'],
    };
    expect(coverageOf(c1, history, r(4, 7))).toEqual({
      providerThreadId: 'C1',
      nativeRanges: [r(4, 5)],
      handoffRanges: [r(6, 7)],
      handoffIds: ['H2'],
      coveredThroughOrdinal: 7,
      missingRanges: [],
    });
    const l1 = { ...c1, providerThreadId: 'L1', served: [r(6, 8)], handoffRanges: [r(1, 5)], handoffIds: [] };
    expect(coverageOf(l1, history, r(9, 9))).toMatchObject({
      nativeRanges: [],
      handoffRanges: [],
      coveredThroughOrdinal: 0,
      missingRanges: [r(9, 9)],
    });
    // A window past the thread's runs holds nothing, known or missing.
    expect(coverageOf(c1, history, r(20, 30))).toMatchObject({
      nativeRanges: [],
      missingRanges: [],
      coveredThroughOrdinal: 0,
    });
  });

  it('knows through the highest of its last run, its handoffs and its fork point', () => {
    expect(coveredThrough(5, 8, null)).toBe(8);
    expect(coveredThrough(null, null, 3)).toBe(3);
    expect(coveredThrough(null, null, null)).toBe(0);
  });
});

describe('native ranges as runs come, move and are rolled back', () => {
  it('grows with each run served, a new range after a gap', () => {
    const afterFirst = servingRun([], 1);
    expect(afterFirst).toEqual({ served: [r(1, 1)], firstRunOrdinal: 1, lastRunOrdinal: 1 });
    expect(servingRun(afterFirst.served, 2).served).toEqual([r(1, 2)]);
    expect(servingRun([r(1, 2)], 9)).toEqual({ served: [r(1, 2), r(9, 9)], firstRunOrdinal: 1, lastRunOrdinal: 9 });
  });

  it('forgets a run moved away by a resume failure', () => {
    expect(leavingRun([r(1, 2), r(9, 9)], 9)).toEqual({ served: [r(1, 2)], firstRunOrdinal: 1, lastRunOrdinal: 2 });
    expect(leavingRun([r(4, 4)], 4)).toEqual({ served: [], firstRunOrdinal: null, lastRunOrdinal: null });
  });

  it('keeps what is at or below the rollback point and counts the turns dropped', () => {
    expect(servedAfterRollback([r(1, 5), r(9, 9)], 5)).toEqual({
      served: [r(1, 5)],
      firstRunOrdinal: 1,
      lastRunOrdinal: 5,
    });
    expect(turnsDroppedByRollback([r(1, 5), r(9, 12)], 7)).toBe(4);
    expect(turnsDroppedByRollback([r(1, 5)], 7)).toBe(0);
  });

  it('asks for a native rollback only when the provider can and the thread keeps something', () => {
    expect(rollbackDecision(true, [r(1, 5), r(9, 9)], null, 5).action).toBe('rolled_back');
    expect(rollbackDecision(false, [r(1, 5), r(9, 9)], null, 5).action).toBe('divergent');
    // Served only runs above the point: nothing to roll back to.
    expect(rollbackDecision(true, [r(6, 8)], null, 5).action).toBe('divergent');
    // A native fork keeps what it inherited through the fork point.
    expect(rollbackDecision(true, [r(4, 4)], 3, 3).action).toBe('rolled_back');
    expect(rollbackDecision(true, [r(4, 4)], 3, 0).action).toBe('divergent');
  });
});

describe('native ranges at their edges', () => {
  it('merges a run adjacent to a range, and splits a range a run leaves from its middle', () => {
    expect(servingRun([r(1, 2)], 3)).toEqual({ served: [r(1, 3)], firstRunOrdinal: 1, lastRunOrdinal: 3 });
    expect(servingRun([r(2, 3)], 1)).toEqual({ served: [r(1, 3)], firstRunOrdinal: 1, lastRunOrdinal: 3 });
    expect(leavingRun([r(1, 5)], 3)).toEqual({ served: [r(1, 2), r(4, 5)], firstRunOrdinal: 1, lastRunOrdinal: 5 });
    expect(leavingRun([r(1, 5)], 1)).toEqual({ served: [r(2, 5)], firstRunOrdinal: 2, lastRunOrdinal: 5 });
    expect(leavingRun([r(1, 5)], 5)).toEqual({ served: [r(1, 4)], firstRunOrdinal: 1, lastRunOrdinal: 4 });
  });

  it('keeps nothing after a rollback to 0, and drops every turn', () => {
    expect(servedAfterRollback([r(1, 5), r(9, 9)], 0)).toEqual({
      served: [],
      firstRunOrdinal: null,
      lastRunOrdinal: null,
    });
    expect(turnsDroppedByRollback([r(1, 5), r(9, 9)], 0)).toBe(6);
    expect(turnsDroppedByRollback([], 3)).toBe(0);
  });

  it('knows nothing of an empty history', () => {
    const known = coverageOf(
      { providerThreadId: 'P', served: [], inheritedThroughOrdinal: null, handoffRanges: [r(1, 3)], handoffIds: ['H'] },
      [],
    );
    expect(known).toEqual({
      providerThreadId: 'P',
      nativeRanges: [],
      handoffRanges: [],
      handoffIds: ['H'],
      coveredThroughOrdinal: 0,
      missingRanges: [],
    });
  });

  it('counts a run both served and handed over as native only', () => {
    const known = coverageOf(
      {
        providerThreadId: 'P',
        served: [r(3, 4)],
        inheritedThroughOrdinal: null,
        handoffRanges: [r(1, 4)],
        handoffIds: ['H'],
      },
      [r(1, 5)],
    );
    expect(known).toMatchObject({
      nativeRanges: [r(3, 4)],
      handoffRanges: [r(1, 2)],
      coveredThroughOrdinal: 4,
      missingRanges: [r(5, 5)],
    });
  });
});

describe('rollbackDecision', () => {
  it('says what the rollback took and what follows, in each of its three outcomes', () => {
    expect(rollbackDecision(true, [r(1, 5), r(9, 12)], null, 7).reason).toBe(
      'The rollback to run 7 took 4 of its own turns; its provider rolls back natively: awaiting confirmProviderRollback or reportProviderRollbackFailure.',
    );
    expect(rollbackDecision(false, [r(1, 5), r(9, 12)], null, 7).reason).toBe(
      'The rollback to run 7 took 4 of its own turns; its provider cannot roll back natively: divergent, a new provider thread takes over.',
    );
    expect(rollbackDecision(true, [r(6, 8)], null, 5).reason).toBe(
      'The rollback to run 5 took 3 of its own turns, and it knew nothing at or before run 5: divergent, a new provider thread takes over.',
    );
  });

  it('speaks of a withdrawn handoff when the rollback took none of its own turns', () => {
    expect(rollbackDecision(true, [r(1, 5)], null, 7).reason).toBe(
      'The rollback to run 7 withdrew a handoff it had received; its provider rolls back natively: awaiting confirmProviderRollback or reportProviderRollbackFailure.',
    );
  });

  it('says divergent exactly when it decides divergent, at every rollback point', () => {
    const cases: [OrdinalRange[], number | null][] = [
      [[], null],
      [[r(1, 1)], null],
      [[r(2, 3), r(6, 6)], null],
      [[r(4, 5)], 3],
      [[], 3],
      [[r(5, 5)], 0],
    ];
    for (const canRollbackThread of [true, false]) {
      for (const [served, inherited] of cases) {
        for (let toOrdinal = 0; toOrdinal <= 7; toOrdinal++) {
          const { action, reason, turnsToDrop } = rollbackDecision(canRollbackThread, served, inherited, toOrdinal);
          expect(turnsToDrop).toBe(turnsDroppedByRollback(served, toOrdinal));
          expect(
            reason.endsWith('divergent, a new provider thread takes over.'),
            `${canRollbackThread} ${JSON.stringify(served)} ${inherited} ${toOrdinal}`,
          ).toBe(action === 'divergent');
        }
      }
    }
  });
});
