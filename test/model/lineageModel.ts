// A reference model of Threadline's lineage rules: threads, runs, provider threads, coverage, the
// planner's decision order and staleness signals, rollback, fork, merge-back and subagents, held
// in memory. It restates docs/design.md in the
// plainest terms the tests can check, and deliberately imports none of the service's logic: a
// mistake shared by the service and its own planner cannot hide here.
//
// Everything is named by symbols (see operations.ts). Each operation returns the Outcome the
// service should return; observe() gives the state the service should show.
import {
  bySymbol,
  nativeRefOf,
  tokenSymbol,
  type ForkFrom,
  type Operation,
  type Outcome,
  type RunOptions,
} from './operations.js';
import { capabilitiesOf, LIMITS, SUMMARY_WRITERS, type SummaryWriter } from './providers.js';

type RunStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'INTERRUPTED' | 'ROLLED_BACK';
type ProviderThreadStatus = 'ACTIVE' | 'IDLE' | 'STALE' | 'RESUME_FAILED' | 'DIVERGENT' | 'ROLLED_BACK';
type Strategy =
  | 'DELTA_SINCE_TARGET_LAST_SEEN'
  | 'FULL_THREAD_SUMMARY'
  | 'CHECKPOINT_SUMMARY'
  | 'MANUAL_CONTEXT'
  | 'FORK_DELTA_SUMMARY';
type Signal =
  | 'TOO_MANY_RUNS_ELSEWHERE'
  | 'TOO_MANY_CHAINED_HANDOFFS'
  | 'INCOMPATIBLE_CONFIG'
  | 'RESUME_FAILED'
  | 'ROLLED_BACK_OR_DIVERGENT'
  | 'CLEAN_CONTEXT_REQUESTED'
  | 'SUMMARY_EXCEEDS_POLICY';
/** What a handoff carries; only switch and fork context describe the thread's own history. */
type HandoffKind = 'switch' | 'fork' | 'mergeBack' | 'subagentTask' | 'subagentResult';

export interface Range {
  from: number;
  to: number;
}

export interface Plan {
  decision: 'NO_HANDOFF' | 'DELTA_HANDOFF' | 'FULL_HANDOFF_EXISTING' | 'FULL_HANDOFF_NEW' | 'UNSUPPORTED';
  providerThreadAction: 'REUSE' | 'RESUME' | 'CREATE' | 'NONE' | 'NATIVE_FORK';
  providerThread: string | null;
  handoffStrategy: Strategy | null;
  coveredRunOrdinals: Range | null;
  stalenessSignals: Signal[];
}

interface Thread {
  id: string;
  relationship: 'root' | 'fork' | 'subagent';
  parent: string | null;
  /** Ordinals at or below it were inherited (a fork); 0 when nothing was. */
  forkOrdinal: number;
  /** The runs (of ancestor threads) it inherited, as they were live when it was forked. */
  inherited: string[];
  head: number;
  last: number;
  running: string | null;
  providerThreads: string[];
  /** A fork's source point, until its first run resolves it. */
  pendingFork: { providerThread: string | null; ordinal: number; fromCheckpoint: boolean } | null;
  /** A subagent thread: the parent run it works for, and whether its first run still has to get the task. */
  parentRun: string | null;
  taskPending: boolean;
}

interface Run {
  id: string;
  thread: string;
  ordinal: number;
  provider: string;
  model: string | null;
  runtimeMode: string | null;
  status: RunStatus;
  providerThread: string;
  handoff: string | null;
  hasCheckpoint: boolean;
  plan: Plan;
  /** Its dispatches so far: 1 at the start, one more each time a resume failure moves it. */
  epoch: number;
}

interface ProviderThread {
  id: string;
  thread: string;
  provider: string;
  status: ProviderThreadStatus;
  model: string | null;
  runtimeMode: string | null;
  /** A native fork knows its thread's history through this ordinal without having served it. */
  inheritedThrough: number | null;
  /** The native id the provider told us (bindProviderThread), needed to fork it natively; null until then. */
  nativeRef: string | null;
}

interface Handoff {
  id: string;
  /** The thread of the run it is for. */
  thread: string;
  kind: HandoffKind;
  strategy: Strategy;
  range: Range;
  /** The runs it summarizes: live ones in its range when it was written. */
  covers: string[];
  to: string;
  targetRun: string;
  standing: boolean;
  /** Standing, waiting for a provider's text (submitHandoffSummary) or its expiry. */
  pending: boolean;
  /** Its writer failed or never wrote it; a local summary replaced it. */
  failed: boolean;
  /** The handoff it replaced. */
  supersedes: string | null;
}

interface MergeBack {
  fork: string;
  into: string;
  sourceOrdinal: number;
  status: 'PENDING' | 'CONSUMED' | 'SUPERSEDED';
  /** The handoff that delivers it, once a run of the thread it goes into took it in. */
  handoff: string | null;
}

export interface CoverageView {
  nativeRunOrdinals: number[];
  handoffIds: string[];
  coveredThroughOrdinal: number;
  missingRunOrdinals: number[];
}

/** What the service should show of one thread. */
export interface ThreadView {
  headOrdinal: number;
  runs: { id: string; ordinal: number; status: RunStatus; providerThread: string; contextHandoff: string | null }[];
  providerThreads: {
    id: string;
    provider: string;
    status: ProviderThreadStatus;
    firstRunOrdinal: number | null;
    lastRunOrdinal: number | null;
    coverage: CoverageView;
  }[];
  handoffs: {
    id: string;
    status: 'PENDING' | 'READY' | 'FAILED' | 'SUPERSEDED';
    strategy: Strategy;
    coveredRunOrdinals: Range;
    toProviderThread: string;
    targetRun: string;
  }[];
  /** Merge-backs into the thread, oldest first. */
  mergeBacks: { fork: string; status: MergeBack['status']; handoff: string | null }[];
}

