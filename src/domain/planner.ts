// The provider-switching strategy of docs/design.md, as a pure function over the
// bounded neighbourhood the graph layer reads (PlanningSnapshot). One function per step of the
// design's strategy order; planRun and startRun both call decidePlan, so they cannot disagree.
import {
  RANGES_NAMING_THE_ENDS,
  describeOrdinals,
  endsOf,
  highest,
  lowest,
  subtractEnds,
  type RangeEnds,
  type Remainder,
} from './ranges.js';
import type { ProviderDefinition } from './providers.js';
import type {
  HandoffStrategy,
  OrdinalRange,
  PlanDecision,
  ProviderThreadAction,
  ProviderThreadRecord,
  RunPlanRecord,
  StalenessSignal,
} from './records.js';

export interface PlannerSettings {
  /** Step 5: a delta drawn from more provider threads than this is "too complex". */
  maxDeltaSourceThreads: number;
  /** TOO_MANY_RUNS_ELSEWHERE fires past this many live runs since the target's last native run. */
  maxRunsElsewhere: number;
  /** TOO_MANY_CHAINED_HANDOFFS fires when the target already holds this many standing handoffs. */
  maxChainedHandoffs: number;
}

export const DEFAULT_PLANNER_SETTINGS: PlannerSettings = {
  maxDeltaSourceThreads: 2,
  maxRunsElsewhere: 20,
  maxChainedHandoffs: 3,
};

export interface PlanRequest {
  provider: ProviderDefinition;
  model: string | null;
  runtimeMode: string | null;
  cleanContext: boolean;
}

export interface RunSinceLastNative {
  ordinal: number;
  providerThreadId: string;
}

/** The best provider thread for the requested provider and what it knows. */
export interface TargetView {
  providerThread: ProviderThreadRecord;
  /** Highest live ordinal it knows natively or through a standing handoff; 0 when none. */
  coveredThroughOrdinal: number;
  standingHandoffCount: number;
  /** Live runs after its last native run, ascending; the graph layer reads at most maxRunsElsewhere + 1. */
  runsSinceLastNative: RunSinceLastNative[];
}

export interface PlanningSnapshot {
  /** Highest live ordinal; 0 when the thread has no live runs. */
  headOrdinal: number;
  /** Provider thread that served the head run; null when there is none. */
  headProviderThreadId: string | null;
  target: TargetView | null;
  /** The thread's rolled-back ranges (the ordinals of its history that are not live) by their ends; absent: none. */
  rolledBack?: RangeEnds;
}

export interface Plan extends RunPlanRecord {
  /** The provider thread a new one replaces (becomes STALE unless already failed or divergent). */
  replacedProviderThreadId: string | null;
}

/**
 * The range of the delta whose summary length SUMMARY_EXCEEDS_POLICY compares with the provider's
 * limit, or null when no delta is in play. Rendering a delta past maxRunsElsewhere runs would make
 * planning cost grow with history; the thread is stale by then anyway, so such a delta is not measured.
 */
export function measurableDeltaRange(snapshot: PlanningSnapshot, settings: PlannerSettings): OrdinalRange | null {
  const target = snapshot.target;
  if (!target || target.coveredThroughOrdinal >= snapshot.headOrdinal) return null;
  if (target.runsSinceLastNative.length > settings.maxRunsElsewhere) return null;
  return deltaRange(snapshot, target);
}

const SIGNAL_REASONS: Record<
  StalenessSignal,
  (request: PlanRequest, target: TargetView, settings: PlannerSettings) => string
> = {
  too_many_runs_elsewhere: (_request, target, settings) =>
    `Provider thread ${target.providerThread.id} missed more than ${settings.maxRunsElsewhere} live runs since it last served one.`,
  too_many_chained_handoffs: (_request, target, settings) =>
    `Provider thread ${target.providerThread.id} already holds ${target.standingHandoffCount} standing handoffs (limit ${settings.maxChainedHandoffs}); another would chain too many.`,
  incompatible_config: (request, target) =>
    `The requested configuration (model ${request.model ?? 'unchanged'}, runtime mode ${request.runtimeMode ?? 'unchanged'}) is incompatible with provider thread ${target.providerThread.id} (model ${target.providerThread.model ?? 'unset'}, runtime mode ${target.providerThread.runtimeMode ?? 'unset'}).`,
  resume_failed: (_request, target) => `Provider thread ${target.providerThread.id} was reported unresumable.`,
  rolled_back_or_divergent: (_request, target) =>
    `Provider thread ${target.providerThread.id} is ${target.providerThread.status.replace('_', ' ')} after a rollback or fork.`,
  clean_context_requested: () => 'A clean context was requested.',
  summary_exceeds_policy: (request) =>
    `The delta summary would exceed ${request.provider.id}'s limit of ${request.provider.capabilities.maxRecommendedHandoffChars} characters.`,
};

