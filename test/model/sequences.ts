// Random operation sequences, run against the model and the real service side by side. Shared by
// test/reliability/model.property.test.ts (a bounded number in CI) and tools/fuzz.ts (for as long
// as asked).
//
// fast-check generates abstract steps ("a turn on some thread with some provider", "fork some
// thread and work on the fork"); each step yields concrete operations one at a time, each chosen
// against the model's state after the previous one, so a step whose target vanished while
// shrinking picks another or yields nothing, and a shrunk sequence is still a meaningful one. The
// concrete operations are what a failure prints and what a replay runs.
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { Driver } from 'neo4j-driver';
import { describeViolations, runAudit } from '../../src/graph/audit.js';
import { LineageModel } from './lineageModel.js';
import { describeOperation, type ForkFrom, type Operation, type Outcome, type RunOptions } from './operations.js';
import { PROVIDERS, type SummaryWriter } from './providers.js';
import { ServiceRunner, type GraphQLClient } from './runner.js';

type Options = {
  model?: string | undefined;
  runtimeMode?: string | undefined;
  cleanContext?: boolean | undefined;
  manualContext?: string | undefined;
};
type Finish = 'complete' | 'checkpoint' | 'fail' | 'interrupt';
/** Which fencing token a call echoes: none, its run's current dispatch's, or a replaced one's (when there is one). */
type Fence = 'none' | 'current' | 'stale';
type ForkKind = 'latest' | 'ordinal' | 'checkpoint' | 'providerThread';

export type Step =
  // The common case: runs started and ended one after the other on one provider (the last one
  // ending as `how` says, after failing to resume for 'resumeFailure', after the provider resumed
  // blank for 'resumedBlank'). `fenced`: the last run's calls echo their dispatch's token, and a
  // replaced dispatch's late completion follows.
  // `submit`: the provider asked to write the last run's handoff sends it in before the run ends.
  | ({
      do: 'turn';
      thread: number;
      provider: string;
      times: number;
      how: Finish | 'resumeFailure' | 'resumedBlank';
      fenced: boolean;
      submit: boolean;
    } & Options)
  // A subagent's whole life inside one run of its parent.
  | { do: 'subagent'; thread: number; provider: string; childProvider: string }
  // A fork, a run on it (on the source point's provider, natively when it can), and a merge-back.
  | {
      do: 'forkAndWork';
      thread: number;
      from: ForkKind;
      pick: number;
      bindFirst: boolean;
      sameProvider: boolean;
      provider: string;
      merge: boolean;
    }
  // Single operations, for the interleavings the steps above never produce.
  | ({ do: 'start'; thread: number; provider: string } & Options)
  | ({ do: 'plan'; thread: number; provider: string } & Options)
  | { do: 'finish'; run: number; how: Finish; fence: Fence }
  | { do: 'resumeFailure'; run: number; fence: Fence }
  // `fresh`: the provider reports a native id of its own choosing, not the one it was given.
  | { do: 'bind'; providerThread: number; fresh: number; fence: Fence }
  | { do: 'rollback'; thread: number; to: number }
  | { do: 'settleRollback'; providerThread: number; confirmed: boolean }
  | { do: 'fork'; thread: number; from: ForkKind; pick: number }
  | { do: 'mergeBack'; fork: number }
  | { do: 'spawn'; run: number; provider: string }
  | { do: 'completeSubagent'; child: number }
  | { do: 'regenerate'; handoff: number; source: SummaryWriter | undefined }
  // Mostly a PENDING handoff; any other is refused.
  | { do: 'submit'; handoff: number }
  | { do: 'newThread' };