const STABLE: ReadonlySet<RunStatus> = new Set(['COMPLETED', 'FAILED', 'INTERRUPTED']);
const REGENERABLE: ReadonlySet<Strategy> = new Set([
  'DELTA_SINCE_TARGET_LAST_SEEN',
  'FULL_THREAD_SUMMARY',
  'CHECKPOINT_SUMMARY',
]);
const NOT_RESUMABLE: ReadonlySet<ProviderThreadStatus> = new Set(['DIVERGENT', 'ROLLED_BACK']);
/** A native fork needs a source provider thread in a known, current state. */
const NOT_FORKABLE: ReadonlySet<ProviderThreadStatus> = new Set(['DIVERGENT', 'STALE', 'RESUME_FAILED', 'ROLLED_BACK']);
/** A provider thread replaced by another: a call fenced by one of its dispatches is refused. */
const REPLACED: ReadonlySet<ProviderThreadStatus> = new Set(['STALE', 'RESUME_FAILED', 'DIVERGENT', 'ROLLED_BACK']);

const resumes = (run: Run) => run.plan.providerThreadAction === 'RESUME' || run.plan.providerThreadAction === 'REUSE';
const error = (code: string): Outcome => ({ error: code });
const ok = (data: unknown): Outcome => ({ ok: data });
const maxOf = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);
const ascending = (values: number[]) => [...values].sort((a, b) => a - b);

export class LineageModel {
  private readonly threads = new Map<string, Thread>();
  private readonly runs = new Map<string, Run>();
  private readonly providerThreads = new Map<string, ProviderThread>();
  private readonly handoffs = new Map<string, Handoff>();
  private readonly mergeBacks: MergeBack[] = [];
  /** Expiries learned so far (see expire()). */
  expiries = 0;

  apply(operation: Operation): Outcome {
    switch (operation.op) {
      case 'createThread':
        return this.createThread(operation.thread);
      case 'startRun':
        return this.startRun(operation.thread, operation.provider, operation);
      case 'planRun':
        return ok(this.plan(this.thread(operation.thread), operation.provider, operation));
      case 'completeRun':
        return this.finishRun(operation.run, 'COMPLETED', operation.checkpoint, operation.dispatch);
      case 'failRun':
        return this.finishRun(
          operation.run,
          operation.interrupted ? 'INTERRUPTED' : 'FAILED',
          false,
          operation.dispatch,
        );
      case 'reportResumeFailure':
        return this.reportResumeFailure(operation.run, operation.dispatch);
      case 'bindProviderThread':
        return this.bind(operation.providerThread, nativeRefOf(operation), operation.dispatch);
      case 'rollbackThread':
        return this.rollback(operation.thread, operation.toOrdinal);
      case 'confirmProviderRollback':
        return this.settleRollback(operation.providerThread, 'IDLE');
      case 'reportProviderRollbackFailure':
        return this.settleRollback(operation.providerThread, 'DIVERGENT');
      case 'forkThread':
        return this.fork(operation.source, operation.fork, operation.from);
      case 'mergeBack':
        return this.mergeBack(operation.fork);
      case 'spawnSubagent':
        return this.spawnSubagent(operation.parentRun, operation.child);
      case 'completeSubagent':
        return this.completeSubagent(operation.child);
      case 'regenerateHandoff':
        return this.regenerateHandoff(operation.handoff, operation.source);
      case 'submitHandoffSummary':
        return this.submitHandoffSummary(operation.handoff);
    }
  }

  /**
   * A PENDING handoff the service's sweeper expired: it FAILS and a local summary replaces it. When
   * that happens is the one thing the model cannot know (the sweeper runs on a clock); the caller
   * learns it from the service and the model says what it must have done. Returns the replacement.
   */
  expire(id: string): string {
    this.expiries += 1;
    const handoff = this.handoff(id);
    if (!handoff.pending || !handoff.standing) throw new Error(`the model has no pending handoff ${id} to expire`);
    return this.replaceWithLocal(handoff).id;
  }

  pendingHandoffIds(): string[] {
    return [...this.handoffs.values()]
      .filter((handoff) => handoff.standing && handoff.pending)
      .map((handoff) => handoff.id);
  }

  /** Saves the whole state; the function returned puts it back (an operation undone, to replay it after an expiry it missed). */
  snapshot(): () => void {
    const saved = structuredClone({
      threads: this.threads,
      runs: this.runs,
      providerThreads: this.providerThreads,
      handoffs: this.handoffs,
      mergeBacks: this.mergeBacks,
    });
    return () => {
      const refill = <K, V>(target: Map<K, V>, source: Map<K, V>) => {
        target.clear();
        for (const [key, value] of source) target.set(key, value);
      };
      refill(this.threads, saved.threads);
      refill(this.runs, saved.runs);
      refill(this.providerThreads, saved.providerThreads);
      refill(this.handoffs, saved.handoffs);
      this.mergeBacks.splice(0, this.mergeBacks.length, ...saved.mergeBacks);
    };
  }

  // ---- what the sequence generator needs to know to pick sensible operations

  threadIds(): string[] {
    return [...this.threads.keys()];
  }

  threadInfo(id: string): Readonly<Thread> {
    return this.thread(id);
  }

  providerThreadIds(): string[] {
    return [...this.providerThreads.keys()];
  }

  providerThreadInfo(id: string): Readonly<ProviderThread> {
    return this.providerThread(id);
  }

  handoffIds(): string[] {
    return [...this.handoffs.keys()];
  }

  handoffInfo(id: string): Readonly<Handoff> {
    return this.handoff(id);
  }

  runInfo(id: string): Readonly<Run> {
    return this.run(id);
  }

  ownRuns(threadId: string): Readonly<Run>[] {
    return [...this.runs.values()].filter((run) => run.thread === threadId);
  }

  // ---- threads and runs

  private createThread(id: string): Outcome {
    this.threads.set(id, this.newThread(id, 'root', null, 0, []));
    return ok({ thread: id, headOrdinal: 0 });
  }

