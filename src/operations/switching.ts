// Provider switching: planRun, startRun, reportResumeFailure and bindProviderThread (a resumed blank is a resume failure), following the switch flow of
// docs/design.md: read the thread, find the best provider thread, decide the strategy
// (src/domain/planner.ts), generate the handoff, then create or resume the provider thread.
import { createHash } from 'node:crypto';
import { ThreadlineError, assertNoRunningRun, badInput, notFound, present } from '../domain/errors.js';
import {
  decidePlan,
  measurableDeltaRange,
  planAfterResumeFailure,
  type Plan,
  type PlanRequest,
  type PlanningSnapshot,
  rolledBackEndsRead,
} from '../domain/planner.js';
import { assertCurrentDispatch, parseFencingToken, resumedBlank, resumedBlankError } from '../domain/fencing.js';
import { planForFork, resolveFork, type ForkResolution } from '../domain/forks.js';
import { liveHistory } from '../domain/history.js';
import { intersect } from '../domain/ranges.js';
import { DEFAULT_SUMMARY_POLICY } from '../domain/summaryPolicy.js';
import { deliveryFor, knownProvider } from '../domain/providers.js';
import type {
  ContextDelivery,
  ProviderThreadAction,
  ProviderThreadRecord,
  RunPlanRecord,
  RunRecord,
  StartRunResult,
  ThreadRecord,
  TransferRecord,
} from '../domain/records.js';
import { recordChange } from '../graph/repositories/changes.js';
import {
  mergeBacksCarriedBy,
  resolveForkNatively,
  supersedeHandoff,
  handoffById,
} from '../graph/repositories/handoffs.js';
import {
  lockAndLoadPlanningSnapshot,
  loadPlanningSnapshot,
  type PlanningRead,
  type SummaryMaterial,
} from '../graph/repositories/planning.js';
import {
  bindProviderThread as bindNativeRef,
  createProviderThread,
  markProviderThreadStale,
  providerThreadById,
  providerThreadsByIds,
} from '../graph/repositories/providerThreads.js';
import {
  createRun,
  moveRunToProviderThread,
  runByIdempotencyKey,
  runsByIds,
  setRunPlan,
} from '../graph/repositories/runs.js';
import { lockThreadOf, writableThread, type LockedThread } from '../graph/repositories/threads.js';
import { inOrder } from '../graph/pipeline.js';
import type { Tx } from '../graph/transactions.js';
import { newId, type OperationContext } from './context.js';
import { writeWithConfiguredSummarizer } from './handoffSources.js';
import { lockDispatchedRun } from './runs.js';
import { composeRunContext, writeRunContext, type ComposeRequest, type RunContext } from './runContext.js';
import { readSummaryMaterial, summarize, summaryMaterialWithin } from './summaries.js';

export interface PlanInput {
  threadId: string;
  provider: string;
  model: string | null;
  runtimeMode: string | null;
  cleanContext: boolean;
}

export interface StartInput extends PlanInput {
  userMessage: string;
  idempotencyKey: string | null;
  manualContext: string | null;
}

/** What startRun would decide now, and the provider thread it names when the snapshot read it (saves the caller a read). Read-only. */
export async function planRun(
  context: OperationContext,
  input: PlanInput,
): Promise<{ plan: RunPlanRecord; providerThread: ProviderThreadRecord | null }> {
  const request = planRequest(context, input);
  // The snapshot statement alone, unless the delta reaches past the runs it reads.
  return context.graph.readInOneStatement(async (tx) => {
    const planned = await planWithinTransaction(tx, context, input.threadId, request, 'ends');
    return { plan: planned.plan, providerThread: namedProviderThread(planned) };
  });
}

export interface RunPreviewRecord {
  /** The plan as startRun would record it on the run (with the strategy and reasons its context adds). */
  plan: RunPlanRecord;
  providerThread: ProviderThreadRecord | null;
  providerThreadAction: ProviderThreadAction;
  /** The native id the dispatch would carry. */
  nativeThreadRef: string | null;
  delivery: ContextDelivery | null;
  /** The leading context the dispatch would carry; null when none, or while a writer is to write it. */
  context: string | null;
  /** Who startRun would ask to write the summary (a provider or a configured summarizer); null: written locally. */
  pendingWriter: string | null;
}

/**
 * What a startRun on this provider would plan and deliver now, composed by the very code startRun
 * writes with (composeRunContext), in a read transaction: no run, handoff or provider thread is written.
 */
