import { describe, expect, it } from 'vitest';
import { planForFork, resolveFork, type ForkResolution, type PendingFork } from '../../../src/domain/forks.js';
import type { Plan, PlanRequest } from '../../../src/domain/planner.js';
import type { ProviderThreadRecord, ProviderThreadStatus } from '../../../src/domain/records.js';
import { provider, request } from '../support/planning.js';

function source(overrides: Partial<ProviderThreadRecord> = {}): ProviderThreadRecord {
  return {
    id: 'C1',
    threadId: 'thr_source',
    seq: 1,
    provider: 'codex',
    nativeThreadRef: 'native-C1',
    status: 'idle',
    model: null,
    runtimeMode: null,
    firstRunOrdinal: 1,
    lastRunOrdinal: 5,
    served: [{ from: 1, to: 5 }],
    statusReason: null,
    resumeError: null,
    rollbackError: null,
    forkedFromId: null,
    inheritedThroughOrdinal: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A fork at run 5, the source provider thread's latest run and its 5th turn. */
function fork(overrides: Partial<PendingFork> = {}): PendingFork {
  return { sourceProviderThread: source(), sourceRunOrdinal: 5, sourceTurns: 5, fromCheckpoint: false, ...overrides };
}

describe('resolveFork', () => {
  it('forks natively at the source point turn when the same provider can continue the source', () => {
    expect(resolveFork(fork(), request())).toEqual({
      kind: 'native',
      providerThreadId: 'C1',
      forkFromTurn: 5,
      reason: 'Provider thread C1 is forked natively at its turn 5 (run 5).',
    });
  });

  it('forks natively at the very first turn', () => {
    const atFirst = fork({
      sourceProviderThread: source({ lastRunOrdinal: 1, served: [{ from: 1, to: 1 }] }),
      sourceRunOrdinal: 1,
      sourceTurns: 1,
    });
    expect(resolveFork(atFirst, request())).toMatchObject({ kind: 'native', forkFromTurn: 1 });
  });

  it('needs forking from an earlier turn only below the source latest run', () => {
    const noEarlierTurns = request({ provider: provider('codex', { canForkFromTurn: false }) });
    expect(resolveFork(fork(), noEarlierTurns)).toMatchObject({ kind: 'native', forkFromTurn: 5 });
    expect(resolveFork(fork({ sourceRunOrdinal: 4, sourceTurns: 4 }), noEarlierTurns)).toEqual({
      kind: 'portable',
      strategy: 'full_thread_summary',
      resolution: 'portable_context',
      reason: 'The fork gets portable context: codex cannot fork from an earlier turn.',
    });
    expect(resolveFork(fork({ sourceRunOrdinal: 4, sourceTurns: 4 }), request())).toMatchObject({
      kind: 'native',
      forkFromTurn: 4,
    });
  });

  it('gives portable context, saying why, whenever the source cannot be continued natively', () => {
    const cases: [string, PendingFork, PlanRequest][] = [
      ['the source point was served by codex, not claude', fork(), request({ provider: provider('claude') })],
      ['codex cannot fork threads', fork(), request({ provider: provider('codex', { canForkThread: false }) })],
      [
        'provider thread C1 has no reliable native id',
        fork(),
        request({ provider: provider('codex', { nativeThreadIds: 'weak' }) }),
      ],
      [
        'provider thread C1 has no reliable native id',
        fork({ sourceProviderThread: source({ nativeThreadRef: null }) }),
        request(),
      ],
      ['a clean context was requested', fork(), request({ cleanContext: true })],
      [
        'the runtime mode differs',
        fork({ sourceProviderThread: source({ runtimeMode: 'read-only' }) }),
        request({ runtimeMode: 'workspace-write' }),
      ],
      [
        'the model differs',
        fork({ sourceProviderThread: source({ model: 'a' }) }),
        request({ model: 'b', provider: provider('codex', { supportsModelSwitchInThread: false }) }),
      ],
    ];
    for (const [why, pending, planRequest] of cases) {
      expect(resolveFork(pending, planRequest), why).toEqual({
        kind: 'portable',
        strategy: 'full_thread_summary',
        resolution: 'portable_context',
        reason: `The fork gets portable context: ${why}.`,
      });
    }
  });

  it('does not fork a provider thread that is divergent, stale, resume-failed, rolled back or closed', () => {
    const unforkable: [ProviderThreadStatus, string][] = [
      ['divergent', 'divergent'],
      ['stale', 'stale'],
      ['resume_failed', 'resume failed'],
      ['rolled_back', 'rolled back'],
      ['closed', 'closed'],
    ];
    for (const [status, words] of unforkable) {
      expect(resolveFork(fork({ sourceProviderThread: source({ status }) }), request()).reason).toBe(
        `The fork gets portable context: provider thread C1 is ${words}.`,
      );
    }
    for (const status of ['active', 'idle'] as const) {
      expect(resolveFork(fork({ sourceProviderThread: source({ status }) }), request()).kind).toBe('native');
    }
  });

  it('gives a checkpoint summary to a fork from a checkpoint without a provider thread', () => {
    expect(resolveFork(fork({ sourceProviderThread: null, fromCheckpoint: true }), request())).toEqual({
      kind: 'portable',
      strategy: 'checkpoint_summary',
      resolution: 'checkpoint_context',
      reason: 'The fork gets a checkpoint summary: the fork starts from a checkpoint, with no provider thread to fork.',
    });
  });

  it('gives a checkpoint summary to a fork from a checkpoint whose provider thread cannot be continued', () => {
    expect(resolveFork(fork({ fromCheckpoint: true }), request({ cleanContext: true }))).toMatchObject({
      kind: 'portable',
      strategy: 'checkpoint_summary',
      resolution: 'checkpoint_context',
      reason: 'The fork gets a checkpoint summary: a clean context was requested.',
    });
  });

  it('forks natively from a checkpoint too when the same provider can continue its provider thread', () => {
    expect(resolveFork(fork({ fromCheckpoint: true }), request())).toMatchObject({ kind: 'native', forkFromTurn: 5 });
  });
});

describe('planForFork', () => {
  const plannerPlan: Plan = {
    decision: 'full_handoff_new',
    providerThreadAction: 'create',
    providerThreadId: null,
    handoffStrategy: 'full_thread_summary',
    coveredRunOrdinals: { from: 1, to: 5 },
    stalenessSignals: [],
    reasons: ['The planner said so.'],
    forkFromTurn: null,
    replacedProviderThreadId: null,
  };

  it('replaces the planner plan with a native fork of the source provider thread, without a handoff', () => {
    const native: ForkResolution = {
      kind: 'native',
      providerThreadId: 'C1',
      forkFromTurn: 3,
      reason: 'Forked natively.',
    };
    expect(planForFork(plannerPlan, native)).toEqual({
      decision: 'no_handoff',
      providerThreadAction: 'native_fork',
      providerThreadId: 'C1',
      handoffStrategy: null,
      coveredRunOrdinals: null,
      stalenessSignals: [],
      reasons: ['Forked natively.'],
      forkFromTurn: 3,
      replacedProviderThreadId: null,
    });
  });

  it('keeps the planner plan for portable context, with the fork strategy and its reason added', () => {
    const checkpoint: ForkResolution = {
      kind: 'portable',
      strategy: 'checkpoint_summary',
      resolution: 'checkpoint_context',
      reason: 'From a checkpoint.',
    };
    expect(planForFork(plannerPlan, checkpoint)).toEqual({
      ...plannerPlan,
      handoffStrategy: 'checkpoint_summary',
      reasons: ['The planner said so.', 'From a checkpoint.'],
    });
  });

  it('adds no strategy to a plan without a handoff', () => {
    const withoutHandoff: Plan = {
      ...plannerPlan,
      decision: 'no_handoff',
      handoffStrategy: null,
      coveredRunOrdinals: null,
    };
    const portable: ForkResolution = {
      kind: 'portable',
      strategy: 'full_thread_summary',
      resolution: 'portable_context',
      reason: 'Portable.',
    };
    expect(planForFork(withoutHandoff, portable)).toEqual({
      ...withoutHandoff,
      reasons: ['The planner said so.', 'Portable.'],
    });
  });
});