  private newThread(
    id: string,
    relationship: Thread['relationship'],
    parent: string | null,
    forkOrdinal: number,
    inherited: string[],
  ): Thread {
    return {
      id,
      relationship,
      parent,
      forkOrdinal,
      inherited,
      head: forkOrdinal,
      last: forkOrdinal,
      running: null,
      providerThreads: [],
      pendingFork: null,
      parentRun: null,
      taskPending: false,
    };
  }

  private startRun(threadId: string, provider: string, options: RunOptions & { manualContext?: string }): Outcome {
    const thread = this.thread(threadId);
    if (thread.running) return error('RUN_IN_PROGRESS');
    const plan = this.plan(thread, provider, options);
    if (plan.decision === 'UNSUPPORTED') return error('HANDOFF_UNSUPPORTED');

    const history = this.history(thread);
    const target = this.latestProviderThread(thread, provider);
    let servedBy: ProviderThread;
    if (plan.providerThreadAction === 'CREATE' || plan.providerThreadAction === 'NATIVE_FORK') {
      // A provider thread replaced because it went stale is marked so, unless its status already says more.
      if (
        target &&
        plan.stalenessSignals.length > 0 &&
        !['RESUME_FAILED', 'DIVERGENT', 'ROLLED_BACK'].includes(target.status)
      )
        target.status = 'STALE';
      servedBy = this.newProviderThread(
        thread,
        provider,
        options,
        plan.providerThreadAction === 'NATIVE_FORK' ? thread.forkOrdinal : null,
      );
    } else {
      servedBy = target!;
    }

    const ordinal = thread.last + 1;
    const run: Run = {
      id: `${thread.id}#${ordinal}`,
      thread: thread.id,
      ordinal,
      provider,
      model: options.model ?? null,
      runtimeMode: options.runtimeMode ?? null,
      status: 'RUNNING',
      providerThread: servedBy.id,
      handoff: null,
      hasCheckpoint: false,
      plan,
      epoch: 1,
    };
    this.runs.set(run.id, run);
    thread.head = thread.last = ordinal;
    thread.running = run.id;
    servedBy.status = 'ACTIVE';
    // The provider thread runs with the configuration last asked of it.
    servedBy.model = run.model ?? servedBy.model;
    servedBy.runtimeMode = run.runtimeMode ?? servedBy.runtimeMode;

    run.handoff = this.writeRunContext(thread, run, plan, history, options.manualContext !== undefined)?.id ?? null;
    return ok(this.startRunView(run));
  }

  /**
   * One handoff carries everything that crosses into a run, led by the switch (or a fork's portable
   * context), else a subagent's task, else the oldest pending merge-back; the rest ride along.
   * Operator-written context takes the lead's place, over the range the planner chose.
   */
  private writeRunContext(thread: Thread, run: Run, plan: Plan, history: string[], manual: boolean): Handoff | null {
    const fork = thread.pendingFork;
    const task = thread.taskPending;
    const merges = this.mergeBacks.filter((merge) => merge.into === thread.id && merge.status === 'PENDING');
    thread.pendingFork = null;
    thread.taskPending = false;
    const handoff = manual
      ? this.manualHandoff(thread, run, plan, history, fork !== null)
      : this.leadingHandoff(thread, run, plan, history, fork !== null, task, merges[0]);
    for (const merge of merges) Object.assign(merge, { status: 'CONSUMED', handoff: handoff!.id });
    return handoff;
  }

  private manualHandoff(thread: Thread, run: Run, plan: Plan, history: string[], fork: boolean): Handoff {
    const range = plan.coveredRunOrdinals ?? { from: 0, to: 0 };
    // The run's plan says what it was given.
    if (plan.handoffStrategy) run.plan = { ...plan, handoffStrategy: 'MANUAL_CONTEXT' };
    return this.newHandoff({
      thread: thread.id,
      to: run.providerThread,
      targetRun: run.id,
      kind: fork && plan.handoffStrategy ? 'fork' : 'switch',
      strategy: 'MANUAL_CONTEXT',
      range,
      covers: this.inRange(history, range),
    });
  }

  private leadingHandoff(
    thread: Thread,
    run: Run,
    plan: Plan,
    history: string[],
    fork: boolean,
    task: boolean,
    merge: MergeBack | undefined,
  ): Handoff | null {
    const base = { thread: thread.id, to: run.providerThread, targetRun: run.id };
    if (plan.handoffStrategy && plan.coveredRunOrdinals) {
      const range = plan.coveredRunOrdinals;
      const handoff = this.newHandoff({
        ...base,
        kind: fork ? 'fork' : 'switch',
        strategy: plan.handoffStrategy,
        range,
        covers: this.inRange(history, range),
      });
      // A merge-back riding along makes the local summarizer write the whole handoff.
      return merge ? handoff : this.writtenBy(handoff, this.writerFor(run.provider));
    }
    if (task)
      return this.newHandoff({
        ...base,
        kind: 'subagentTask',
        strategy: 'MANUAL_CONTEXT',
        range: { from: 0, to: 0 },
        covers: [],
      });
    if (!merge) return null;
    // A merge-back covers the fork's own runs since the fork point, in the fork's ordinals.
    const forkThread = this.thread(merge.fork);
    const range = { from: forkThread.forkOrdinal + 1, to: merge.sourceOrdinal };
    return this.newHandoff({
      ...base,
      kind: 'mergeBack',
      strategy: 'FORK_DELTA_SUMMARY',
      range,
      covers: this.inRange(this.liveOwnRuns(forkThread), range),
    });
  }

  /**
   * A call echoing the fencing token of dispatch `epoch` of the run comes from a replaced session
   * unless it is the run's current dispatch, on the provider thread the call names (a bind), and
   * that provider thread was not replaced since. No token, no fencing.
   */
  private fencedOff(run: Run, epoch: number | undefined, named: string | null = null): boolean {
    if (epoch === undefined) return false;
    return (
      epoch < run.epoch ||
      (named !== null && named !== run.providerThread) ||
      REPLACED.has(this.providerThread(run.providerThread).status)
    );
  }