export async function previewRun(context: OperationContext, input: PlanInput): Promise<RunPreviewRecord> {
  const request = planRequest(context, input);
  return context.graph.read(async (tx) => {
    const planned = await planWithinTransaction(tx, context, input.threadId, request, 'whole');
    const providerThread = namedProviderThread(planned);
    const action = planned.plan.providerThreadAction;
    const nativeThreadRef = action === 'create' ? null : (providerThread?.nativeThreadRef ?? null);
    const preview = {
      providerThread,
      providerThreadAction: action,
      nativeThreadRef,
      delivery: null,
      context: null,
      pendingWriter: null,
    };
    if (planned.plan.decision === 'unsupported') return { ...preview, plan: planned.plan };
    const composed = await composeRunContext(tx, {
      ...contextRequest(context, { ...input, manualContext: null }, request, planned),
      threadId: input.threadId,
    });
    const plan = planAsWritten(planned.plan, composed);
    if (!composed.lead) return { ...preview, plan };
    if (composed.lead.writer) return { ...preview, plan, pendingWriter: composed.lead.source };
    return { ...preview, plan, delivery: deliveryFor(request.provider.capabilities), context: composed.text };
  });
}

/** The provider thread the plan names, when the snapshot read it: the target's, or a native fork's source. */
function namedProviderThread({ plan, snapshot, fork }: PlannedRun): ProviderThreadRecord | null {
  const named = [snapshot.target?.providerThread, fork?.sourceProviderThread].find(
    (candidate) => candidate && candidate.id === plan.providerThreadId,
  );
  return named ?? null;
}

/** What a run's context is composed from, the same for startRun and previewRun (the run itself aside). */
function contextRequest(
  context: OperationContext,
  input: PlanInput & { manualContext: string | null },
  request: PlanRequest,
  planned: PlannedRun,
): Omit<ComposeRequest, 'threadId'> {
  const { plan, snapshot, thread, fork, pending, headProvider } = planned;
  return {
    plan,
    thread,
    provider: request.provider,
    sourceProviderThreadId: snapshot.headProviderThreadId,
    leavingProvider: headProvider ? (context.providers.get(headProvider) ?? null) : null,
    manualContext: input.manualContext,
    policy: context.summaries.policy,
    baseOrdinal:
      plan.decision === 'delta_handoff'
        ? present(snapshot.target, 'the target of a delta handoff').coveredThroughOrdinal
        : null,
    reusableSource: planned.deltaSource,
    fork,
    subagentSpawn: pending.find((transfer) => transfer.kind === 'subagent_spawn') ?? null,
    mergeBacks: pending.filter((transfer) => transfer.kind === 'merge_back'),
    createdBy: 'user',
  };
}

export async function startRun(context: OperationContext, input: StartInput): Promise<StartRunResult> {
  const request = planRequest(context, input);
  const budget = request.provider.capabilities.maxRecommendedHandoffChars;
  if (input.manualContext !== null && budget !== null && input.manualContext.length > budget) {
    throw badInput(
      'manualContext',
      `must fit ${request.provider.id}'s handoff budget of ${budget} characters (got ${input.manualContext.length})`,
    );
  }
  const fingerprint = input.idempotencyKey === null ? null : fingerprintOf(input);
  const started = await context.graph.write(async (tx) => {
    // One statement takes the lock and reads the planner's snapshot; the idempotency key's read does
    // not depend on its answer and is sent with it. Neo4j runs it after the lock is taken.
    const [loaded, earlier] = await inOrder([
      lockAndLoadPlanningSnapshot(tx, input.threadId, request.provider.id, runWindow(context)),
      input.idempotencyKey === null ? null : runByIdempotencyKey(tx, input.threadId, input.idempotencyKey),
    ] as const);
    const thread = writableThread(loaded?.thread ?? null, input.threadId);
    if (earlier && earlier.idempotencyFingerprint !== fingerprint) {
      throw new ThreadlineError(
        'CONFLICT',
        `idempotencyKey ${JSON.stringify(input.idempotencyKey)} was already used with different input.`,
      );
    }
    if (earlier) return loadStartRunResult(tx, earlier);
    assertNoRunningRun(thread);

    const planned = await planFrom(tx, context, input.threadId, request, loaded);
    const { plan, snapshot, thread: history, fork } = planned;
    if (plan.decision === 'unsupported') {
      throw new ThreadlineError(
        'HANDOFF_UNSUPPORTED',
        plan.reasons[plan.reasons.length - 1] ?? 'The provider cannot take the handoff this run needs.',
      );
    }

    const providerThread = await ensureProviderThread(tx, input, plan, snapshot, history);
    if (fork?.resolution.kind === 'native') await resolveForkNatively(tx, fork.transfer.id, request.provider.id);
    // The run's write records run_started in the thread's change feed too: one statement.
    const created = await createRun(
      tx,
      {
        id: newId('run'),
        threadId: input.threadId,
        ordinal: thread.lastOrdinal + 1,
        provider: request.provider.id,
        model: input.model,
        runtimeMode: input.runtimeMode,
        userMessage: input.userMessage,
        idempotencyKey: input.idempotencyKey,
        idempotencyFingerprint: fingerprint,
        plan: {
          ...plan,
          providerThreadId:
            plan.providerThreadAction === 'create' ? null : (plan.providerThreadId ?? providerThread.id),
        },
      },
      providerThread,
    );
    const written = await writeRunContext(tx, {
      ...contextRequest(context, input, request, planned),
      run: created.run,
      providerThread: created.providerThread,
    });
    const run = await recordContextOnPlan(tx, created.run, written);
    return {
      run: { ...run, contextHandoffId: written.handoff?.id ?? null },
      providerThread: created.providerThread,
      handoff: written.handoff,
    };
  });
  // A configured summarizer is called outside the transaction: a slow endpoint holds no lock, and
  // a retried transaction cannot call it twice. The run is committed by now, so the answer is the
  // run whatever follows: as the summarizer left it, or as committed when that cannot be read.
  if (started.handoff?.status === 'pending' && started.handoff.source.startsWith('configured:')) {
    await writeWithConfiguredSummarizer(context, started.handoff);
    return context.graph
      .read(async (tx) =>
        loadStartRunResult(tx, present((await runsByIds(tx, [started.run.id]))[0], `run ${started.run.id}`)),
      )
      .catch(() => started);
  }
  return started;
}