// Unbiased: a biased pick is nearly always 0, so the first thread would get almost every step.
const pick = fc.noBias(fc.nat(31));
const provider = fc.constantFrom(...PROVIDERS.keys(), 'codex', 'claude', 'codex', 'claude');
const mostlyUnset = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary, weight: 1 });
const planOptions = {
  model: mostlyUnset(fc.constantFrom('m1', 'm2')),
  runtimeMode: mostlyUnset(fc.constantFrom('ro', 'rw')),
  cleanContext: mostlyUnset(fc.constant(true)),
};
const runOptions = {
  ...planOptions,
  // Cypher-looking on purpose: it must be stored as text, whatever it looks like.
  manualContext: mostlyUnset(fc.constant("Operator: only touch src/ ('}) DETACH DELETE n //")),
};
const finish = fc.constantFrom<Finish>('complete', 'complete', 'complete', 'checkpoint', 'fail', 'interrupt');
const fence = fc.constantFrom<Fence>('none', 'none', 'current', 'stale');
const forkKind = fc.constantFrom<ForkKind>('latest', 'ordinal', 'checkpoint', 'providerThread');
const step = <T extends Step['do'], R>(name: T, fields: { [K in keyof R]: fc.Arbitrary<R[K]> }) =>
  fc.record({ do: fc.constant(name), ...fields });

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 30,
    arbitrary: step('turn', {
      thread: pick,
      provider,
      ...runOptions,
      times: fc.constantFrom(1, 1, 1, 2, 3),
      how: fc.oneof(
        { arbitrary: finish, weight: 8 },
        { arbitrary: fc.constantFrom('resumeFailure' as const, 'resumedBlank' as const), weight: 2 },
      ),
      fenced: fc.boolean(),
      submit: fc.boolean(),
    }),
  },
  { weight: 4, arbitrary: step('subagent', { thread: pick, provider, childProvider: provider }) },
  {
    weight: 6,
    arbitrary: step('forkAndWork', {
      thread: pick,
      from: forkKind,
      pick,
      bindFirst: fc.boolean(),
      sameProvider: fc.boolean(),
      provider,
      merge: fc.boolean(),
    }),
  },
  { weight: 6, arbitrary: step('start', { thread: pick, provider, ...runOptions }) },
  { weight: 5, arbitrary: step('finish', { run: pick, how: finish, fence }) },
  { weight: 5, arbitrary: step('plan', { thread: pick, provider, ...planOptions }) },
  { weight: 3, arbitrary: step('resumeFailure', { run: pick, fence }) },
  { weight: 4, arbitrary: step('bind', { providerThread: pick, fresh: fc.constantFrom(0, 0, 1, 2), fence }) },
  { weight: 8, arbitrary: step('rollback', { thread: pick, to: pick }) },
  { weight: 4, arbitrary: step('settleRollback', { providerThread: pick, confirmed: fc.boolean() }) },
  { weight: 4, arbitrary: step('fork', { thread: pick, from: forkKind, pick }) },
  { weight: 3, arbitrary: step('mergeBack', { fork: pick }) },
  { weight: 2, arbitrary: step('spawn', { run: pick, provider }) },
  { weight: 2, arbitrary: step('completeSubagent', { child: pick }) },
  {
    weight: 4,
    arbitrary: step('regenerate', {
      handoff: pick,
      source: fc.constantFrom<SummaryWriter | undefined>(undefined, undefined, 'local', 'entering', 'broken'),
    }),
  },
  { weight: 3, arbitrary: step('submit', { handoff: pick }) },
  { weight: 2, arbitrary: fc.constant({ do: 'newThread' as const }) },
) as fc.Arbitrary<Step>;

export function sequenceArbitrary(maxSteps: number): fc.Arbitrary<Step[]> {
  return fc.array(stepArbitrary, { minLength: 1, maxLength: maxSteps, size: 'max' });
}

function choose<T>(candidates: readonly T[], index: number): T | null {
  return candidates.length === 0 ? null : candidates[index % candidates.length]!;
}

/** Only the options a step sets, so that the script reads as what was asked. */
function definedOptions(step: Options): RunOptions {
  return {
    ...(step.model !== undefined && { model: step.model }),
    ...(step.runtimeMode !== undefined && { runtimeMode: step.runtimeMode }),
    ...(step.cleanContext !== undefined && { cleanContext: step.cleanContext }),
  };
}