  private finishRun(runId: string, status: RunStatus, checkpoint: boolean, epoch: number | undefined): Outcome {
    const run = this.run(runId);
    if (this.fencedOff(run, epoch)) return error('STALE_DISPATCH');
    if (run.status !== 'RUNNING') return error('CONFLICT');
    run.status = status;
    run.hasCheckpoint = checkpoint;
    this.thread(run.thread).running = null;
    const servedBy = this.providerThread(run.providerThread);
    if (servedBy.status === 'ACTIVE') servedBy.status = 'IDLE';
    return ok({ run: run.id, status, checkpoint: checkpoint ? checkpointOf(run.id) : null });
  }

  /**
   * The provider could not resume the provider thread the plan chose: a new one serves the same run
   * with a full summary of every earlier live run, which supersedes the run's old handoff and
   * carries the merge-backs the run had taken in (the run is still their delivery).
   */
  private reportResumeFailure(runId: string, epoch: number | undefined): Outcome {
    const run = this.run(runId);
    if (this.fencedOff(run, epoch)) return error('STALE_DISPATCH');
    if (run.status !== 'RUNNING' || !resumes(run)) return error('CONFLICT');
    return ok(this.replanAfterResumeFailure(run));
  }

  /**
   * The provider's native id. When the running run it serves was dispatched to resume or reuse
   * another one, the provider resumed blank: a resume failure, not the same continuity (the provider
   * thread keeps the native id it had).
   */
  private bind(id: string, nativeRef: string, dispatch: { run: string; epoch: number } | undefined): Outcome {
    const providerThread = this.providerThread(id);
    const runId = dispatch?.run ?? this.thread(providerThread.thread).running;
    const run = runId === null ? null : this.run(runId);
    if (dispatch && this.fencedOff(run!, dispatch.epoch, id)) return error('STALE_DISPATCH');
    const dispatched = run?.status === 'RUNNING' && run.providerThread === id ? run : null;
    if (
      dispatched &&
      resumes(dispatched) &&
      providerThread.nativeRef !== null &&
      providerThread.nativeRef !== nativeRef
    ) {
      const replanned = this.replanAfterResumeFailure(dispatched);
      return ok({ providerThread: id, status: providerThread.status, resumedBlank: true, replanned });
    }
    providerThread.nativeRef = nativeRef;
    return ok({ providerThread: id, status: providerThread.status, resumedBlank: false, replanned: null });
  }

  private replanAfterResumeFailure(run: Run) {
    const thread = this.thread(run.thread);
    const failed = this.providerThread(run.providerThread);
    const replacement = this.newProviderThread(
      thread,
      run.provider,
      { model: run.model ?? undefined, runtimeMode: run.runtimeMode ?? undefined },
      null,
    );
    failed.status = 'RESUME_FAILED';
    replacement.status = 'ACTIVE';
    run.providerThread = replacement.id;
    run.epoch += 1;

    const earlier = this.history(thread).filter((id) => id !== run.id);
    const ordinals = earlier.map((id) => this.run(id).ordinal);
    const range = ordinals.length > 0 ? { from: Math.min(...ordinals), to: maxOf(ordinals) } : null;
    run.plan = {
      decision: range ? 'FULL_HANDOFF_NEW' : 'NO_HANDOFF',
      providerThreadAction: 'CREATE',
      providerThread: null,
      handoffStrategy: range ? 'FULL_THREAD_SUMMARY' : null,
      coveredRunOrdinals: range,
      stalenessSignals: ['RESUME_FAILED'],
    };
    if (range) {
      const replaced = run.handoff;
      const handoff = this.newHandoff(
        {
          thread: thread.id,
          kind: 'switch',
          strategy: 'FULL_THREAD_SUMMARY',
          range,
          covers: this.inRange(earlier, range),
          to: replacement.id,
          targetRun: run.id,
        },
        replaced,
      );
      if (replaced) {
        this.handoff(replaced).standing = false;
        for (const merge of this.mergeBacks) if (merge.handoff === replaced) merge.handoff = handoff.id;
      }
      run.handoff = handoff.id;
    }
    return this.startRunView(run);
  }

  /**
   * A standing summary written again: a new handoff for the same run, range and provider thread
   * supersedes it and delivers the merge-backs it carried. Manual context and merge-back or
   * subagent text are not summaries of the thread, so there is nothing to write again.
   */
  private regenerateHandoff(id: string, source: SummaryWriter | undefined): Outcome {
    const old = this.handoff(id);
    if (!old.standing) return error('CONFLICT');
    // A handoff delivering a merge-back is written locally in one piece: only local may be asked.
    const carriesMergeBack = this.mergeBacks.some((merge) => merge.handoff === old.id);
    if (carriesMergeBack && source !== undefined && source !== 'local') return error('BAD_USER_INPUT');
    if (!REGENERABLE.has(old.strategy)) return error('BAD_USER_INPUT');
    const handoff = this.succeed(old, false);
    // As at a run's start, an entering provider that cannot write summaries leaves it to the local summarizer.
    const writer = carriesMergeBack ? 'local' : this.writerFor(this.providerThread(old.to).provider, source);
    const context = this.writtenBy(handoff, writer);
    return ok({
      handoff: handoff.id,
      supersedes: old.id,
      supersededBy: context === handoff ? null : context.id,
      strategy: handoff.strategy,
      coveredRunOrdinals: handoff.range,
    });
  }

  /** A provider's text for a PENDING handoff makes it READY. */
  private submitHandoffSummary(id: string): Outcome {
    const handoff = this.handoff(id);
    if (!handoff.standing || !handoff.pending) return error('CONFLICT');
    handoff.pending = false;
    return ok({ handoff: id, status: 'READY' });
  }

  /**
   * Who writes a handoff for `provider`: `asked`, else the one the summary policy names. A provider
   * asked to write that cannot write summaries leaves it to the local summarizer, at a run's start
   * and on regeneration alike.
   */
  private writerFor(provider: string, asked?: SummaryWriter): SummaryWriter {
    const writer = asked ?? SUMMARY_WRITERS[provider] ?? 'local';
    return writer === 'entering' && !capabilitiesOf(provider).canGenerateSummaries ? 'local' : writer;
  }