/** The plan as the run got it: the strategy actually written and why, when the context changed it. */
async function recordContextOnPlan(tx: Tx, run: RunRecord, written: RunContext): Promise<RunRecord> {
  const recorded = planAsWritten(run.plan, written);
  return recorded === run.plan ? run : setRunPlan(tx, run.id, recorded);
}

function planAsWritten<P extends RunPlanRecord>(plan: P, written: Pick<RunContext, 'strategy' | 'reasons'>): P {
  const { strategy } = written;
  const strategyChanged = strategy !== null && plan.handoffStrategy !== null && strategy !== plan.handoffStrategy;
  if (!strategyChanged && written.reasons.length === 0) return plan;
  return {
    ...plan,
    handoffStrategy: strategyChanged ? strategy : plan.handoffStrategy,
    reasons: [...plan.reasons, ...written.reasons],
  };
}

/**
 * The planned provider thread could not be resumed: it becomes RESUME_FAILED, a new one serves the
 * same run, and a full summary of every earlier live run supersedes the run's old handoff and
 * carries on the merge-backs that handoff delivered.
 */
export async function reportResumeFailure(
  context: OperationContext,
  runId: string,
  error: string,
  fencingToken: string | null,
): Promise<StartRunResult> {
  return context.graph.write(async (tx) => {
    const locked = await lockDispatchedRun(tx, runId, fencingToken);
    const replanned = await replanAfterResumeFailure(tx, context, locked.run, locked.thread, error);
    await recordChange(tx, locked.run.threadId, 'run_replanned');
    return replanned;
  });
}

export interface BindInput {
  providerThreadId: string;
  nativeThreadRef: string;
  fencingToken: string | null;
}

/** What bindProviderThread did: bound the native id, or found a resumed blank and re-planned the run. */
export interface BindResult {
  /** The provider thread named, as it is now (RESUME_FAILED after a resumed blank). */
  providerThread: ProviderThreadRecord;
  /** Set after a resumed blank: the run re-planned onto a new provider thread, and what to send it. */
  replanned: StartRunResult | null;
}

/**
 * Records the provider's native id for a provider thread. When the running run it serves was
 * dispatched to resume or reuse another native id, the provider resumed blank: that is a resume
 * failure (src/domain/fencing.ts), not the same continuity.
 */