/** A start's options: a plan's, and the operator's context when the step has one. */
function startOptions(step: Options): RunOptions & { manualContext?: string } {
  return { ...definedOptions(step), ...(step.manualContext !== undefined && { manualContext: step.manualContext }) };
}

function finishing(run: string, how: Finish, dispatch?: number): Operation {
  const fenced = dispatch === undefined ? {} : { dispatch };
  if (how === 'fail' || how === 'interrupt') return { op: 'failRun', run, interrupted: how === 'interrupt', ...fenced };
  return { op: 'completeRun', run, checkpoint: how === 'checkpoint', ...fenced };
}

/** The dispatch epoch whose token a call on `run` echoes; a stale one only exists once a resume failure replaced the first. */
function epochFor(model: LineageModel, run: string, fence: Fence): number | undefined {
  const { epoch } = model.runInfo(run);
  if (fence === 'none') return undefined;
  return fence === 'stale' && epoch > 1 ? epoch - 1 : epoch;
}

/**
 * The concrete operations a step means, each chosen when the previous one has been applied to the
 * model (the caller stops at the first refusal). A step can mean nothing now, e.g. "finish a
 * running run" with none running. Targets are mostly valid ones; some steps reach refusals on
 * purpose (a start on a running thread, a rollback to the head, a fork from a rolled-back
 * ordinal), whose error codes are compared too.
 */