  /**
   * What a writer makes of a new handoff: local leaves it READY, a provider leaves it PENDING, the
   * failing summarizer (called before the operation answers) makes it FAIL, replaced by a local
   * summary. Returns the run's context now.
   */
  private writtenBy(handoff: Handoff, writer: SummaryWriter): Handoff {
    if (writer === 'entering') handoff.pending = true;
    return writer === 'broken' ? this.replaceWithLocal(handoff) : handoff;
  }

  /** A new handoff for the same run, range and provider thread takes `old`'s place, and the merge-backs it delivered. */
  private succeed(old: Handoff, failed: boolean): Handoff {
    const { id: _, standing: __, pending: ___, failed: ____, supersedes: _____, ...same } = old;
    const handoff = this.newHandoff(same, old.id);
    old.standing = false;
    old.failed = failed;
    for (const merge of this.mergeBacks) if (merge.handoff === old.id) merge.handoff = handoff.id;
    const run = this.run(old.targetRun);
    if (run.handoff === old.id) run.handoff = handoff.id;
    return handoff;
  }

  private replaceWithLocal(failed: Handoff): Handoff {
    return this.succeed(failed, true);
  }

  // ---- the planner: the design's strategy order, first that applies

  private plan(thread: Thread, provider: string, options: RunOptions): Plan {
    const planned = this.switchPlan(thread, provider, options);
    const fork = thread.pendingFork;
    if (!fork) return planned;
    // A fork's first run continues its source's provider thread natively when it can ...
    if (this.forksNatively(fork, provider, options)) {
      return {
        decision: 'NO_HANDOFF',
        providerThreadAction: 'NATIVE_FORK',
        providerThread: fork.providerThread,
        handoffStrategy: null,
        coveredRunOrdinals: null,
        stalenessSignals: [],
      };
    }
    // ... else it gets portable context: a checkpoint summary for a fork from a checkpoint.
    if (fork.fromCheckpoint && planned.handoffStrategy) return { ...planned, handoffStrategy: 'CHECKPOINT_SUMMARY' };
    return planned;
  }

  private switchPlan(thread: Thread, provider: string, options: RunOptions): Plan {
    const capabilities = capabilitiesOf(provider);
    const head = thread.head;
    const target = this.latestProviderThread(thread, provider);
    const signals = target ? this.stalenessSignals(thread, target, options) : [];
    const plan = (
      decision: Plan['decision'],
      action: Plan['providerThreadAction'],
      strategy: Strategy | null,
      range: Range | null,
    ): Plan => ({
      decision,
      providerThreadAction: action,
      providerThread: action === 'REUSE' || action === 'RESUME' ? target!.id : null,
      handoffStrategy: strategy,
      coveredRunOrdinals: range,
      stalenessSignals: signals,
    });
    // A handoff the provider cannot take, and no safe way around it: refuse before any provider work.
    const unlessUnsupported = (wanted: Plan): Plan =>
      !capabilities.canConsumeHandoffSummaries ||
      (wanted.handoffStrategy === 'FULL_THREAD_SUMMARY' && !capabilities.supportsFullThreadHandoff)
        ? {
            ...wanted,
            decision: 'UNSUPPORTED',
            providerThreadAction: 'NONE',
            providerThread: null,
            handoffStrategy: null,
          }
        : wanted;
    const whole = this.liveSpan(thread, { from: 1, to: head });

    // Nothing happened yet: nothing to hand over.
    if (head === 0)
      return target && signals.length === 0
        ? plan('NO_HANDOFF', 'RESUME', null, null)
        : plan('NO_HANDOFF', 'CREATE', null, null);
    // First time on this provider, or its old context is stale: a new provider thread, a full summary.
    if (!target || signals.length > 0)
      return unlessUnsupported(plan('FULL_HANDOFF_NEW', 'CREATE', 'FULL_THREAD_SUMMARY', whole));
    // 1. It already knows the current run.
    const known = this.knownThrough(target);
    if (known >= head)
      return plan('NO_HANDOFF', this.headRun(thread)?.providerThread === target.id ? 'REUSE' : 'RESUME', null, null);
    // 3. Resumable, but the delta would be drawn from too many provider threads (or cannot be taken).
    const missedFrom = new Set(
      this.runsSinceLastServed(thread, target)
        .filter((run) => run.ordinal > known)
        .map((run) => run.providerThread),
    );
    if (!capabilities.supportsDeltaHandoff || missedFrom.size > LIMITS.maxDeltaSourceThreads) {
      return unlessUnsupported(plan('FULL_HANDOFF_EXISTING', 'RESUME', 'FULL_THREAD_SUMMARY', whole));
    }
    // 2. The default on return: resume it with a delta of what it missed.
    return unlessUnsupported(
      plan(
        'DELTA_HANDOFF',
        'RESUME',
        'DELTA_SINCE_TARGET_LAST_SEEN',
        this.liveSpan(thread, { from: known + 1, to: head }),
      ),
    );
  }

  /** A handoff never claims a rolled-back run: its range runs from the first to the last live run it covers. */
  private liveSpan(thread: Thread, range: Range): Range {
    const ordinals = this.history(thread)
      .map((id) => this.run(id).ordinal)
      .filter((ordinal) => ordinal >= range.from && ordinal <= range.to);
    return ordinals.length > 0 ? { from: Math.min(...ordinals), to: maxOf(ordinals) } : range;
  }