export async function bindProviderThread(context: OperationContext, input: BindInput): Promise<BindResult> {
  const token = input.fencingToken === null ? null : parseFencingToken(input.fencingToken);
  return context.graph.write(async (tx) => {
    // Read under the lock: a concurrent resume failure may have replaced it.
    const locked = await lockThreadOf(tx, async () => (await providerThreadsByIds(tx, [input.providerThreadId]))[0]);
    if (!locked) throw notFound('ProviderThread', input.providerThreadId);
    const { thread, record: providerThread } = locked;
    const dispatchedRunId = token?.runId ?? thread.runningRunId;
    const [run] = dispatchedRunId ? await runsByIds(tx, [dispatchedRunId]) : [];
    if (token) {
      if (!run) throw notFound('Run', token.runId);
      assertCurrentDispatch(token, run, providerThread, providerThread.id);
    }
    const dispatched = run?.status === 'running' && run.providerThreadId === providerThread.id ? run : null;
    if (
      dispatched &&
      resumedBlank(dispatched.plan.providerThreadAction, providerThread.nativeThreadRef, input.nativeThreadRef)
    ) {
      const replanned = await replanAfterResumeFailure(
        tx,
        context,
        dispatched,
        thread,
        resumedBlankError(providerThread.nativeThreadRef, input.nativeThreadRef),
      );
      await recordChange(tx, thread.id, 'run_replanned');
      return { providerThread: await providerThreadById(tx, providerThread.id), replanned };
    }
    const bound = await bindNativeRef(tx, providerThread.id, input.nativeThreadRef);
    await recordChange(tx, thread.id, 'provider_thread_bound');
    return { providerThread: bound, replanned: null };
  });
}

async function replanAfterResumeFailure(
  tx: Tx,
  context: OperationContext,
  run: RunRecord,
  thread: LockedThread,
  error: string,
): Promise<StartRunResult> {
  if (run.status !== 'running') throw new ThreadlineError('CONFLICT', `Run ${run.id} is ${run.status}, not running.`);
  if (run.plan.providerThreadAction !== 'resume' && run.plan.providerThreadAction !== 'reuse') {
    throw new ThreadlineError(
      'CONFLICT',
      `Run ${run.id} did not resume a provider thread (action ${run.plan.providerThreadAction}).`,
    );
  }
  const provider = context.providers.get(run.provider);
  if (!provider)
    throw new ThreadlineError('CONFLICT', `Provider ${run.provider} of run ${run.id} is no longer configured.`);

  const failedId = run.providerThreadId;
  const replacement = await createProviderThread(tx, {
    id: newId('pt'),
    threadId: run.threadId,
    provider: provider.id,
    model: run.model,
    runtimeMode: run.runtimeMode,
  });
  const moved = await moveRunToProviderThread(tx, run, await providerThreadById(tx, failedId), replacement, error);
  // Rolled-back ordinals below the run are not history: the summary ends at the live run before it.
  const liveBefore = intersect(liveHistory(thread), [{ from: 1, to: run.ordinal - 1 }]);
  const plan = planAfterResumeFailure(failedId, provider.id, error, liveBefore);
  const replanned = await setRunPlan(tx, run.id, plan);
  const current = await providerThreadById(tx, replacement.id);
  // The run is still the delivery of the merge-backs its old handoff carried: the new one takes them on.
  const mergeBacks = run.contextHandoffId ? await mergeBacksCarriedBy(tx, run.contextHandoffId) : [];
  // Re-planning must not wait on another writer: the replacement summary is always local.
  const { handoff } = await writeRunContext(tx, {
    plan,
    run: moved,
    thread,
    provider,
    providerThread: current,
    sourceProviderThreadId: null,
    leavingProvider: null,
    baseOrdinal: null,
    reusableSource: null,
    fork: null,
    subagentSpawn: null,
    mergeBacks,
    manualContext: null,
    policy: DEFAULT_SUMMARY_POLICY,
    createdBy: 'system',
  });
  if (handoff && run.contextHandoffId) {
    await supersedeHandoff(tx, run.contextHandoffId, handoff.id, handoff.transferId);
    handoff.supersedesId = run.contextHandoffId;
  }
  return { run: { ...replanned, contextHandoffId: handoff?.id ?? null }, providerThread: current, handoff };
}

function planRequest(context: OperationContext, input: PlanInput): PlanRequest {
  const provider = knownProvider(context.providers, input.provider);
  return { provider, model: input.model, runtimeMode: input.runtimeMode, cleanContext: input.cleanContext };
}

interface PlannedRun {
  plan: Plan;
  snapshot: PlanningSnapshot;
  thread: ThreadRecord;
  headProvider: string | null;
  deltaSource: SummaryMaterial | null;
  /** A fork's first run: its pending fork transfer and how the run takes it in. */
  fork: {
    transfer: TransferRecord;
    resolution: ForkResolution;
    sourceProviderThread: ProviderThreadRecord | null;
  } | null;
  /** Transfers the run resolves besides a fork (a subagent's spawn, merge-backs), oldest first. */
  pending: TransferRecord[];
}

/**
 * How much of the thread's rolled-back ranges a snapshot reads: a plan alone needs their ends
 * (rolledBackEndsRead); composing a run's context reads the thread's history whole.
 */
type RolledBackRead = 'ends' | 'whole';