function* operationsFor(model: LineageModel, step: Step): Generator<Operation> {
  const threads = model.threadIds();
  const thread = (index: number) => choose(threads, index)!;
  const nextThread = () => `t${model.threadIds().length + 1}`;
  const runningRun = (threadId: string) => model.threadInfo(threadId).running!;
  const runningRuns = threads.flatMap((id) => model.threadInfo(id).running ?? []);
  const allRuns = threads.flatMap((id) => model.ownRuns(id).map((run) => run.id));
  const fenced = (run: string, fence: Fence) => {
    const epoch = epochFor(model, run, fence);
    return epoch === undefined ? {} : { dispatch: epoch };
  };
  switch (step.do) {
    case 'newThread':
      return yield { op: 'createThread', thread: nextThread() };
    case 'turn': {
      const start: Operation = {
        op: 'startRun',
        thread: thread(step.thread),
        provider: step.provider,
        ...startOptions(step),
      };
      // A clean context and operator context are asked for once, by the streak's last run.
      const again: Operation = {
        op: 'startRun',
        thread: start.thread,
        provider: step.provider,
        ...definedOptions({ ...step, cleanContext: undefined }),
      };
      for (let turn = 1; turn < step.times; turn++) {
        yield again;
        yield finishing(runningRun(start.thread), 'complete');
      }
      // Only a run that resumes a provider thread can fail to resume it; planRun tells which will.
      const plan = model.apply({
        op: 'planRun',
        thread: start.thread,
        provider: step.provider,
        ...definedOptions(step),
      }) as { ok: { providerThreadAction: string } };
      yield start;
      const run = runningRun(start.thread);
      const current = () => (step.fenced ? model.runInfo(run).epoch : undefined);
      const context = model.runInfo(run).handoff;
      if (step.submit && context !== null && model.pendingHandoffIds().includes(context))
        yield { op: 'submitHandoffSummary', handoff: context };
      if (step.how === 'resumeFailure' || step.how === 'resumedBlank') {
        if (['RESUME', 'REUSE'].includes(plan.ok.providerThreadAction))
          yield* failingToResume(model, run, step.how, current());
        yield finishing(run, 'complete', current());
      } else {
        yield finishing(run, step.how, current());
      }
      // The replaced session answers late: refused, and nothing changes.
      if (step.fenced && model.runInfo(run).epoch > 1) yield finishing(run, 'complete', 1);
      return;
    }
    case 'subagent': {
      const parent = thread(step.thread);
      yield { op: 'startRun', thread: parent, provider: step.provider };
      const child = nextThread();
      yield { op: 'spawnSubagent', parentRun: runningRun(parent), child, provider: step.childProvider };
      yield { op: 'startRun', thread: child, provider: step.childProvider };
      yield finishing(runningRun(child), 'complete');
      yield { op: 'completeSubagent', child };
      return yield finishing(runningRun(parent), 'complete');
    }
    case 'forkAndWork': {
      const source = thread(step.thread);
      const head = model.ownRuns(source).find((run) => run.ordinal === model.threadInfo(source).head);
      if (step.bindFirst && head) yield { op: 'bindProviderThread', providerThread: head.providerThread };
      const fork = nextThread();
      yield { op: 'forkThread', source, fork, from: forkPoint(model, source, step.from, step.pick) };
      const sourceProviderThread = model.threadInfo(fork).pendingFork?.providerThread;
      const provider =
        step.sameProvider && sourceProviderThread
          ? model.providerThreadInfo(sourceProviderThread).provider
          : step.provider;
      yield { op: 'startRun', thread: fork, provider };
      yield finishing(runningRun(fork), 'complete');
      if (step.merge) yield { op: 'mergeBack', fork };
      return;
    }
    case 'start':
      return yield { op: 'startRun', thread: thread(step.thread), provider: step.provider, ...startOptions(step) };
    case 'plan':
      return yield { op: 'planRun', thread: thread(step.thread), provider: step.provider, ...definedOptions(step) };
    case 'finish': {
      // Mostly running runs; a fenced call may also come late, for a run that already ended.
      const run = choose(step.fence === 'stale' ? allRuns : runningRuns, step.run);
      if (run) yield finishing(run, step.how, epochFor(model, run, step.fence));
      return;
    }
    case 'resumeFailure': {
      const run = choose(runningRuns, step.run);
      if (run) yield { op: 'reportResumeFailure', run, ...fenced(run, step.fence) };
      return;
    }
    case 'bind': {
      const providerThread = choose(model.providerThreadIds(), step.providerThread);
      if (!providerThread) return;
      // The token of the run the provider thread serves now, or of the last run it served.
      const { thread: threadId } = model.providerThreadInfo(providerThread);
      const served = model
        .ownRuns(threadId)
        .filter((run) => run.providerThread === providerThread || run.id === model.threadInfo(threadId).running);
      const run = served.at(-1)?.id;
      const epoch = run === undefined ? undefined : epochFor(model, run, step.fence);
      yield {
        op: 'bindProviderThread',
        providerThread,
        ...(step.fresh > 0 && { nativeRef: `native-${providerThread}-v${step.fresh}` }),
        ...(run !== undefined && epoch !== undefined && { dispatch: { run, epoch } }),
      };
      return;
    }
    case 'rollback': {
      const target = choose(
        threads.filter((id) => model.threadInfo(id).head > 0),
        step.thread,
      );
      // Every ordinal up to the head: the valid points, gaps left by earlier rollbacks, and the head itself.
      if (target)
        yield { op: 'rollbackThread', thread: target, toOrdinal: step.to % (model.threadInfo(target).head + 1) };
      return;
    }
    case 'settleRollback': {
      const providerThread = choose(
        model.providerThreadIds().filter((id) => model.providerThreadInfo(id).status === 'ROLLED_BACK'),
        step.providerThread,
      );
      if (providerThread)
        yield { op: step.confirmed ? 'confirmProviderRollback' : 'reportProviderRollbackFailure', providerThread };
      return;
    }
    case 'fork': {
      const source = thread(step.thread);
      return yield {
        op: 'forkThread',
        source,
        fork: nextThread(),
        from: forkPoint(model, source, step.from, step.pick),
      };
    }
    case 'mergeBack': {
      const fork = choose(
        threads.filter((id) => model.threadInfo(id).relationship === 'fork'),
        step.fork,
      );
      if (fork) yield { op: 'mergeBack', fork };
      return;
    }
    case 'spawn': {
      const parentRun = choose(runningRuns, step.run);
      if (parentRun) yield { op: 'spawnSubagent', parentRun, child: nextThread(), provider: step.provider };
      return;
    }
    case 'completeSubagent': {
      const child = choose(
        threads.filter((id) => model.threadInfo(id).relationship === 'subagent'),
        step.child,
      );
      if (child) yield { op: 'completeSubagent', child };
      return;
    }
    case 'regenerate': {
      // Any handoff: superseded ones and ones with no summary to write again are refused.
      const handoff = choose(model.handoffIds(), step.handoff);
      if (handoff)
        yield { op: 'regenerateHandoff', handoff, ...(step.source !== undefined && { source: step.source }) };
      return;
    }
    case 'submit': {
      const pending = model.pendingHandoffIds();
      const handoff = choose(pending.length > 0 && step.handoff % 4 !== 0 ? pending : model.handoffIds(), step.handoff);
      if (handoff) yield { op: 'submitHandoffSummary', handoff };
      return;
    }
  }
}