  /** Every staleness signal that fires for the provider's current provider thread, in the API's order. */
  private stalenessSignals(thread: Thread, target: ProviderThread, options: RunOptions): Signal[] {
    const capabilities = capabilitiesOf(target.provider);
    const signals: Signal[] = [];
    if (this.runsSinceLastServed(thread, target).length > LIMITS.maxRunsElsewhere)
      signals.push('TOO_MANY_RUNS_ELSEWHERE');
    const missesRuns = this.knownThrough(target) < thread.head;
    if (missesRuns && this.coverageHandoffs(target).length >= LIMITS.maxChainedHandoffs)
      signals.push('TOO_MANY_CHAINED_HANDOFFS');
    const modeChanged = differs(options.runtimeMode, target.runtimeMode);
    const modelChanged = differs(options.model, target.model) && !capabilities.supportsModelSwitchInThread;
    if (modeChanged || modelChanged) signals.push('INCOMPATIBLE_CONFIG');
    if (target.status === 'RESUME_FAILED') signals.push('RESUME_FAILED');
    if (NOT_RESUMABLE.has(target.status)) signals.push('ROLLED_BACK_OR_DIVERGENT');
    if (options.cleanContext) signals.push('CLEAN_CONTEXT_REQUESTED');
    // SUMMARY_EXCEEDS_POLICY never fires: the providers' limits (providers.ts) are far above what
    // these short runs summarize to, so a summary's length is something the model need not predict.
    return signals;
  }

  private forksNatively(fork: NonNullable<Thread['pendingFork']>, provider: string, options: RunOptions): boolean {
    if (!fork.providerThread) return false;
    const source = this.providerThread(fork.providerThread);
    const capabilities = capabilitiesOf(provider);
    const atLatestTurn = this.lastRunOrdinal(source) === fork.ordinal;
    return (
      source.provider === provider &&
      capabilities.canForkThread &&
      (atLatestTurn || capabilities.canForkFromTurn) &&
      capabilities.nativeThreadIds === 'strong' &&
      source.nativeRef !== null &&
      !NOT_FORKABLE.has(source.status) &&
      !options.cleanContext &&
      !differs(options.runtimeMode, source.runtimeMode) &&
      !(differs(options.model, source.model) && !capabilities.supportsModelSwitchInThread)
    );
  }

  /** The provider's most recent provider thread on the thread: the only one the planner considers. */
  private latestProviderThread(thread: Thread, provider: string): ProviderThread | null {
    const mine = thread.providerThreads.map((id) => this.providerThread(id)).filter((pt) => pt.provider === provider);
    return mine[mine.length - 1] ?? null;
  }

  /** Highest ordinal it knows: its last own run, the top of a standing handoff's range, or a native fork's inheritance. */
  private knownThrough(pt: ProviderThread): number {
    return Math.max(
      this.lastRunOrdinal(pt) ?? 0,
      maxOf(this.coverageHandoffs(pt).map((handoff) => handoff.range.to)),
      pt.inheritedThrough ?? 0,
    );
  }

  /** The thread's own live runs after the last one it served (or, for a native fork, after its inheritance). */
  private runsSinceLastServed(thread: Thread, pt: ProviderThread): Run[] {
    const since = this.lastRunOrdinal(pt) ?? pt.inheritedThrough ?? 0;
    return this.liveOwnRuns(thread)
      .map((id) => this.run(id))
      .filter((run) => run.ordinal > since);
  }

  // ---- rollback

  private rollback(threadId: string, toOrdinal: number): Outcome {
    const thread = this.thread(threadId);
    if (thread.running) return error('RUN_IN_PROGRESS');
    if (!this.isRollbackPoint(thread, toOrdinal)) return error('BAD_USER_INPUT');

    const rolledBack = this.liveOwnRuns(thread).filter((id) => this.run(id).ordinal > toOrdinal);
    for (const id of rolledBack) this.run(id).status = 'ROLLED_BACK';
    thread.head = toOrdinal;
    // Handoffs that described a rolled-back run, or were made for one, are withdrawn (this thread's only).
    const withdrawn = [...this.handoffs.values()].filter(
      (handoff) =>
        handoff.standing &&
        handoff.thread === thread.id &&
        (rolledBack.includes(handoff.targetRun) || handoff.covers.some((id) => rolledBack.includes(id))),
    );
    for (const handoff of withdrawn) handoff.standing = false;
    for (const merge of this.mergeBacks) {
      if (merge.fork === thread.id && merge.status === 'PENDING' && merge.sourceOrdinal > toOrdinal)
        merge.status = 'SUPERSEDED';
    }
    // Provider threads that knew a rolled-back run roll back natively where they can and have
    // something left to return to; otherwise they diverge and are replaced at their next run.
    const affected = thread.providerThreads
      .map((id) => this.providerThread(id))
      .filter(
        (pt) =>
          rolledBack.some((id) => this.run(id).providerThread === pt.id) ||
          withdrawn.some((handoff) => handoff.to === pt.id),
      );
    for (const pt of affected) {
      const keepsEarlierRuns =
        this.nativeOrdinals(pt).some((ordinal) => ordinal <= toOrdinal) ||
        (toOrdinal > 0 && (pt.inheritedThrough ?? 0) >= toOrdinal);
      pt.status = capabilitiesOf(pt.provider).canRollbackThread && keepsEarlierRuns ? 'ROLLED_BACK' : 'DIVERGENT';
    }
    return ok({
      headOrdinal: toOrdinal,
      rolledBackRuns: rolledBack,
      supersededHandoffs: withdrawn.map((handoff) => handoff.id).sort(bySymbol),
      providerThreads: affected.map((pt) => ({ providerThread: pt.id, action: pt.status })),
    });
  }

  /** 0 (for a thread that inherited nothing), a fork's fork point, or a live own run below the head. */
  private isRollbackPoint(thread: Thread, toOrdinal: number): boolean {
    if (toOrdinal < 0 || toOrdinal >= thread.head) return false;
    if (toOrdinal === 0) return thread.forkOrdinal === 0;
    if (toOrdinal < thread.forkOrdinal) return false;
    return toOrdinal === thread.forkOrdinal || this.liveOwnRuns(thread).includes(`${thread.id}#${toOrdinal}`);
  }