/**
 * @param deltaSummaryChars length of the summary of measurableDeltaRange(snapshot) before any
 *   condensing; null when that range is null.
 */
export function decidePlan(
  snapshot: PlanningSnapshot,
  request: PlanRequest,
  deltaSummaryChars: number | null,
  settings: PlannerSettings = DEFAULT_PLANNER_SETTINGS,
): Plan {
  const { target } = snapshot;
  const signals = target ? detectStaleness(snapshot, target, request, deltaSummaryChars, settings) : [];
  const signalReasons = target ? signals.map((signal) => SIGNAL_REASONS[signal](request, target, settings)) : [];

  if (snapshot.headOrdinal === 0) return planForEmptyThread(snapshot, signals, signalReasons);
  if (!target)
    return fullHandoffIntoNewThread(
      snapshot,
      request,
      null,
      [],
      [`${request.provider.id} has no provider thread on this app thread yet.`],
    );
  if (signals.length > 0) return fullHandoffIntoNewThread(snapshot, request, target, signals, signalReasons);
  if (target.coveredThroughOrdinal >= snapshot.headOrdinal) return noHandoff(snapshot, target);
  if (deltaTooComplex(target, request, settings))
    return fullHandoffIntoExistingThread(snapshot, request, target, settings);
  return deltaHandoff(snapshot, request, target);
}

/** Which staleness signals fire for the target provider thread; every one that fires is listed. */
export function detectStaleness(
  snapshot: PlanningSnapshot,
  target: TargetView,
  request: PlanRequest,
  deltaSummaryChars: number | null,
  settings: PlannerSettings,
): StalenessSignal[] {
  const thread = target.providerThread;
  const missesRuns = target.coveredThroughOrdinal < snapshot.headOrdinal;
  const signals: StalenessSignal[] = [];
  if (target.runsSinceLastNative.length > settings.maxRunsElsewhere) signals.push('too_many_runs_elsewhere');
  if (missesRuns && target.standingHandoffCount >= settings.maxChainedHandoffs)
    signals.push('too_many_chained_handoffs');
  if (configIncompatibility(thread, request) !== null) signals.push('incompatible_config');
  if (thread.status === 'resume_failed') signals.push('resume_failed');
  if (thread.status === 'divergent' || thread.status === 'rolled_back') signals.push('rolled_back_or_divergent');
  if (request.cleanContext) signals.push('clean_context_requested');
  const limit = request.provider.capabilities.maxRecommendedHandoffChars;
  if (limit !== null && deltaSummaryChars !== null && deltaSummaryChars > limit) signals.push('summary_exceeds_policy');
  return signals;
}

/**
 * The design's "incompatible model / runtime-mode change": what differs between the request and an
 * existing provider thread, or null when the thread can serve it. A model change is compatible
 * where the provider switches models within a thread. Both the planner and a fork's native
 * resolution ask it.
 */
export function configIncompatibility(
  thread: Pick<ProviderThreadRecord, 'model' | 'runtimeMode'>,
  request: PlanRequest,
): 'the runtime mode differs' | 'the model differs' | null {
  if (request.runtimeMode !== null && thread.runtimeMode !== null && request.runtimeMode !== thread.runtimeMode)
    return 'the runtime mode differs';
  const modelChanged = request.model !== null && thread.model !== null && request.model !== thread.model;
  if (modelChanged && !request.provider.capabilities.supportsModelSwitchInThread) return 'the model differs';
  return null;
}

/** Step 1: nothing has happened yet, so nothing needs handing over. */
function planForEmptyThread(snapshot: PlanningSnapshot, signals: StalenessSignal[], signalReasons: string[]): Plan {
  const target = snapshot.target;
  if (target && signals.length === 0) return noHandoff(snapshot, target);
  return {
    ...emptyPlan('no_handoff', 'create'),
    stalenessSignals: signals,
    reasons: [...signalReasons, 'The thread has no live runs, so a new provider thread starts without a handoff.'],
    replacedProviderThreadId: target && signals.length > 0 ? target.providerThread.id : null,
  };
}