/**
 * A resumed run that cannot go on in its provider thread: the orchestrator reports a resume failure,
 * or the provider resumed blank, reporting a fresh native id of its own (after the one it was to
 * resume, when none was bound yet).
 */
function* failingToResume(
  model: LineageModel,
  run: string,
  how: 'resumeFailure' | 'resumedBlank',
  dispatch: number | undefined,
): Generator<Operation> {
  if (how === 'resumeFailure')
    return yield { op: 'reportResumeFailure', run, ...(dispatch !== undefined && { dispatch }) };
  const { providerThread } = model.runInfo(run);
  const token = dispatch === undefined ? {} : { dispatch: { run, epoch: dispatch } };
  if (model.providerThreadInfo(providerThread).nativeRef === null)
    yield { op: 'bindProviderThread', providerThread, ...token };
  yield { op: 'bindProviderThread', providerThread, nativeRef: `native-${providerThread}-blank`, ...token };
}

function forkPoint(model: LineageModel, source: string, kind: ForkKind, index: number): ForkFrom {
  const { head, providerThreads } = model.threadInfo(source);
  if (kind === 'ordinal' && head > 0) return { ordinal: 1 + (index % head) };
  const checkpointed = model.ownRuns(source).filter((run) => run.hasCheckpoint);
  const run = choose(checkpointed, index);
  if (kind === 'checkpoint' && run) return { checkpointOf: run.id };
  const providerThread = choose(providerThreads, index);
  if (kind === 'providerThread' && providerThread) return { providerThread };
  return { latest: true };
}

/** The model and the service disagreed; the message holds the replayable script. */
class SequenceFailure extends Error {}

export interface SequenceResult {
  operations: number;
  /** Pending handoffs the sweepers expired during the sequence. */
  expiries: number;
}

/** What a sequence checks in the database itself, beside what the service answers. */
export interface GraphChecks {
  /** The audit's violations that concern the given service ids, described; empty when the graph is sound. */
  audit(serviceIds: string[]): Promise<string[]>;
  /** Deletes a passed sequence's data, so that the audit of later sequences reads a small graph. */
  forget(threadIdPrefix: string): Promise<void>;
}

/**
 * The invariant audit of src/graph/audit.ts over the service's tenant, narrowed to the rows that name
 * one of a sequence's ids: whatever else was written there is not this sequence's to answer for.
 * Its cost grows with the tenant, hence forget(): every node of the sequence names one of its threads.
 */
export function graphChecks(driver: Driver, database: string, tenant: string): GraphChecks {
  return {
    audit: async (serviceIds) =>
      (await runAudit(driver, database, { tenant }))
        .filter((violation) => serviceIds.some((id) => JSON.stringify(violation.row).includes(id)))
        .map((violation) => describeViolations([violation])),
    forget: async (prefix) => {
      await driver.executeQuery(
        `MATCH (n) WHERE n.tenant = $tenant AND (n.id STARTS WITH $prefix OR n.threadId STARTS WITH $prefix OR n.sourceThreadId STARTS WITH $prefix)
         DETACH DELETE n`,
        { tenant, prefix },
        { database },
      );
    },
  };
}