  private settleRollback(id: string, status: 'IDLE' | 'DIVERGENT'): Outcome {
    const pt = this.providerThread(id);
    if (pt.status !== 'ROLLED_BACK') return error('CONFLICT');
    pt.status = status;
    return ok({ providerThread: id, status });
  }

  // ---- forks, merge-back, subagents

  private fork(sourceId: string, forkId: string, from: ForkFrom): Outcome {
    const source = this.thread(sourceId);
    const point = this.sourcePoint(source, from);
    if ('error' in point) return point;
    const inherited = this.history(source).filter((id) => this.run(id).ordinal <= point.ordinal);
    const fork = this.newThread(forkId, 'fork', source.id, point.ordinal, inherited);
    fork.pendingFork = {
      providerThread: point.providerThread,
      ordinal: point.ordinal,
      fromCheckpoint: 'checkpointOf' in from,
    };
    this.threads.set(forkId, fork);
    return ok({ thread: forkId, headOrdinal: point.ordinal });
  }

  /** Only stable points of the source's history: a completed, failed or interrupted run, or a checkpoint. */
  private sourcePoint(
    source: Thread,
    from: ForkFrom,
  ): { ordinal: number; providerThread: string | null } | { error: string } {
    if ('latest' in from) {
      const latest = this.latestStableOwnRun(source);
      if (latest) return { ordinal: latest.ordinal, providerThread: latest.providerThread };
      if (source.forkOrdinal > 0) return this.inheritedPoint(source, source.forkOrdinal);
      return { error: 'BAD_USER_INPUT' };
    }
    if ('checkpointOf' in from) {
      const run = this.run(from.checkpointOf);
      if (run.thread !== source.id || !run.hasCheckpoint) return { error: 'NOT_FOUND' };
      if (run.status === 'ROLLED_BACK') return { error: 'BAD_USER_INPUT' };
      return { ordinal: run.ordinal, providerThread: null };
    }
    const byProviderThread = 'providerThread' in from ? this.providerThread(from.providerThread) : null;
    const ordinal = byProviderThread ? this.lastRunOrdinal(byProviderThread) : (from as { ordinal: number }).ordinal;
    if (byProviderThread && byProviderThread.thread !== source.id) return { error: 'NOT_FOUND' };
    if (byProviderThread && ordinal === null) return { error: 'BAD_USER_INPUT' };
    if (ordinal === null || ordinal < 1 || ordinal > source.head) return { error: 'BAD_USER_INPUT' };
    if (ordinal <= source.forkOrdinal) return this.inheritedPoint(source, ordinal);
    const run = this.runs.get(`${source.id}#${ordinal}`);
    if (!run || run.status === 'ROLLED_BACK') return { error: 'BAD_USER_INPUT' };
    if (!STABLE.has(run.status)) return { error: 'CONFLICT' };
    return { ordinal, providerThread: byProviderThread?.id ?? run.providerThread };
  }

  /** A point among the runs a fork inherited: it must be one the fork still has in its history. */
  private inheritedPoint(
    source: Thread,
    ordinal: number,
  ): { ordinal: number; providerThread: string | null } | { error: string } {
    const run = source.inherited.map((id) => this.run(id)).find((candidate) => candidate.ordinal === ordinal);
    if (!run) return { error: 'BAD_USER_INPUT' };
    return { ordinal, providerThread: run.providerThread };
  }

  private mergeBack(forkId: string): Outcome {
    const fork = this.thread(forkId);
    if (fork.relationship !== 'fork') return error('BAD_USER_INPUT');
    const latest = this.latestStableOwnRun(fork);
    if (!latest) return error('BAD_USER_INPUT');
    // A newer merge-back of the same fork into the same thread replaces a pending older one.
    for (const merge of this.mergeBacks)
      if (merge.fork === fork.id && merge.status === 'PENDING') merge.status = 'SUPERSEDED';
    this.mergeBacks.push({
      fork: fork.id,
      into: fork.parent!,
      sourceOrdinal: latest.ordinal,
      status: 'PENDING',
      handoff: null,
    });
    return ok({ fork: fork.id, into: fork.parent, sourceRunOrdinal: latest.ordinal, baseRunOrdinal: fork.forkOrdinal });
  }

  private spawnSubagent(parentRunId: string, childId: string): Outcome {
    const parentRun = this.run(parentRunId);
    if (parentRun.status !== 'RUNNING') return error('CONFLICT');
    const child = this.newThread(childId, 'subagent', parentRun.thread, 0, []);
    child.parentRun = parentRun.id;
    child.taskPending = true;
    this.threads.set(childId, child);
    return ok({ thread: childId, headOrdinal: 0 });
  }

  /** The result goes to the parent run, delivered to the provider thread serving it now; a rolled-back run takes none. */
  private completeSubagent(childId: string): Outcome {
    const child = this.thread(childId);
    if (child.relationship !== 'subagent') return error('BAD_USER_INPUT');
    if (child.running) return error('RUN_IN_PROGRESS');
    const parentRun = this.run(child.parentRun!);
    if (parentRun.status === 'ROLLED_BACK') return error('CONFLICT');
    const handoff = this.newHandoff({
      thread: parentRun.thread,
      kind: 'subagentResult',
      strategy: 'MANUAL_CONTEXT',
      range: { from: 0, to: 0 },
      covers: [],
      to: parentRun.providerThread,
      targetRun: parentRun.id,
    });
    return ok({ handoff: handoff.id });
  }

  // ---- coverage: what each provider thread knows

  /** The thread's history: what it inherited, then its own runs that are not rolled back. */
  private history(thread: Thread): string[] {
    return [...thread.inherited, ...this.liveOwnRuns(thread)];
  }

  private liveOwnRuns(thread: Thread): string[] {
    return [...this.runs.values()]
      .filter((run) => run.thread === thread.id && run.status !== 'ROLLED_BACK')
      .map((run) => run.id);
  }

  private latestStableOwnRun(thread: Thread): Run | null {
    const stable = [...this.runs.values()].filter((run) => run.thread === thread.id && STABLE.has(run.status));
    return stable[stable.length - 1] ?? null;
  }

