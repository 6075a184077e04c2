import { describe, expect, it } from 'vitest';
import {
  configIncompatibility,
  decidePlan,
  DEFAULT_PLANNER_SETTINGS,
  detectStaleness,
  fallsBackToCheckpointSummary,
  measurableDeltaRange,
  planAfterResumeFailure,
  rolledBackEndsRead,
  type Plan,
  type PlannerSettings,
  type PlanningSnapshot,
  type PlanRequest,
  type RunSinceLastNative,
  type TargetView,
} from '../../src/domain/planner.js';
import type { ProviderCapabilities } from '../../src/domain/providers.js';
import { endsOf } from '../../src/domain/ranges.js';
import type { ProviderThreadRecord, StalenessSignal } from '../../src/domain/records.js';
import { provider, request } from './support/planning.js';

function providerThread(id: string, overrides: Partial<ProviderThreadRecord> = {}): ProviderThreadRecord {
  return {
    id,
    threadId: 'thr_1',
    seq: 1,
    provider: 'codex',
    nativeThreadRef: `native-${id}`,
    status: 'idle',
    model: null,
    runtimeMode: null,
    firstRunOrdinal: 1,
    lastRunOrdinal: null,
    served: [],
    statusReason: null,
    resumeError: null,
    rollbackError: null,
    forkedFromId: null,
    inheritedThroughOrdinal: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Runs from..to (inclusive), all served by one provider thread. */
function runsOn(from: number, to: number, providerThreadId: string): RunSinceLastNative[] {
  const runs: RunSinceLastNative[] = [];
  for (let ordinal = from; ordinal <= to; ordinal += 1) runs.push({ ordinal, providerThreadId });
  return runs;
}

interface TargetOptions {
  coveredThrough?: number;
  standing?: number;
  since?: RunSinceLastNative[];
  thread?: Partial<ProviderThreadRecord>;
}

function target(id: string, options: TargetOptions = {}): TargetView {
  return {
    providerThread: providerThread(id, options.thread),
    coveredThroughOrdinal: options.coveredThrough ?? 0,
    standingHandoffCount: options.standing ?? 0,
    runsSinceLastNative: options.since ?? [],
  };
}

function snapshot(
  headOrdinal: number,
  headProviderThreadId: string | null,
  targetView: TargetView | null,
): PlanningSnapshot {
  return { headOrdinal, headProviderThreadId, target: targetView };
}

/** A target that missed runs (covered+1)..head, all served by L1. */
function behind(
  covered: number,
  head: number,
  options: Omit<TargetOptions, 'coveredThrough' | 'since'> = {},
): PlanningSnapshot {
  return snapshot(
    head,
    'L1',
    target('C1', { ...options, coveredThrough: covered, since: runsOn(covered + 1, head, 'L1') }),
  );
}

/** A target that knows every run and served the head run. */
function upToDate(head: number, options: Omit<TargetOptions, 'coveredThrough'> = {}): PlanningSnapshot {
  return snapshot(head, 'C1', target('C1', { ...options, coveredThrough: head }));
}

const SETTINGS: PlannerSettings = { maxDeltaSourceThreads: 2, maxRunsElsewhere: 20, maxChainedHandoffs: 3 };

describe('DEFAULT_PLANNER_SETTINGS', () => {
  it('is 2 delta source threads, 20 runs elsewhere, 3 chained handoffs', () => {
    expect(DEFAULT_PLANNER_SETTINGS).toEqual({ maxDeltaSourceThreads: 2, maxRunsElsewhere: 20, maxChainedHandoffs: 3 });
  });
});

describe('decidePlan, step 1: the thread has no live runs', () => {
  it('creates a provider thread without a handoff when the provider has none', () => {
    const plan = decidePlan(snapshot(0, null, null), request(), null, SETTINGS);
    expect(plan).toMatchObject({
      decision: 'no_handoff',
      providerThreadAction: 'create',
      providerThreadId: null,
      handoffStrategy: null,
      coveredRunOrdinals: null,
      stalenessSignals: [],
      replacedProviderThreadId: null,
    });
    expect(plan.reasons).toHaveLength(1);
    expect(plan.reasons[0]).toMatch(/no live runs/);
  });

  it('resumes a usable provider thread the provider already has', () => {
    const plan = decidePlan(snapshot(0, null, target('C1')), request(), null, SETTINGS);
    expect(plan).toMatchObject({
      decision: 'no_handoff',
      providerThreadAction: 'resume',
      providerThreadId: 'C1',
      handoffStrategy: null,
      coveredRunOrdinals: null,
      stalenessSignals: [],
      replacedProviderThreadId: null,
    });
    expect(plan.reasons).toEqual([expect.stringContaining('C1')]);
  });

  it('reuses the provider thread when it is named as the head thread', () => {
    const plan = decidePlan(snapshot(0, 'C1', target('C1')), request(), null, SETTINGS);
    expect(plan.decision).toBe('no_handoff');
    expect(plan.providerThreadAction).toBe('reuse');
    expect(plan.providerThreadId).toBe('C1');
  });

  it('creates a new provider thread, replacing the old one, when a staleness signal fires', () => {
    const plan = decidePlan(
      snapshot(0, null, target('C1', { thread: { status: 'resume_failed' } })),
      request(),
      null,
      SETTINGS,
    );
    expect(plan).toMatchObject({
      decision: 'no_handoff',
      providerThreadAction: 'create',
      providerThreadId: null,
      handoffStrategy: null,
      coveredRunOrdinals: null,
      stalenessSignals: ['resume_failed'],
      replacedProviderThreadId: 'C1',
    });
    expect(plan.reasons).toHaveLength(2);
    expect(plan.reasons[0]).toMatch(/C1 was reported unresumable/);
    expect(plan.reasons[1]).toMatch(/no live runs/);
  });

  it('needs no handoff support, since nothing is handed over', () => {
    const mute = provider('mute', {
      canConsumeHandoffSummaries: false,
      supportsDeltaHandoff: false,
      supportsFullThreadHandoff: false,
    });
    const fresh = decidePlan(snapshot(0, null, null), request({ provider: mute }), null, SETTINGS);
    expect(fresh.decision).toBe('no_handoff');
    expect(fresh.providerThreadAction).toBe('create');
    const existing = decidePlan(snapshot(0, null, target('C1')), request({ provider: mute }), null, SETTINGS);
    expect(existing.decision).toBe('no_handoff');
    expect(existing.providerThreadAction).toBe('resume');
  });
});

describe('decidePlan, step 2: the provider has no provider thread on this app thread', () => {
  it('creates one with a full-thread summary of every live run', () => {
    const plan = decidePlan(snapshot(4, 'X1', null), request({ provider: provider('claude') }), null, SETTINGS);
    expect(plan).toMatchObject({
      decision: 'full_handoff_new',
      providerThreadAction: 'create',
      providerThreadId: null,
      handoffStrategy: 'full_thread_summary',
      coveredRunOrdinals: { from: 1, to: 4 },
      stalenessSignals: [],
      replacedProviderThreadId: null,
    });
    expect(plan.reasons).toHaveLength(2);
    expect(plan.reasons[0]).toMatch(/claude has no provider thread/);
    expect(plan.reasons[1]).toMatch(/runs 1-4/);
  });

  it('ignores deltaSummaryChars, since there is no target to measure against', () => {
    const plan = decidePlan(snapshot(4, 'X1', null), request(), 10_000_000, SETTINGS);
    expect(plan.decision).toBe('full_handoff_new');
    expect(plan.stalenessSignals).toEqual([]);
  });
});

describe('decidePlan, step 3: a staleness signal fires', () => {
  it('creates a new provider thread with a full summary and replaces the old one', () => {
    const plan = decidePlan(behind(3, 6), request({ cleanContext: true }), 500, SETTINGS);
    expect(plan).toMatchObject({
      decision: 'full_handoff_new',
      providerThreadAction: 'create',
      providerThreadId: null,
      handoffStrategy: 'full_thread_summary',
      coveredRunOrdinals: { from: 1, to: 6 },
      stalenessSignals: ['clean_context_requested'],
      replacedProviderThreadId: 'C1',
    });
    expect(plan.reasons).toHaveLength(2);
    expect(plan.reasons[0]).toBe('A clean context was requested.');
    expect(plan.reasons[1]).toMatch(/runs 1-6/);
  });

  it('takes precedence over step 4: a target that knows every run is still replaced', () => {
    const plan = decidePlan(upToDate(5, { thread: { status: 'divergent' } }), request(), null, SETTINGS);
    expect(plan.decision).toBe('full_handoff_new');
    expect(plan.providerThreadAction).toBe('create');
    expect(plan.coveredRunOrdinals).toEqual({ from: 1, to: 5 });
    expect(plan.replacedProviderThreadId).toBe('C1');
    expect(plan.stalenessSignals).toEqual(['rolled_back_or_divergent']);
  });

  it('takes precedence over step 5: a delta too complex for the target still gets a new thread', () => {
    const since = [...runsOn(4, 4, 'A1'), ...runsOn(5, 5, 'B1'), ...runsOn(6, 6, 'D1')];
    const snap = snapshot(6, 'D1', target('C1', { coveredThrough: 3, since, thread: { status: 'resume_failed' } }));
    const plan = decidePlan(snap, request(), 100, SETTINGS);
    expect(plan.decision).toBe('full_handoff_new');
    expect(plan.stalenessSignals).toEqual(['resume_failed']);
  });
});

describe('decidePlan, step 4: the target covers through the head', () => {
  it('reuses the target when it served the head run', () => {
    const plan = decidePlan(upToDate(5), request(), null, SETTINGS);
    expect(plan).toMatchObject({
      decision: 'no_handoff',
      providerThreadAction: 'reuse',
      providerThreadId: 'C1',
      handoffStrategy: null,
      coveredRunOrdinals: null,
      stalenessSignals: [],
      replacedProviderThreadId: null,
    });
    expect(plan.reasons).toEqual([expect.stringMatching(/C1 served the previous run/)]);
  });

  it('resumes the target when another thread served the head run but a handoff already covers it', () => {
    const snap = snapshot(8, 'L1', target('C1', { coveredThrough: 8, standing: 1, since: runsOn(6, 8, 'L1') }));
    const plan = decidePlan(snap, request(), null, SETTINGS);
    expect(plan).toMatchObject({
      decision: 'no_handoff',
      providerThreadAction: 'resume',
      providerThreadId: 'C1',
      handoffStrategy: null,
      coveredRunOrdinals: null,
      replacedProviderThreadId: null,
    });
    expect(plan.reasons).toEqual([expect.stringMatching(/through 8/)]);
  });

  it('needs no handoff support', () => {
    const mute = provider('mute', { canConsumeHandoffSummaries: false, supportsFullThreadHandoff: false });
    const plan = decidePlan(upToDate(5), request({ provider: mute }), null, SETTINGS);
    expect(plan.decision).toBe('no_handoff');
    expect(plan.providerThreadAction).toBe('reuse');
  });
});

describe('decidePlan, step 5: full handoff into the existing provider thread', () => {
  it('is chosen when the missed runs come from more than maxDeltaSourceThreads provider threads', () => {
    const since = [...runsOn(4, 4, 'A1'), ...runsOn(5, 5, 'B1'), ...runsOn(6, 7, 'D1')];
    const snap = snapshot(7, 'D1', target('C1', { coveredThrough: 3, since }));
    const plan = decidePlan(snap, request(), 900, SETTINGS);
    expect(plan).toMatchObject({
      decision: 'full_handoff_existing',
      providerThreadAction: 'resume',
      providerThreadId: 'C1',
      handoffStrategy: 'full_thread_summary',
      coveredRunOrdinals: { from: 1, to: 7 },
      stalenessSignals: [],
      replacedProviderThreadId: null,
    });
    expect(plan.reasons).toHaveLength(2);
    expect(plan.reasons[0]).toMatch(/more than 2 other provider threads/);
    expect(plan.reasons[1]).toMatch(/C1 is resumed with a full-thread summary of runs 1-7/);
  });

  it('stays a delta at exactly maxDeltaSourceThreads sources', () => {
    const since = [...runsOn(4, 5, 'A1'), ...runsOn(6, 7, 'B1')];
    const plan = decidePlan(snapshot(7, 'B1', target('C1', { coveredThrough: 3, since })), request(), 900, SETTINGS);
    expect(plan.decision).toBe('delta_handoff');
    expect(plan.coveredRunOrdinals).toEqual({ from: 4, to: 7 });
  });

  it('follows the maxDeltaSourceThreads setting', () => {
    const since = [...runsOn(4, 5, 'A1'), ...runsOn(6, 7, 'B1')];
    const snap = snapshot(7, 'B1', target('C1', { coveredThrough: 3, since }));
    const plan = decidePlan(snap, request(), 900, { ...SETTINGS, maxDeltaSourceThreads: 1 });
    expect(plan.decision).toBe('full_handoff_existing');
    expect(plan.reasons[0]).toMatch(/more than 1 other provider threads/);
  });

  it('counts only the runs the target missed, not runs a standing handoff already covers', () => {
    // Runs 4-6 came from three other threads, but a standing handoff covers them; only run 7 is missed.
    const since = [...runsOn(4, 4, 'A1'), ...runsOn(5, 5, 'B1'), ...runsOn(6, 6, 'D1'), ...runsOn(7, 7, 'L1')];
    const snap = snapshot(7, 'L1', target('C1', { coveredThrough: 6, standing: 1, since }));
    const plan = decidePlan(snap, request(), 300, SETTINGS);
    expect(plan.decision).toBe('delta_handoff');
    expect(plan.coveredRunOrdinals).toEqual({ from: 7, to: 7 });
  });

  it('is chosen when the provider does not support delta handoffs', () => {
    const fullOnly = provider('fullonly', { supportsDeltaHandoff: false });
    const plan = decidePlan(behind(5, 8), request({ provider: fullOnly }), 900, SETTINGS);
    expect(plan).toMatchObject({
      decision: 'full_handoff_existing',
      providerThreadAction: 'resume',
      providerThreadId: 'C1',
      handoffStrategy: 'full_thread_summary',
      coveredRunOrdinals: { from: 1, to: 8 },
    });
    expect(plan.reasons[0]).toBe('fullonly does not support delta handoffs.');
  });
});

describe('decidePlan, step 6: delta handoff', () => {
  it('resumes the target with a delta over the runs it missed', () => {
    const plan = decidePlan(behind(5, 8), request(), 900, SETTINGS);
    expect(plan).toEqual<Plan>({
      decision: 'delta_handoff',
      providerThreadAction: 'resume',
      providerThreadId: 'C1',
      handoffStrategy: 'delta_since_target_last_seen',
      coveredRunOrdinals: { from: 6, to: 8 },
      stalenessSignals: [],
      reasons: ['Provider thread C1 is resumed with a delta covering runs 6-8, which it missed.'],
      replacedProviderThreadId: null,
    });
  });

  it('starts the delta after what a standing handoff already covers', () => {
    const snap = snapshot(9, 'L1', target('C1', { coveredThrough: 7, standing: 1, since: runsOn(6, 9, 'L1') }));
    const plan = decidePlan(snap, request(), 400, SETTINGS);
    expect(plan.decision).toBe('delta_handoff');
    expect(plan.coveredRunOrdinals).toEqual({ from: 8, to: 9 });
  });

  it('does not need full-thread handoff support', () => {
    const deltaOnly = provider('deltaonly', { supportsFullThreadHandoff: false });
    const plan = decidePlan(behind(5, 8), request({ provider: deltaOnly }), 900, SETTINGS);
    expect(plan.decision).toBe('delta_handoff');
  });
});

describe('decidePlan: the design worked example', () => {
  // runs 1-5: codex on C1; run 6 with claude creates L1; runs 6-8 on L1; run 9 with codex resumes C1.
  it('plans run 6 for claude as a full handoff into a new provider thread', () => {
    const plan = decidePlan(
      snapshot(5, 'C1', null),
      request({ provider: provider('claude') }),
      null,
      DEFAULT_PLANNER_SETTINGS,
    );
    expect(plan).toMatchObject({
      decision: 'full_handoff_new',
      providerThreadAction: 'create',
      providerThreadId: null,
      handoffStrategy: 'full_thread_summary',
      coveredRunOrdinals: { from: 1, to: 5 },
      stalenessSignals: [],
      replacedProviderThreadId: null,
    });
  });

  it('plans run 9 for codex as a delta of runs 6-8 resuming C1', () => {
    const c1 = target('C1', {
      coveredThrough: 5,
      standing: 0,
      since: runsOn(6, 8, 'L1'),
      thread: { provider: 'codex', firstRunOrdinal: 1, lastRunOrdinal: 5 },
    });
    const snap = snapshot(8, 'L1', c1);
    expect(measurableDeltaRange(snap, DEFAULT_PLANNER_SETTINGS)).toEqual({ from: 6, to: 8 });
    const plan = decidePlan(snap, request({ provider: provider('codex') }), 1_200, DEFAULT_PLANNER_SETTINGS);
    expect(plan).toMatchObject({
      decision: 'delta_handoff',
      providerThreadAction: 'resume',
      providerThreadId: 'C1',
      handoffStrategy: 'delta_since_target_last_seen',
      coveredRunOrdinals: { from: 6, to: 8 },
      stalenessSignals: [],
      replacedProviderThreadId: null,
    });
  });

  it('plans run 9 the same when the settings argument is left out', () => {
    const snap = snapshot(8, 'L1', target('C1', { coveredThrough: 5, since: runsOn(6, 8, 'L1') }));
    const plan = decidePlan(snap, request(), 1_200);
    expect(plan.decision).toBe('delta_handoff');
    expect(plan.coveredRunOrdinals).toEqual({ from: 6, to: 8 });
  });
});

describe('decidePlan: unsupported', () => {
  const cannotConsume = provider('mute', { canConsumeHandoffSummaries: false });
  const noFull = provider('nofull', { supportsFullThreadHandoff: false });

  it('fails a delta when the provider cannot consume handoff summaries', () => {
    const plan = decidePlan(behind(5, 8), request({ provider: cannotConsume }), 900, SETTINGS);
    expect(plan).toMatchObject({
      decision: 'unsupported',
      providerThreadAction: 'none',
      providerThreadId: null,
      handoffStrategy: null,
      coveredRunOrdinals: { from: 6, to: 8 },
      stalenessSignals: [],
      replacedProviderThreadId: null,
    });
    expect(plan.reasons.at(-1)).toBe(
      'mute cannot consume handoff summaries and there is no safe way to rebuild its context.',
    );
  });

  it('fails a full handoff into a new thread when the provider cannot consume handoff summaries', () => {
    const plan = decidePlan(snapshot(3, 'X1', null), request({ provider: cannotConsume }), null, SETTINGS);
    expect(plan.decision).toBe('unsupported');
    expect(plan.providerThreadAction).toBe('none');
    expect(plan.coveredRunOrdinals).toEqual({ from: 1, to: 3 });
    expect(plan.reasons.at(-1)).toMatch(/^mute cannot consume handoff summaries/);
  });

  it('fails a full handoff into a new thread when full-thread handoffs are not supported', () => {
    const plan = decidePlan(snapshot(3, 'X1', null), request({ provider: noFull }), null, SETTINGS);
    expect(plan).toMatchObject({
      decision: 'unsupported',
      providerThreadAction: 'none',
      providerThreadId: null,
      handoffStrategy: null,
    });
    expect(plan.reasons.at(-1)).toMatch(/^nofull does not support full-thread handoffs/);
  });

  it('fails a full handoff into the existing thread when neither delta nor full handoffs are supported', () => {
    const neither = provider('neither', { supportsDeltaHandoff: false, supportsFullThreadHandoff: false });
    const plan = decidePlan(behind(5, 8), request({ provider: neither }), 900, SETTINGS);
    expect(plan).toMatchObject({
      decision: 'unsupported',
      providerThreadAction: 'none',
      providerThreadId: null,
      coveredRunOrdinals: { from: 1, to: 8 },
    });
    expect(plan.reasons[0]).toBe('neither does not support delta handoffs.');
    expect(plan.reasons.at(-1)).toMatch(/^neither does not support full-thread handoffs/);
  });

  it('keeps the staleness signals and replaces nothing when a stale target cannot be rebuilt', () => {
    const plan = decidePlan(behind(5, 8), request({ provider: noFull, cleanContext: true }), 900, SETTINGS);
    expect(plan).toMatchObject({
      decision: 'unsupported',
      providerThreadAction: 'none',
      stalenessSignals: ['clean_context_requested'],
      replacedProviderThreadId: null,
    });
    expect(plan.reasons[0]).toBe('A clean context was requested.');
  });
});

describe('staleness signals, each alone', () => {
  const small: PlannerSettings = { maxDeltaSourceThreads: 2, maxRunsElsewhere: 3, maxChainedHandoffs: 2 };

  function expectOnly(plan: Plan, signal: StalenessSignal, reason: RegExp): void {
    expect(plan.stalenessSignals).toEqual([signal]);
    expect(plan.decision).toBe('full_handoff_new');
    expect(plan.providerThreadAction).toBe('create');
    expect(plan.handoffStrategy).toBe('full_thread_summary');
    expect(plan.replacedProviderThreadId).toBe('C1');
    expect(plan.reasons).toHaveLength(2);
    expect(plan.reasons[0]).toMatch(reason);
  }

  describe('too_many_runs_elsewhere', () => {
    it('fires past maxRunsElsewhere runs since the last native run', () => {
      expectOnly(
        decidePlan(behind(5, 9), request(), null, small),
        'too_many_runs_elsewhere',
        /C1 missed more than 3 live runs/,
      );
    });

    it('does not fire at exactly maxRunsElsewhere', () => {
      expect(decidePlan(behind(5, 8), request(), 100, small).stalenessSignals).toEqual([]);
    });

    it('uses the default limit of 20 when no settings are given', () => {
      expect(decidePlan(behind(5, 25), request(), 100).stalenessSignals).toEqual([]);
      expect(decidePlan(behind(5, 26), request(), null).stalenessSignals).toEqual(['too_many_runs_elsewhere']);
    });
  });

  describe('too_many_chained_handoffs', () => {
    it('fires when the target holds maxChainedHandoffs standing handoffs and needs another', () => {
      expectOnly(
        decidePlan(behind(5, 6, { standing: 2 }), request(), 100, small),
        'too_many_chained_handoffs',
        /C1 already holds 2 standing handoffs \(limit 2\)/,
      );
    });

    it('does not fire below the limit', () => {
      expect(decidePlan(behind(5, 6, { standing: 1 }), request(), 100, small).stalenessSignals).toEqual([]);
    });

    it('does not fire when no handoff is needed', () => {
      const plan = decidePlan(upToDate(6, { standing: 5 }), request(), null, small);
      expect(plan.stalenessSignals).toEqual([]);
      expect(plan.decision).toBe('no_handoff');
    });
  });

  describe('incompatible_config', () => {
    const onThread = { thread: { model: 'gpt-a', runtimeMode: 'sandbox' } };

    it('fires on a runtime mode change', () => {
      expectOnly(
        decidePlan(upToDate(5, onThread), request({ runtimeMode: 'full-access' }), null, small),
        'incompatible_config',
        /runtime mode full-access\) is incompatible with provider thread C1 \(model gpt-a, runtime mode sandbox\)/,
      );
    });

    it('treats a null runtime mode on either side as compatible', () => {
      expect(decidePlan(upToDate(5, onThread), request({ runtimeMode: null }), null, small).stalenessSignals).toEqual(
        [],
      );
      const unset = upToDate(5, { thread: { runtimeMode: null } });
      expect(decidePlan(unset, request({ runtimeMode: 'full-access' }), null, small).stalenessSignals).toEqual([]);
    });

    it('does not fire for the same runtime mode', () => {
      expect(
        decidePlan(upToDate(5, onThread), request({ runtimeMode: 'sandbox', model: 'gpt-a' }), null, small)
          .stalenessSignals,
      ).toEqual([]);
    });

    it('fires on a model change when the provider cannot switch models in a thread', () => {
      const fixedModel = provider('codex', { supportsModelSwitchInThread: false });
      expectOnly(
        decidePlan(upToDate(5, onThread), request({ provider: fixedModel, model: 'gpt-b' }), null, small),
        'incompatible_config',
        /model gpt-b, runtime mode unchanged/,
      );
    });

    it('does not fire on a model change the provider can make in-thread', () => {
      expect(decidePlan(upToDate(5, onThread), request({ model: 'gpt-b' }), null, small).stalenessSignals).toEqual([]);
    });

    it('treats a null model on either side as compatible', () => {
      const fixedModel = provider('codex', { supportsModelSwitchInThread: false });
      expect(
        decidePlan(upToDate(5, onThread), request({ provider: fixedModel, model: null }), null, small).stalenessSignals,
      ).toEqual([]);
      const unset = upToDate(5, { thread: { model: null } });
      expect(
        decidePlan(unset, request({ provider: fixedModel, model: 'gpt-b' }), null, small).stalenessSignals,
      ).toEqual([]);
    });
  });

  describe('resume_failed', () => {
    it('fires for a provider thread reported unresumable', () => {
      expectOnly(
        decidePlan(upToDate(5, { thread: { status: 'resume_failed' } }), request(), null, small),
        'resume_failed',
        /^Provider thread C1 was reported unresumable\.$/,
      );
    });
  });

  describe('rolled_back_or_divergent', () => {
    it('fires for a divergent provider thread', () => {
      expectOnly(
        decidePlan(upToDate(5, { thread: { status: 'divergent' } }), request(), null, small),
        'rolled_back_or_divergent',
        /^Provider thread C1 is divergent after a rollback or fork\.$/,
      );
    });

    it('fires for a rolled-back provider thread', () => {
      expectOnly(
        decidePlan(upToDate(5, { thread: { status: 'rolled_back' } }), request(), null, small),
        'rolled_back_or_divergent',
        /^Provider thread C1 is rolled back after a rollback or fork\.$/,
      );
    });

    it('does not fire for other statuses', () => {
      for (const status of ['active', 'idle', 'stale', 'closed'] as const) {
        expect(decidePlan(upToDate(5, { thread: { status } }), request(), null, small).stalenessSignals).toEqual([]);
      }
    });
  });

  describe('clean_context_requested', () => {
    it('fires when a clean context is requested', () => {
      expectOnly(
        decidePlan(upToDate(5), request({ cleanContext: true }), null, small),
        'clean_context_requested',
        /^A clean context was requested\.$/,
      );
    });
  });

  describe('summary_exceeds_policy', () => {
    const limited = provider('codex', { maxRecommendedHandoffChars: 1_000 });

    it('fires when the delta summary exceeds the provider limit', () => {
      expectOnly(
        decidePlan(behind(5, 8), request({ provider: limited }), 1_001, small),
        'summary_exceeds_policy',
        /^The delta summary would exceed codex's limit of 1000 characters\.$/,
      );
    });

    it('does not fire at exactly the limit', () => {
      const plan = decidePlan(behind(5, 8), request({ provider: limited }), 1_000, small);
      expect(plan.stalenessSignals).toEqual([]);
      expect(plan.decision).toBe('delta_handoff');
    });

    it('never fires when the provider has no limit', () => {
      const unlimited = provider('codex', { maxRecommendedHandoffChars: null });
      expect(decidePlan(behind(5, 8), request({ provider: unlimited }), 9_999_999, small).stalenessSignals).toEqual([]);
    });

    it('does not fire when no delta was measured', () => {
      expect(decidePlan(behind(5, 8), request({ provider: limited }), null, small).stalenessSignals).toEqual([]);
    });
  });
});

describe('staleness signals together', () => {
  const small: PlannerSettings = { maxDeltaSourceThreads: 2, maxRunsElsewhere: 3, maxChainedHandoffs: 2 };
  const strict = provider('codex', { supportsModelSwitchInThread: false, maxRecommendedHandoffChars: 1_000 });
  const reasonPatterns: Record<StalenessSignal, RegExp> = {
    too_many_runs_elsewhere: /missed more than 3 live runs/,
    too_many_chained_handoffs: /already holds 2 standing handoffs/,
    incompatible_config: /is incompatible with provider thread C1/,
    resume_failed: /was reported unresumable/,
    rolled_back_or_divergent: /after a rollback or fork/,
    clean_context_requested: /clean context was requested/,
    summary_exceeds_policy: /would exceed codex's limit of 1000/,
  };

  function everything(status: 'resume_failed' | 'divergent'): Plan {
    const snap = behind(2, 9, { standing: 2, thread: { status, model: 'gpt-a', runtimeMode: 'sandbox' } });
    return decidePlan(
      snap,
      request({ provider: strict, model: 'gpt-b', runtimeMode: 'full-access', cleanContext: true }),
      5_000,
      small,
    );
  }

  it.each([
    [
      'resume_failed',
      [
        'too_many_runs_elsewhere',
        'too_many_chained_handoffs',
        'incompatible_config',
        'resume_failed',
        'clean_context_requested',
        'summary_exceeds_policy',
      ],
    ],
    [
      'divergent',
      [
        'too_many_runs_elsewhere',
        'too_many_chained_handoffs',
        'incompatible_config',
        'rolled_back_or_divergent',
        'clean_context_requested',
        'summary_exceeds_policy',
      ],
    ],
  ] as const)('lists every fired signal in a stable order, one reason each (status %s)', (status, expected) => {
    const plan = everything(status);
    expect(plan.decision).toBe('full_handoff_new');
    expect(plan.replacedProviderThreadId).toBe('C1');
    expect(plan.stalenessSignals).toEqual(expected);
    expect(plan.reasons).toHaveLength(expected.length + 1);
    expected.forEach((signal, index) => expect(plan.reasons[index]).toMatch(reasonPatterns[signal]));
    expect(plan.reasons.at(-1)).toMatch(/full-thread summary of runs 1-9/);
  });

  it('lists two signals in the same order however the inputs are arranged', () => {
    const first = decidePlan(
      upToDate(5, { thread: { status: 'resume_failed' } }),
      request({ cleanContext: true }),
      null,
      small,
    );
    const second = decidePlan(
      upToDate(5, { thread: { status: 'resume_failed' } }),
      { cleanContext: true, runtimeMode: null, model: null, provider: provider() },
      null,
      small,
    );
    expect(first.stalenessSignals).toEqual(['resume_failed', 'clean_context_requested']);
    expect(second.stalenessSignals).toEqual(['resume_failed', 'clean_context_requested']);
    expect(first.reasons).toEqual(second.reasons);
  });
});

describe('detectStaleness', () => {
  it('returns no signals for a healthy target', () => {
    const snap = behind(5, 8);
    expect(detectStaleness(snap, snap.target!, request(), 100, SETTINGS)).toEqual([]);
  });

  it('returns the signals decidePlan lists', () => {
    const snap = behind(5, 8, { thread: { status: 'rolled_back' } });
    const req = request({ cleanContext: true });
    expect(detectStaleness(snap, snap.target!, req, 100, SETTINGS)).toEqual([
      'rolled_back_or_divergent',
      'clean_context_requested',
    ]);
    expect(decidePlan(snap, req, 100, SETTINGS).stalenessSignals).toEqual([
      'rolled_back_or_divergent',
      'clean_context_requested',
    ]);
  });
});

describe('measurableDeltaRange', () => {
  const small: PlannerSettings = { maxDeltaSourceThreads: 2, maxRunsElsewhere: 3, maxChainedHandoffs: 3 };

  it('is null without a target', () => {
    expect(measurableDeltaRange(snapshot(5, 'X1', null), small)).toBeNull();
  });

  it('is null when the thread has no live runs', () => {
    expect(measurableDeltaRange(snapshot(0, null, target('C1')), small)).toBeNull();
  });

  it('is null when the target missed nothing', () => {
    expect(measurableDeltaRange(upToDate(5), small)).toBeNull();
    const coveredByHandoff = snapshot(8, 'L1', target('C1', { coveredThrough: 8, since: runsOn(6, 8, 'L1') }));
    expect(measurableDeltaRange(coveredByHandoff, small)).toBeNull();
  });

  it('is the missed range from coveredThrough+1 to the head', () => {
    expect(measurableDeltaRange(behind(5, 8), small)).toEqual({ from: 6, to: 8 });
    const partlyCovered = snapshot(9, 'L1', target('C1', { coveredThrough: 7, since: runsOn(6, 9, 'L1') }));
    expect(measurableDeltaRange(partlyCovered, { ...small, maxRunsElsewhere: 4 })).toEqual({ from: 8, to: 9 });
  });

  it('is null when the window of runs elsewhere overflowed', () => {
    expect(measurableDeltaRange(behind(5, 8), small)).not.toBeNull();
    expect(measurableDeltaRange(behind(5, 9), small)).toBeNull();
  });
});

describe('a provider id never changes the decision', () => {
  const small: PlannerSettings = { maxDeltaSourceThreads: 2, maxRunsElsewhere: 3, maxChainedHandoffs: 2 };
  const capabilitySets: Record<string, Partial<ProviderCapabilities>> = {
    capable: {},
    fullOnly: { supportsDeltaHandoff: false },
    deltaOnly: { supportsFullThreadHandoff: false },
    mute: { canConsumeHandoffSummaries: false },
    fixedModel: { supportsModelSwitchInThread: false, maxRecommendedHandoffChars: 1_000 },
  };
  const scenarios: Record<string, { snap: PlanningSnapshot; chars: number | null; overrides?: Partial<PlanRequest> }> =
    {
      empty: { snap: snapshot(0, null, null), chars: null },
      emptyWithTarget: { snap: snapshot(0, null, target('C1')), chars: null },
      noTarget: { snap: snapshot(4, 'X1', null), chars: null },
      upToDate: { snap: upToDate(4), chars: null },
      coveredByHandoff: {
        snap: snapshot(8, 'L1', target('C1', { coveredThrough: 8, since: runsOn(6, 8, 'L1') })),
        chars: null,
      },
      delta: { snap: behind(5, 7), chars: 900 },
      tooComplex: {
        snap: snapshot(
          7,
          'D1',
          target('C1', {
            coveredThrough: 4,
            since: [...runsOn(5, 5, 'A1'), ...runsOn(6, 6, 'B1'), ...runsOn(7, 7, 'D1')],
          }),
        ),
        chars: 900,
      },
      overLimit: { snap: behind(5, 7), chars: 5_000 },
      stale: {
        snap: behind(2, 9, { standing: 2, thread: { status: 'divergent', model: 'm1', runtimeMode: 'r1' } }),
        chars: 5_000,
        overrides: { model: 'm2', runtimeMode: 'r2', cleanContext: true },
      },
    };

  for (const [capabilityName, capabilities] of Object.entries(capabilitySets)) {
    for (const [scenarioName, { snap, chars, overrides }] of Object.entries(scenarios)) {
      it(`${capabilityName} capabilities, ${scenarioName}`, () => {
        const asCodex = decidePlan(
          snap,
          request({ ...overrides, provider: provider('codex', capabilities) }),
          chars,
          small,
        );
        const asOther = decidePlan(
          snap,
          request({ ...overrides, provider: provider('zz-other', capabilities) }),
          chars,
          small,
        );
        const { reasons: codexReasons, ...codexPlan } = asCodex;
        const { reasons: otherReasons, ...otherPlan } = asOther;
        expect(otherPlan).toEqual(codexPlan);
        expect(otherReasons).toHaveLength(codexReasons.length);
        expect(otherReasons.map((reason) => reason.replaceAll('zz-other', 'codex'))).toEqual(codexReasons);
      });
    }
  }

  it('the built-in capability sets plan the same under swapped ids', () => {
    const snap = behind(5, 8);
    const codexCaps = provider('codex').capabilities;
    const a = decidePlan(
      snap,
      request({ provider: { id: 'claude', displayName: 'x', capabilities: codexCaps } }),
      900,
      small,
    );
    const b = decidePlan(
      snap,
      request({ provider: { id: 'codex', displayName: 'y', capabilities: codexCaps } }),
      900,
      small,
    );
    expect(a.decision).toBe('delta_handoff');
    expect({ ...a, reasons: [] }).toEqual({ ...b, reasons: [] });
  });
});

describe('one home per rule', () => {
  it('configIncompatibility: a changed runtime mode always, a changed model only where the provider cannot switch models', () => {
    const thread = providerThread('pt', { model: 'm1', runtimeMode: 'write' });
    expect(configIncompatibility(thread, request())).toBeNull();
    expect(configIncompatibility(thread, request({ runtimeMode: 'read-only' }))).toBe('the runtime mode differs');
    expect(configIncompatibility(thread, request({ model: 'm2' }))).toBeNull();
    expect(
      configIncompatibility(
        thread,
        request({ model: 'm2', provider: provider('codex', { supportsModelSwitchInThread: false }) }),
      ),
    ).toBe('the model differs');
    // Unset on either side is no change.
    expect(
      configIncompatibility(
        providerThread('pt'),
        request({ model: 'm2', runtimeMode: 'x', provider: provider('codex', { supportsModelSwitchInThread: false }) }),
      ),
    ).toBeNull();
  });

  it('planAfterResumeFailure: a new provider thread with a full summary of every live run before, or none', () => {
    expect(planAfterResumeFailure('pt_old', 'codex', 'no such session', [{ from: 1, to: 7 }])).toMatchObject({
      decision: 'full_handoff_new',
      providerThreadAction: 'create',
      handoffStrategy: 'full_thread_summary',
      coveredRunOrdinals: { from: 1, to: 7 },
      stalenessSignals: ['resume_failed'],
      replacedProviderThreadId: 'pt_old',
    });
    const first = planAfterResumeFailure('pt_old', 'codex', 'gone', []);
    expect(first).toMatchObject({ decision: 'no_handoff', handoffStrategy: null, coveredRunOrdinals: null });
    expect(first.reasons[0]).toBe('Provider thread pt_old could not be resumed: gone');
    // Only live runs are claimed: a gap left by a rollback is not.
    const gappy = planAfterResumeFailure('pt_old', 'codex', 'gone', [
      { from: 1, to: 5 },
      { from: 10, to: 10 },
    ]);
    expect(gappy).toMatchObject({ coveredRunOrdinals: { from: 1, to: 10 } });
    expect(gappy.reasons[1]).toBe('A new codex provider thread gets a full-thread summary of runs 1-5, 10.');
  });

  it('plans a delta after a rollback over the live runs only', () => {
    const snap: PlanningSnapshot = { ...behind(5, 10), rolledBack: endsOf([{ from: 6, to: 9 }]) };
    const plan = decidePlan(snap, request(), null, DEFAULT_PLANNER_SETTINGS);
    expect(plan).toMatchObject({ decision: 'delta_handoff', coveredRunOrdinals: { from: 10, to: 10 } });
    expect(plan.reasons).toEqual([expect.stringContaining('a delta covering run 10, which it missed')]);
    const full = decidePlan({ ...snap, target: null }, request(), null, DEFAULT_PLANNER_SETTINGS);
    expect(full.reasons.at(-1)).toContain('full-thread summary of runs 1-5, 10');
  });

  it('names a long history of rollbacks in a reason of one line', () => {
    const rolledBack = Array.from({ length: 1000 }, (_, i) => ({ from: 100 * i + 99, to: 100 * i + 100 }));
    const words =
      'A new codex provider thread gets a full-thread summary of runs 1-98, 101-198, 201-298, …, 99801-99898, 99901-99998 (1000 ranges, 98000 runs).';
    const whole = endsOf(rolledBack);
    const full = decidePlan(
      { ...behind(5, 100_000), rolledBack: whole, target: null },
      request(),
      null,
      DEFAULT_PLANNER_SETTINGS,
    );
    expect(full.reasons.at(-1)).toBe(words);
    // Read by its ends, as planRun reads it, the history gives the same plan.
    const { lowest, highest } = rolledBackEndsRead(DEFAULT_PLANNER_SETTINGS);
    const byEnds = { ...whole, lowest: rolledBack.slice(0, lowest), highest: rolledBack.slice(-highest) };
    expect(
      decidePlan(
        { ...behind(5, 100_000), rolledBack: byEnds, target: null },
        request(),
        null,
        DEFAULT_PLANNER_SETTINGS,
      ),
    ).toEqual(full);
  });

  it('fallsBackToCheckpointSummary: only a full summary cut to fit, and only with a checkpoint', () => {
    expect(fallsBackToCheckpointSummary('full_thread_summary', true, true)).toBe(true);
    expect(fallsBackToCheckpointSummary('full_thread_summary', true, false)).toBe(false);
    expect(fallsBackToCheckpointSummary('full_thread_summary', false, true)).toBe(false);
    expect(fallsBackToCheckpointSummary('delta_since_target_last_seen', true, true)).toBe(false);
  });
});