/**
 * Runs the steps (after creating a first thread) against a fresh model and the service, comparing
 * every operation's outcome, the state of every thread at the end (and of the thread an operation
 * changed after each one, when observeEachOperation), and the audit. Throws a SequenceFailure at
 * the first disagreement. Reading a thread back after each operation names the exact operation a
 * state went wrong at; without it a sequence costs about a third less, and shrinking usually cuts
 * the sequence back to that operation anyway.
 */
export async function runSequence(
  client: GraphQLClient,
  steps: readonly Step[],
  graph: GraphChecks,
  observeEachOperation: boolean,
): Promise<SequenceResult> {
  const prefix = `model-${randomBytes(5).toString('hex')}`;
  const model = new LineageModel();
  const runner = new ServiceRunner(client, prefix);
  const script: Operation[] = [];
  for (const step of [{ do: 'newThread' } as const, ...steps]) {
    for (const operation of operationsFor(model, step)) {
      script.push(operation);
      // The rest of a step that was refused means nothing (the run a refused start would have started).
      if ('error' in (await runOperation(model, runner, operation, script, observeEachOperation))) break;
    }
  }
  await compareThreads(model, runner, model.threadIds(), script);
  const violations = await graph.audit(runner.serviceIds());
  if (violations.length > 0)
    throw new SequenceFailure(failureReport(script, 'the audit found violations', violations.join('\n')));
  await graph.forget(prefix);
  return { operations: script.length, expiries: model.expiries };
}

/** Replays a saved script, printing what each operation returned; stops at the first disagreement. */
export async function replay(
  client: GraphQLClient,
  script: readonly Operation[],
  log: (line: string) => void,
): Promise<void> {
  const model = new LineageModel();
  const runner = new ServiceRunner(client, `replay-${randomBytes(5).toString('hex')}`);
  const done: Operation[] = [];
  for (const operation of script) {
    done.push(operation);
    const outcome = await runOperation(model, runner, operation, done, true);
    log(`${describeOperation(operation)}\n  -> ${JSON.stringify(outcome)}`);
  }
  await compareThreads(model, runner, model.threadIds(), done);
}

/*
 * Expiry. Every service instance runs the sweeper, which fails a PENDING handoff older than the
 * policy's pendingTimeoutSeconds and replaces it with a local summary. Which operation an expiry
 * lands before or after depends on the clock and the machine's load, so the model cannot predict
 * it; rather than only auditing the invariants when handoffs expire, the model is told of each
 * expiry the service shows (LineageModel.expire) and still predicts everything else exactly: what
 * the expiry itself did (the handoff FAILED, a local READY one for the same run, range and provider
 * thread, the run's context and coverage moved to it) and every later outcome. An expiry is looked
 * for after each operation, among the handoffs pending before it. One the operation found already
 * done (it withdrew, regenerated, submitted or replaced a handoff that had expired) happened before
 * it: the model goes back, learns it, and applies the operation again; any other is learned after
 * it. The audit still runs after each sequence. Handoff lists are compared in the order the model
 * gave the handoffs their symbols, since it may name a replacement after newer handoffs.
 */
async function runOperation(
  model: LineageModel,
  runner: ServiceRunner,
  operation: Operation,
  script: Operation[],
  observe: boolean,
): Promise<Outcome> {
  const pendingBefore = model.pendingHandoffIds();
  const undo = pendingBefore.length > 0 ? model.snapshot() : null;
  const mark = runner.mark();
  let expected = model.apply(operation);
  const result = await runner.send(operation);
  let observed = runner.translate(operation, result, expected);
  const expired = undo ? await runner.expired(pendingBefore) : new Map<string, string>();
  if ([...expired.keys()].some((handoff) => !model.pendingHandoffIds().includes(handoff))) {
    undo!();
    runner.forget(mark);
    learnExpiries(model, runner, expired);
    expected = model.apply(operation);
    observed = runner.translate(operation, result, expected);
  } else {
    learnExpiries(model, runner, expired);
  }
  compare(`what ${operation.op} returned`, expected, observed, script);
  if (observe) await compareThreads(model, runner, [threadChangedBy(model, operation)], script);
  return observed;
}