/** The planner's inputs read in this transaction, then its decision, and a pending fork's on top. */
async function planWithinTransaction(
  tx: Tx,
  context: OperationContext,
  threadId: string,
  request: PlanRequest,
  rolledBack: RolledBackRead,
): Promise<PlannedRun> {
  return planFrom(tx, context, threadId, request, await loadSnapshot(tx, context, threadId, request, rolledBack));
}

function loadSnapshot(
  tx: Tx,
  context: OperationContext,
  threadId: string,
  request: PlanRequest,
  rolledBack: RolledBackRead,
): Promise<PlanningRead | null> {
  const ends = rolledBack === 'ends' ? rolledBackEndsRead(context.planner) : null;
  return loadPlanningSnapshot(tx, threadId, request.provider.id, runWindow(context), ends);
}

/** How many live runs since the target's last native run a snapshot reads: one more than it may miss. */
function runWindow(context: OperationContext): number {
  return context.planner.maxRunsElsewhere + 1;
}

/** The planner's decision on the inputs read (null: no such thread), and a pending fork's on top. */
async function planFrom(
  tx: Tx,
  context: OperationContext,
  threadId: string,
  request: PlanRequest,
  loaded: PlanningRead | null,
): Promise<PlannedRun> {
  if (!loaded) throw notFound('Thread', threadId);
  const { snapshot, headProvider, window, pending } = loaded;
  const thread = writableThread(loaded.thread, threadId);
  const deltaRange = measurableDeltaRange(snapshot, context.planner);
  let deltaSource: SummaryMaterial | null = null;
  let deltaChars: number | null = null;
  if (deltaRange) {
    const summaryRequest = {
      threadId,
      title: thread.title,
      range: deltaRange,
      strategy: 'delta_since_target_last_seen' as const,
      targetProvider: request.provider.id,
      budgetChars: null,
    };
    deltaSource =
      summaryMaterialWithin(window, thread, summaryRequest) ?? (await readSummaryMaterial(tx, thread, summaryRequest));
    deltaChars = summarize(deltaSource, summaryRequest).text.length;
  }
  const switchPlan = decidePlan(snapshot, request, deltaChars, context.planner);
  const pendingFork = pending.find((entry) => entry.transfer.kind === 'fork');
  const others = pending.filter((entry) => entry !== pendingFork).map((entry) => entry.transfer);
  if (!pendingFork)
    return { plan: switchPlan, snapshot, thread, headProvider, deltaSource, fork: null, pending: others };
  const { transfer, sourceProviderThread, sourceTurns } = pendingFork;
  const resolution = resolveFork(
    {
      sourceProviderThread,
      sourceRunOrdinal: transfer.sourcePoint.runOrdinal ?? 0,
      sourceTurns,
      fromCheckpoint: transfer.sourcePoint.checkpointId !== null,
    },
    request,
  );
  const plan = planForFork(switchPlan, resolution);
  return {
    plan,
    snapshot,
    thread,
    headProvider,
    deltaSource,
    fork: { transfer, resolution, sourceProviderThread },
    pending: others,
  };
}

async function ensureProviderThread(
  tx: Tx,
  input: PlanInput,
  plan: Plan,
  snapshot: PlanningSnapshot,
  thread: ThreadRecord,
): Promise<ProviderThreadRecord> {
  const nativeFork = plan.providerThreadAction === 'native_fork';
  if (!nativeFork && plan.providerThreadAction !== 'create')
    return present(snapshot.target, 'the provider thread a plan reuses').providerThread;
  if (plan.replacedProviderThreadId) await markProviderThreadStale(tx, plan.replacedProviderThreadId);
  return createProviderThread(tx, {
    id: newId('pt'),
    threadId: input.threadId,
    provider: input.provider,
    model: input.model,
    runtimeMode: input.runtimeMode,
    forkedFrom: nativeFork
      ? {
          id: present(plan.providerThreadId, 'the provider thread a native fork forks'),
          inheritedThroughOrdinal: thread.forkOrdinal,
        }
      : undefined,
  });
}

async function loadStartRunResult(tx: Tx, run: RunRecord): Promise<StartRunResult> {
  const providerThread = await providerThreadById(tx, run.providerThreadId);
  const handoff = run.contextHandoffId ? await handoffById(tx, run.contextHandoffId) : null;
  return { run, providerThread, handoff };
}

function fingerprintOf(input: StartInput): string {
  const { provider, model, runtimeMode, userMessage, cleanContext, manualContext } = input;
  return createHash('sha256')
    .update(JSON.stringify({ provider, model, runtimeMode, userMessage, cleanContext, manualContext }))
    .digest('hex');
}