/** Step 4: the target already knows every live run. */
function noHandoff(snapshot: PlanningSnapshot, target: TargetView): Plan {
  const reuse = snapshot.headProviderThreadId === target.providerThread.id;
  return {
    ...emptyPlan('no_handoff', reuse ? 'reuse' : 'resume'),
    providerThreadId: target.providerThread.id,
    reasons: [
      snapshot.headOrdinal === 0
        ? `Provider thread ${target.providerThread.id} is resumed; the thread has no live runs to hand over.`
        : reuse
          ? `Provider thread ${target.providerThread.id} served the previous run and knows every live run.`
          : `Provider thread ${target.providerThread.id} already knows every live run through ${snapshot.headOrdinal}.`,
    ],
  };
}

/** Steps 2 and 3: a new provider thread with a summary of the whole app thread. */
function fullHandoffIntoNewThread(
  snapshot: PlanningSnapshot,
  request: PlanRequest,
  replaced: TargetView | null,
  signals: StalenessSignal[],
  reasons: string[],
): Plan {
  const plan: Plan = {
    ...emptyPlan('full_handoff_new', 'create'),
    handoffStrategy: 'full_thread_summary',
    coveredRunOrdinals: liveSpan(snapshot, { from: 1, to: snapshot.headOrdinal }),
    stalenessSignals: signals,
    reasons: [
      ...reasons,
      `A new ${request.provider.id} provider thread gets a full-thread summary of ${liveWords(snapshot, { from: 1, to: snapshot.headOrdinal })}.`,
    ],
    replacedProviderThreadId: replaced?.providerThread.id ?? null,
  };
  return requireHandoffSupport(plan, request);
}

/** Step 5 test: too many sources for a delta, or a provider that takes only full summaries. */
function deltaTooComplex(target: TargetView, request: PlanRequest, settings: PlannerSettings): boolean {
  const missed = target.runsSinceLastNative.filter((run) => run.ordinal > target.coveredThroughOrdinal);
  const sources = new Set(missed.map((run) => run.providerThreadId));
  return sources.size > settings.maxDeltaSourceThreads || !request.provider.capabilities.supportsDeltaHandoff;
}

/** Step 5: resume the target, but hand it the whole thread rather than a delta. */
function fullHandoffIntoExistingThread(
  snapshot: PlanningSnapshot,
  request: PlanRequest,
  target: TargetView,
  settings: PlannerSettings,
): Plan {
  const why = request.provider.capabilities.supportsDeltaHandoff
    ? `The runs it missed came from more than ${settings.maxDeltaSourceThreads} other provider threads, so a delta would be too complex.`
    : `${request.provider.id} does not support delta handoffs.`;
  const plan: Plan = {
    ...emptyPlan('full_handoff_existing', 'resume'),
    providerThreadId: target.providerThread.id,
    handoffStrategy: 'full_thread_summary',
    coveredRunOrdinals: liveSpan(snapshot, { from: 1, to: snapshot.headOrdinal }),
    reasons: [
      why,
      `Provider thread ${target.providerThread.id} is resumed with a full-thread summary of ${liveWords(snapshot, { from: 1, to: snapshot.headOrdinal })}.`,
    ],
  };
  return requireHandoffSupport(plan, request);
}

/** Step 6, the default on return: resume the target and hand it only what it missed. */
function deltaHandoff(snapshot: PlanningSnapshot, request: PlanRequest, target: TargetView): Plan {
  const range = deltaRange(snapshot, target);
  const plan: Plan = {
    ...emptyPlan('delta_handoff', 'resume'),
    providerThreadId: target.providerThread.id,
    handoffStrategy: 'delta_since_target_last_seen',
    coveredRunOrdinals: range,
    reasons: [
      `Provider thread ${target.providerThread.id} is resumed with a delta covering ${liveWords(snapshot, range)}, which it missed.`,
    ],
  };
  return requireHandoffSupport(plan, request);
}