function learnExpiries(model: LineageModel, runner: ServiceRunner, expired: Map<string, string>): void {
  for (const [handoff, replacement] of expired) runner.learned(model.expire(handoff), replacement);
}

async function compareThreads(
  model: LineageModel,
  runner: ServiceRunner,
  threads: string[],
  script: Operation[],
): Promise<void> {
  for (;;) {
    const state = await runner.observe(threads);
    const agree = threads.every((thread) => isDeepStrictEqual(model.observe(thread), state[thread]));
    // A handoff may have expired since the last operation: learn it and read the threads again.
    const expired = agree ? new Map<string, string>() : await runner.expired(model.pendingHandoffIds());
    if (expired.size === 0) {
      for (const thread of threads)
        compare(`the state of thread ${thread}`, model.observe(thread), state[thread], script);
      return;
    }
    learnExpiries(model, runner, expired);
  }
}

/**
 * The one thread whose state an operation can change (every operation changes at most one), so
 * that only it needs reading back at once; the end of a sequence reads back every thread.
 */
function threadChangedBy(model: LineageModel, operation: Operation): string {
  switch (operation.op) {
    case 'createThread':
    case 'startRun':
    case 'planRun':
    case 'rollbackThread':
      return operation.thread;
    case 'completeRun':
    case 'failRun':
    case 'reportResumeFailure':
      return model.runInfo(operation.run).thread;
    case 'bindProviderThread':
    case 'confirmProviderRollback':
    case 'reportProviderRollbackFailure':
      return model.providerThreadInfo(operation.providerThread).thread;
    case 'forkThread':
      return model.threadIds().includes(operation.fork) ? operation.fork : operation.source;
    case 'mergeBack':
      return operation.fork;
    case 'spawnSubagent':
      return model.threadIds().includes(operation.child) ? operation.child : model.runInfo(operation.parentRun).thread;
    case 'completeSubagent':
      return model.threadInfo(operation.child).parent!;
    case 'regenerateHandoff':
    case 'submitHandoffSummary':
      return model.handoffInfo(operation.handoff).thread;
  }
}

function compare(what: string, expected: unknown, observed: unknown, script: Operation[]): void {
  if (isDeepStrictEqual(expected, observed)) return;
  const details = differences(expected, observed, '').slice(0, 12).join('\n');
  throw new SequenceFailure(
    failureReport(
      script,
      `the model and the service disagree on ${what}`,
      `${details}\n\nexpected (model):\n${JSON.stringify(expected)}\nobserved (service):\n${JSON.stringify(observed)}`,
    ),
  );
}

function failureReport(script: Operation[], headline: string, details: string): string {
  const steps = script
    .map((operation, index) => `  ${String(index + 1).padStart(2)}. ${describeOperation(operation)}`)
    .join('\n');
  return [
    `After operation ${script.length} (${describeOperation(script[script.length - 1]!)}), ${headline}:`,
    details,
    '',
    'Operations:',
    steps,
    '',
    'Replay: save this JSON to a file and run `npm run fuzz -- --replay <file>`:',
    JSON.stringify(script),
  ].join('\n');
}

/** Paths where two JSON-like values differ, e.g. `.plan.decision: expected "DELTA_HANDOFF", observed "FULL_HANDOFF_NEW"`. */
function differences(expected: unknown, observed: unknown, path: string): string[] {
  if (isDeepStrictEqual(expected, observed)) return [];
  const bothObjects =
    typeof expected === 'object' && expected !== null && typeof observed === 'object' && observed !== null;
  if (
    !bothObjects ||
    Array.isArray(expected) !== Array.isArray(observed) ||
    (Array.isArray(expected) && expected.length !== (observed as unknown[]).length)
  ) {
    return [`${path || '.'}: expected ${JSON.stringify(expected)}, observed ${JSON.stringify(observed)}`];
  }
  const keys = new Set([...Object.keys(expected), ...Object.keys(observed)]);
  return [...keys].flatMap((key) =>
    differences(
      (expected as any)[key],
      (observed as any)[key],
      Array.isArray(expected) ? `${path}[${key}]` : `${path}.${key}`,
    ),
  );
}
