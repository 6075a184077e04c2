import { describe, expect, it } from 'vitest';
import { buildDispatch, dispatchProviderThreadId } from '../../../src/domain/dispatch.js';
import type {
  HandoffRecord,
  HandoffStatus,
  ProviderThreadAction,
  ProviderThreadRecord,
  RunPlanRecord,
  RunRecord,
} from '../../../src/domain/records.js';

function run(action: ProviderThreadAction, plan: Partial<RunPlanRecord> = {}): RunRecord {
  return {
    id: 'run_3',
    threadId: 'thr_1',
    ordinal: 3,
    provider: 'codex',
    model: null,
    runtimeMode: null,
    status: 'running',
    userMessage: 'Add the parser tests.',
    assistantMessage: null,
    error: null,
    providerThreadId: 'C2',
    contextHandoffId: null,
    plan: {
      decision: 'no_handoff',
      providerThreadAction: action,
      providerThreadId: null,
      handoffStrategy: null,
      coveredRunOrdinals: null,
      stalenessSignals: [],
      reasons: [],
      ...plan,
    },
    dispatchEpoch: 1,
    createdAt: '2025-01-01T00:00:00.000Z',
    completedAt: null,
  };
}

function providerThread(nativeThreadRef: string | null = 'native-C1'): ProviderThreadRecord {
  return {
    id: 'C1',
    threadId: 'thr_1',
    seq: 1,
    provider: 'codex',
    nativeThreadRef,
    status: 'idle',
    model: null,
    runtimeMode: null,
    firstRunOrdinal: 1,
    lastRunOrdinal: 2,
    served: [{ from: 1, to: 2 }],
    statusReason: null,
    resumeError: null,
    rollbackError: null,
    forkedFromId: null,
    inheritedThroughOrdinal: null,
    createdAt: '2025-01-01T00:00:00.000Z',
  };
}

function handoff(status: HandoffStatus): HandoffRecord {
  return {
    id: 'ho_1',
    transferId: 'tr_1',
    threadId: 'thr_1',
    targetRunId: 'run_3',
    fromProviderThreadIds: ['L1'],
    toProviderThreadId: 'C2',
    coveredRunOrdinals: { from: 1, to: 2 },
    strategy: 'full_thread_summary',
    summaryText: 'Runs 1-2 built the parser.',
    status,
    createdByProvider: null,
    delivery: 'developer',
    supersedesId: null,
    supersededById: null,
    source: 'local',
    inputDigest: null,
    budgetChars: null,
    length: 26,
    requestedAt: '2025-01-01T00:00:00.000Z',
    writtenAt: null,
    usedAt: null,
    failureReason: null,
    endedBecause: null,
    endedAt: null,
    omissions: [],
    receipt: null,
    summaryRequest: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
}

describe('buildDispatch', () => {
  it('sends a ready handoff as leading context, delivered its way, then the user message', () => {
    expect(buildDispatch(run('resume'), providerThread(), handoff('ready'))).toEqual({
      providerThreadAction: 'resume',
      nativeThreadRef: 'native-C1',
      forkFromTurn: null,
      delivery: 'developer',
      context: 'Runs 1-2 built the parser.',
      userMessage: 'Add the parser tests.',
      fencingToken: 'run_3~1',
    });
  });

  it('sends no context for a handoff that is not ready, or none', () => {
    for (const status of ['pending', 'failed', 'superseded'] as const) {
      expect(buildDispatch(run('reuse'), providerThread(), handoff(status)), status).toMatchObject({
        delivery: null,
        context: null,
        userMessage: 'Add the parser tests.',
      });
    }
    expect(buildDispatch(run('reuse'), providerThread(), null)).toMatchObject({ delivery: null, context: null });
  });

  it('carries no native ref for a provider thread still to be created', () => {
    expect(buildDispatch(run('create'), providerThread(), null).nativeThreadRef).toBeNull();
  });

  it('carries the native ref when there is one, and null when the provider thread has none or is missing', () => {
    expect(buildDispatch(run('reuse'), providerThread(), null).nativeThreadRef).toBe('native-C1');
    expect(buildDispatch(run('reuse'), providerThread(null), null).nativeThreadRef).toBeNull();
    expect(buildDispatch(run('none'), null, null).nativeThreadRef).toBeNull();
  });

  it('names the turn to fork from for a native fork only', () => {
    expect(buildDispatch(run('native_fork', { forkFromTurn: 1 }), providerThread(), null)).toMatchObject({
      providerThreadAction: 'native_fork',
      nativeThreadRef: 'native-C1',
      forkFromTurn: 1,
    });
    expect(buildDispatch(run('native_fork'), providerThread(), null).forkFromTurn).toBeNull();
    expect(buildDispatch(run('resume', { forkFromTurn: 4 }), providerThread(), null).forkFromTurn).toBeNull();
  });
});

describe('dispatchProviderThreadId', () => {
  it('is the source provider thread for a native fork, whose native ref the provider forks', () => {
    expect(dispatchProviderThreadId(run('native_fork', { providerThreadId: 'C1' }))).toBe('C1');
  });

  it('is the run own provider thread otherwise', () => {
    expect(dispatchProviderThreadId(run('native_fork'))).toBe('C2');
    expect(dispatchProviderThreadId(run('reuse', { providerThreadId: 'C1' }))).toBe('C2');
    expect(dispatchProviderThreadId(run('create'))).toBe('C2');
  });
});