/** Step "unsupported": a handoff is needed that the provider cannot take. */
function requireHandoffSupport(plan: Plan, request: PlanRequest): Plan {
  const capabilities = request.provider.capabilities;
  const missing = !capabilities.canConsumeHandoffSummaries
    ? 'cannot consume handoff summaries'
    : plan.handoffStrategy === 'full_thread_summary' && !capabilities.supportsFullThreadHandoff
      ? 'does not support full-thread handoffs'
      : null;
  if (missing === null) return plan;
  return {
    ...emptyPlan('unsupported', 'none'),
    coveredRunOrdinals: plan.coveredRunOrdinals,
    stalenessSignals: plan.stalenessSignals,
    reasons: [...plan.reasons, `${request.provider.id} ${missing} and there is no safe way to rebuild its context.`],
  };
}

function deltaRange(snapshot: PlanningSnapshot, target: TargetView): OrdinalRange {
  return liveSpan(snapshot, { from: target.coveredThroughOrdinal + 1, to: snapshot.headOrdinal });
}

/**
 * A handoff's range runs from the first to the last live run it covers: a rolled-back run is never in
 * a handoff's coverage, so the range never starts or ends on one (gaps inside it are the thread's
 * rolled-back ranges).
 */
function liveSpan(snapshot: PlanningSnapshot, range: OrdinalRange): OrdinalRange {
  return liveOf(snapshot, range).span ?? range;
}

function liveWords(snapshot: PlanningSnapshot, range: OrdinalRange): string {
  return liveOf(snapshot, range).words;
}

function liveOf(snapshot: PlanningSnapshot, range: OrdinalRange): Remainder {
  return subtractEnds(range, snapshot.rolledBack ?? NOTHING_ROLLED_BACK);
}

const NOTHING_ROLLED_BACK = endsOf([]);

/**
 * How many of the thread's rolled-back ranges a plan reads from each end (RangeEnds). From the
 * highest, every range a delta can meet: a delta is planned only while the target missed at most
 * maxRunsElsewhere live runs, a live run lies between two rolled-back ranges, and above the head lies
 * at most one range (every run past the head is rolled back), so maxRunsElsewhere + 2 ranges hold
 * them; and enough to name a full handoff's last pieces below that one above the head.
 */
export function rolledBackEndsRead(settings: PlannerSettings): { lowest: number; highest: number } {
  return {
    lowest: RANGES_NAMING_THE_ENDS.lowest,
    highest: Math.max(settings.maxRunsElsewhere + 2, RANGES_NAMING_THE_ENDS.highest + 1),
  };
}

function emptyPlan(decision: PlanDecision, providerThreadAction: ProviderThreadAction): Plan {
  return {
    decision,
    providerThreadAction,
    providerThreadId: null,
    handoffStrategy: null as HandoffStrategy | null,
    coveredRunOrdinals: null,
    stalenessSignals: [],
    reasons: [],
    replacedProviderThreadId: null,
  };
}

/**
 * The re-plan after a resume failure (the design's "resume failed": a new provider thread with a
 * full-thread summary): the run moves to a new provider thread, which gets a full summary of every
 * live run before it (`liveBefore`), or no handoff when there is none.
 */
export function planAfterResumeFailure(
  failedProviderThreadId: string,
  provider: string,
  error: string,
  liveBefore: readonly OrdinalRange[],
): Plan {
  const first = lowest(liveBefore);
  return {
    decision: first === null ? 'no_handoff' : 'full_handoff_new',
    providerThreadAction: 'create',
    providerThreadId: null,
    handoffStrategy: first === null ? null : 'full_thread_summary',
    coveredRunOrdinals: first === null ? null : { from: first, to: highest(liveBefore) },
    stalenessSignals: ['resume_failed'],
    reasons: [
      `Provider thread ${failedProviderThreadId} could not be resumed: ${error}`,
      first === null
        ? `A new ${provider} provider thread starts without a handoff; there are no earlier runs.`
        : `A new ${provider} provider thread gets a full-thread summary of ${describeOrdinals(liveBefore)}.`,
    ],
    replacedProviderThreadId: failedProviderThreadId,
  };
}

/**
 * A full-thread summary that does not fit the budget even fully condensed is replaced by a
 * checkpoint summary, when there is a checkpoint to describe the workspace instead.
 */
export function fallsBackToCheckpointSummary(
  strategy: HandoffStrategy,
  cutToFit: boolean,
  hasCheckpoint: boolean,
): boolean {
  return strategy === 'full_thread_summary' && cutToFit && hasCheckpoint;
}