  private headRun(thread: Thread): Run | null {
    return this.runs.get(`${thread.id}#${thread.head}`) ?? null;
  }

  /** Ordinals of the live runs it served itself. */
  private nativeOrdinals(pt: ProviderThread): number[] {
    return ascending(
      [...this.runs.values()]
        .filter((run) => run.providerThread === pt.id && run.status !== 'ROLLED_BACK')
        .map((run) => run.ordinal),
    );
  }

  private lastRunOrdinal(pt: ProviderThread): number | null {
    return this.nativeOrdinals(pt).at(-1) ?? null;
  }

  private standingHandoffs(pt: ProviderThread): Handoff[] {
    return [...this.handoffs.values()].filter((handoff) => handoff.to === pt.id && handoff.standing);
  }

  /** Standing handoffs of the thread's own history: merge-backs and subagent context cover no run of it. */
  private coverageHandoffs(pt: ProviderThread): Handoff[] {
    return this.standingHandoffs(pt).filter((handoff) => handoff.kind === 'switch' || handoff.kind === 'fork');
  }

  private coverage(pt: ProviderThread): CoverageView {
    const history = ascending(this.history(this.thread(pt.thread)).map((id) => this.run(id).ordinal));
    const inherited = history.filter((ordinal) => ordinal <= (pt.inheritedThrough ?? 0));
    const native = ascending([...new Set([...inherited, ...this.nativeOrdinals(pt)])]);
    const knows = new Set([
      ...native,
      ...this.coverageHandoffs(pt).flatMap((handoff) => handoff.covers.map((id) => this.run(id).ordinal)),
    ]);
    return {
      nativeRunOrdinals: native,
      handoffIds: this.standingHandoffs(pt)
        .map((handoff) => handoff.id)
        .sort(bySymbol),
      coveredThroughOrdinal: maxOf([...knows]),
      missingRunOrdinals: history.filter((ordinal) => !knows.has(ordinal)),
    };
  }

  /** What the service should show of each thread: runs, provider threads with coverage, handoffs. */
  observe(threadId: string): ThreadView {
    const thread = this.thread(threadId);
    return {
      headOrdinal: thread.head,
      runs: this.ownRuns(threadId).map((run) => ({
        id: run.id,
        ordinal: run.ordinal,
        status: run.status,
        providerThread: run.providerThread,
        contextHandoff: run.handoff,
      })),
      providerThreads: thread.providerThreads.map((id) => {
        const pt = this.providerThread(id);
        const native = this.nativeOrdinals(pt);
        return {
          id,
          provider: pt.provider,
          status: pt.status,
          firstRunOrdinal: native[0] ?? null,
          lastRunOrdinal: native.at(-1) ?? null,
          coverage: this.coverage(pt),
        };
      }),
      handoffs: [...this.handoffs.values()]
        .filter((handoff) => handoff.thread === threadId)
        .map((handoff) => ({
          id: handoff.id,
          status: handoff.standing ? (handoff.pending ? 'PENDING' : 'READY') : handoff.failed ? 'FAILED' : 'SUPERSEDED',
          strategy: handoff.strategy,
          coveredRunOrdinals: handoff.range,
          toProviderThread: handoff.to,
          targetRun: handoff.targetRun,
        })),
      mergeBacks: this.mergeBacks
        .filter((merge) => merge.into === threadId)
        .map(({ fork, status, handoff }) => ({ fork, status, handoff })),
    };
  }

  // ---- records

  private startRunView(run: Run) {
    const handoff = run.handoff ? this.handoff(run.handoff) : null;
    return {
      run: run.id,
      ordinal: run.ordinal,
      providerThread: run.providerThread,
      plan: run.plan,
      handoff: handoff && {
        id: handoff.id,
        strategy: handoff.strategy,
        coveredRunOrdinals: handoff.range,
        supersedes: handoff.supersedes,
      },
      fencingToken: tokenSymbol(run.id, run.epoch),
    };
  }

  private newProviderThread(
    thread: Thread,
    provider: string,
    options: RunOptions,
    inheritedThrough: number | null,
  ): ProviderThread {
    const pt: ProviderThread = {
      id: `p${this.providerThreads.size + 1}`,
      thread: thread.id,
      provider,
      status: 'IDLE',
      model: options.model ?? null,
      runtimeMode: options.runtimeMode ?? null,
      inheritedThrough,
      nativeRef: null,
    };
    this.providerThreads.set(pt.id, pt);
    thread.providerThreads.push(pt.id);
    return pt;
  }

  private newHandoff(
    fields: Omit<Handoff, 'id' | 'standing' | 'pending' | 'failed' | 'supersedes'>,
    supersedes: string | null = null,
  ): Handoff {
    const handoff: Handoff = {
      ...fields,
      id: `h${this.handoffs.size + 1}`,
      standing: true,
      pending: false,
      failed: false,
      supersedes,
    };
    this.handoffs.set(handoff.id, handoff);
    return handoff;
  }

  private inRange(runIds: string[], range: Range): string[] {
    return runIds.filter((id) => {
      const { ordinal } = this.run(id);
      return ordinal >= range.from && ordinal <= range.to;
    });
  }

  private thread(id: string): Thread {
    return found(this.threads.get(id), 'thread', id);
  }

  private run(id: string): Run {
    return found(this.runs.get(id), 'run', id);
  }

  private providerThread(id: string): ProviderThread {
    return found(this.providerThreads.get(id), 'provider thread', id);
  }

  private handoff(id: string): Handoff {
    return found(this.handoffs.get(id), 'handoff', id);
  }
}

export function checkpointOf(runId: string): string {
  return `${runId}.checkpoint`;
}

/** A requested setting differs only when both sides name one. */
function differs(requested: string | undefined, current: string | null): boolean {
  return requested !== undefined && current !== null && requested !== current;
}

function found<T>(value: T | undefined, what: string, id: string): T {
  if (value === undefined) throw new Error(`the model has no ${what} ${id}`);
  return value;
}
