// The whole product at each size (issue 15): every startRun decision kind, each followed by
// completeRun, a resume failure, rollbacks, forks and a fork's first run, and what a UI reads (the
// viewer's first paint, coverage, the coverage matrix, the analytics), all through the service.
//
// A write changes the thread it writes to, so every round must start from the same state. Each
// write case has a seeded thread of its own kind (a copy of the read thread's history, or one whose
// ending owes the other provider a full summary) and puts it back after every round: it rolls back
// to the seeded head and confirms the native rollbacks (codex and claude roll back natively), after
// which the planner decides the same kind again; the sanity pass checks that once before timing,
// and every round checks the decision it got. Forks are new threads each round. The rollback to an
// early run cannot be undone, so it uses up one seeded copy per round.
import type { Driver } from 'neo4j-driver';
import type { PlannerSettings } from '../src/domain/planner.js';
import type { ProviderDefinition } from '../src/domain/providers.js';
import { runAnalyticsQuery, type AnalyticsWindow } from '../src/operations/analytics.js';
import { anyRow } from '../src/graph/rows.js';
import type { OperationContext } from '../src/operations/context.js';
import { describePlan, type Api, type PlanInput, type PlanView, type RollbackView, type StartedRun } from './api.js';
import type { Case, Stats, StepTimer } from './measure.js';
import { seedThread, TENANT } from './seed.js';
import { THREAD_INDEX_QUERY } from '../src/viewer/queries.js';
import { drawnOrdinals, viewerFirstPaint } from './viewerFirstPaint.js';

export const EARLY_ROLLBACK_ORDINAL = 5;
/** Runs seeded per size for the early rollback's copies, one copy per round; never fewer than MIN_EARLY_ROUNDS copies. */
const EARLY_ROLLBACK_RUN_BUDGET = 20_000;
const MIN_EARLY_ROUNDS = 3;

/** Every operation measured at each size; the timings are named "<operation> <size>". */
export const OP = {
  startNoHandoff: 'startRun NO_HANDOFF',
  completeNoHandoff: 'completeRun after NO_HANDOFF',
  rollbackHead: 'rollbackThread to head-1',
  startDelta: 'startRun DELTA_HANDOFF',
  completeDelta: 'completeRun after DELTA_HANDOFF',
  startFullNew: 'startRun FULL_HANDOFF_NEW',
  completeFullNew: 'completeRun after FULL_HANDOFF_NEW',
  startFullExisting: 'startRun FULL_HANDOFF_EXISTING',
  completeFullExisting: 'completeRun after FULL_HANDOFF_EXISTING',
  startBeforeFailure: 'startRun before a resume failure',
  resumeFailure: 'reportResumeFailure',
  completeAfterFailure: 'completeRun after reportResumeFailure',
  fork: 'forkThread from the head',
  forkNative: "fork's first run, native",
  completeForkNative: 'completeRun after the native first run',
  forkPortable: "fork's first run, portable",
  completeForkPortable: 'completeRun after the portable first run',
  rollbackEarly: `rollbackThread to run ${EARLY_ROLLBACK_ORDINAL}`,
  viewer: "viewer's first paint",
  coverageHead: 'ProviderThread.coverage, head provider thread',
  coverageOwed: 'ProviderThread.coverage, provider thread owed a delta',
  matrix: 'Thread.coverageMatrix',
  previewDelta: 'previewRun DELTA_HANDOFF',
  previewFull: 'previewRun FULL_HANDOFF_NEW',
  threadIndex: 'thread index page',
  crossProvider: 'analytics.crossProvider',
  staleness: 'analytics.staleness',
  provenance: 'analytics.summaryProvenance',
  coverageGaps: 'analytics coverage-gaps',
  lineageTree: 'analytics lineage-tree',
  handoffChains: 'analytics longest-handoff-chains',
} as const;
export type OperationId = keyof typeof OP;

/** The analytics: not targets, and at 100,000 runs seconds a sample (see PreparedProduct.heavyCases). */
const ANALYTICS: ReadonlySet<OperationId> = new Set([
  'crossProvider',
  'staleness',
  'provenance',
  'coverageGaps',
  'lineageTree',
  'handoffChains',
]);

/** The rounds that time several operations; a read is a case of its own, named like its operation. */
const ROUND = {
  noHandoff: 'NO_HANDOFF round',
  fullNew: 'FULL_HANDOFF_NEW and resume-failure round',
  delta: 'DELTA_HANDOFF round',
  fullExisting: 'FULL_HANDOFF_EXISTING round',
  forks: 'fork round',
  early: 'early rollback round',
} as const;

/** The seeded threads a size gets; `read` is the one bench/run.ts seeds for the planner's cases. */
export type SeededThreadRole = 'read' | 'switch' | 'delta' | 'full' | 'early copies';

export interface OperationSpec {
  id: OperationId;
  name: string;
  about: string;
  thread: SeededThreadRole;
  /** The case that times it, whose errors it shares. */
  caseName: string;
}

export interface ReadThread {
  threadId: string;
  /** The server-side time window its seeding wrote in: the analytics window of this size. */
  window: AnalyticsWindow;
}

export interface ProductInput {
  api: Api;
  driver: Driver;
  database: string;
  context: OperationContext;
  /** The seeded threads' main provider (the last one) and the other one (owed a handoff). */
  providers: [ProviderDefinition, ProviderDefinition];
  planner: PlannerSettings;
  sizes: number[];
  iterations: number;
  prefix: string;
  read: Map<number, ReadThread>;
  log: (line: string) => void;
}

export interface RelationshipCount {
  total: number;
  perRun: number;
  byType: Record<string, number>;
}

export interface PreparedProduct {
  operations: OperationSpec[];
  cases: Case[];
  /**
   * The cases one sample of which takes seconds on the largest thread: the analytics (not targets)
   * and the rollback to run 5. They are measured in a loop of their own after `cases`, so that their
   * work (in the service process the bench shares and in Neo4j) does not land on the targets' samples.
   */
  heavyCases: Case[];
  sanity: Record<string, string>;
  earlyRounds: Record<number, number>;
  viewer: { runsSelection: string; schemaHasRunsWindow: boolean };
  relationships: Record<number, RelationshipCount>;
  seedSeconds: number;
}

interface ExpectedPlan {
  decision: string;
  action: string;
}

class UnexpectedPlan extends Error {
  readonly code = 'UNEXPECTED_PLAN';
}

function expectPlan(plan: PlanView, expected: ExpectedPlan, what: string): void {
  if (plan.decision !== expected.decision || plan.providerThreadAction !== expected.action) {
    throw new UnexpectedPlan(`${what}: expected ${expected.decision}/${expected.action}, got ${describePlan(plan)}`);
  }
}

const key = (name: string, size: number) => `${name} ${size}`;
const untimed: StepTimer = (_name, work) => work();

/**
 * A seeded thread that a write case changes and puts back: whatever a round got to, restore() ends
 * a run it left running, rolls back to the seeded head and confirms the native rollbacks.
 */
class CycledThread {
  private running: string | null = null;
  private changed = false;

  constructor(
    private readonly api: Api,
    readonly id: string,
    readonly head: number,
  ) {}

  async start(
    step: StepTimer,
    name: string,
    input: Omit<PlanInput, 'threadId'>,
    expected: ExpectedPlan,
  ): Promise<StartedRun> {
    this.changed = true;
    const started = await step(name, () =>
      this.api.startRun({ ...input, threadId: this.id, userMessage: 'bench round' }),
    );
    this.running = started.run.id;
    expectPlan(started.plan, expected, name);
    return started;
  }

  async reportResumeFailure(step: StepTimer, name: string, runId: string, expected: ExpectedPlan): Promise<void> {
    const replanned = await step(name, () => this.api.reportResumeFailure(runId));
    expectPlan(replanned.plan, expected, name);
  }

  async complete(step: StepTimer, name: string, runId: string): Promise<void> {
    await step(name, () => this.api.completeRun(runId));
    this.running = null;
  }

  /** The rollback to the seeded head, for a case that times it; restore() then only confirms. */
  async rollBack(): Promise<RollbackView> {
    const rolledBack = await this.api.rollbackThread(this.id, this.head);
    this.changed = false;
    return rolledBack;
  }

  async restore(rolledBack?: RollbackView): Promise<void> {
    if (this.running) {
      await this.api.failRun(this.running);
      this.running = null;
    }
    const settled = this.changed ? await this.rollBack() : rolledBack;
    for (const entry of settled?.providerThreads ?? []) {
      if (entry.action === 'ROLLED_BACK') await this.api.confirmProviderRollback(entry.providerThread.id);
    }
  }
}

function productOperations(main: string, other: string): OperationSpec[] {
  const op = (id: OperationId, thread: SeededThreadRole, round: string | null, about: string): OperationSpec => ({
    id,
    name: OP[id],
    about,
    thread,
    caseName: round ?? OP[id],
  });
  return [
    op('startNoHandoff', 'switch', ROUND.noHandoff, `${main}, the last provider: reuses its provider thread`),
    op('completeNoHandoff', 'switch', ROUND.noHandoff, 'completes that run'),
    op('rollbackHead', 'switch', ROUND.noHandoff, 'withdraws that one run again (then confirmProviderRollback)'),
    op(
      'startDelta',
      'delta',
      ROUND.delta,
      `${other}, owed a delta of the last runs by the seed: resumes its provider thread`,
    ),
    op('completeDelta', 'delta', ROUND.delta, 'completes that run'),
    op(
      'startFullNew',
      'switch',
      ROUND.fullNew,
      `${other} with cleanContext: true: a new provider thread and a full summary`,
    ),
    op('completeFullNew', 'switch', ROUND.fullNew, 'completes that run'),
    op(
      'startFullExisting',
      'full',
      ROUND.fullExisting,
      `${other}, whose provider thread missed runs of three provider threads (the seed's last two ${main} runs asked for a clean context; maxDeltaSourceThreads is 2): resumes it with a full summary`,
    ),
    op('completeFullExisting', 'full', ROUND.fullExisting, 'completes that run'),
    op(
      'startBeforeFailure',
      'switch',
      ROUND.fullNew,
      `${other} again after FULL_HANDOFF_NEW: resumes the provider thread it just created (NO_HANDOFF/REUSE)`,
    ),
    op(
      'resumeFailure',
      'switch',
      ROUND.fullNew,
      'that resume failed: the run moves to a new provider thread with a full summary',
    ),
    op('completeAfterFailure', 'switch', ROUND.fullNew, 'completes the moved run'),
    op('fork', 'delta', ROUND.forks, 'a fork from the newest stable run'),
    op(
      'forkNative',
      'delta',
      ROUND.forks,
      `${main} on the fork: its source provider thread is bound (bindProviderThread), so NATIVE_FORK`,
    ),
    op('completeForkNative', 'delta', ROUND.forks, 'completes that run'),
    op(
      'forkPortable',
      'delta',
      ROUND.forks,
      `${other} on a second fork: a new provider thread with portable context (a full summary)`,
    ),
    op('completeForkPortable', 'delta', ROUND.forks, 'completes that run'),
    op(
      'rollbackEarly',
      'early copies',
      ROUND.early,
      `withdraws every run after run ${EARLY_ROLLBACK_ORDINAL} of a fresh copy of the thread`,
    ),
    op(
      'viewer',
      'read',
      null,
      'what the lineage viewer reads before it first draws (loadThread of src/viewer/load.ts): the thread with its newest window of runs, then the links of that window (handoffs, transfers, forks, subagents, provider threads with their coverage of it)',
    ),
    op(
      'coverageHead',
      'read',
      null,
      `ranges, counts, handoffs and the default ordinal lists of the ${main} provider thread that served the head, over the ordinals the viewer's first paint draws (its newest 200 runs)`,
    ),
    op('coverageOwed', 'read', null, `the same for the ${other} provider thread`),
    op(
      'matrix',
      'read',
      null,
      `the first page: 50 runs from ordinal 1, a cell for each of the first ${MATRIX_COLUMNS} provider threads (the same page at every size: a thread of 1,000 runs has about 28)`,
    ),
    op('previewDelta', 'read', null, `Query.previewRun for ${other}: the delta startRun would send, not written`),
    op(
      'previewFull',
      'read',
      null,
      `Query.previewRun for ${other} with cleanContext: true: the full summary startRun would send, not written`,
    ),
    op(
      'threadIndex',
      'read',
      null,
      "the thread index's first page (Query.threads, as GET / asks it): the tenant's newest 25 threads, the same store at every size",
    ),
    op('crossProvider', 'read', null, 'Query.analytics over the time window the size was seeded in'),
    op('staleness', 'read', null, 'Query.analytics over the same window'),
    op('provenance', 'read', null, 'Query.analytics over the same window'),
    op('coverageGaps', 'read', null, 'cypher/analytics/coverage-gaps.cypher for the thread, through runAnalyticsQuery'),
    op('lineageTree', 'read', null, 'cypher/analytics/lineage-tree.cypher for the thread'),
    op('handoffChains', 'read', null, 'cypher/analytics/longest-handoff-chains.cypher for the thread'),
  ];
}

const COVERAGE = `query Coverage($id: ID!, $from: Int!, $to: Int!) { providerThread(id: $id) { coverage(fromOrdinal: $from, toOrdinal: $to) {
  providerThreadId nativeRanges { from to } handoffRanges { from to } missingRanges { from to }
  nativeRunCount missingRunCount coveredThroughOrdinal handoffIds nativeRunOrdinals missingRunOrdinals } } }`;
/** Columns of the measured matrix page: fewer than the smallest measured thread has, so every size answers the same page. */
const MATRIX_COLUMNS = 20;
const MATRIX = `query Matrix($id: ID!) { thread(id: $id) { coverageMatrix(columns: ${MATRIX_COLUMNS}) {
  providerThreads { id provider status } rows { ordinal run { id provider status } cells { providerThreadId kind } } hasNextPage nextFromOrdinal } } }`;
const PREVIEW = `query Preview($input: PlanRunInput!) { previewRun(input: $input) {
  plan { decision providerThreadAction coveredRunOrdinals { from to } } providerThreadAction nativeThreadRef delivery context pendingWriter } }`;
const CROSS_PROVIDER = `query CrossProvider($from: DateTime!, $to: DateTime!) { analytics(from: $from, to: $to) { crossProvider {
  fromProvider toProvider switches handoffs deltaShare fullShare checkpointShare manualShare meanRunsCovered returns resumed recreated medianLength medianBudgetChars medianBudgetUse } } }`;
const STALENESS = `query Staleness($from: DateTime!, $to: DateTime!) { analytics(from: $from, to: $to) { staleness { provider signal runs threads providerRuns rate } } }`;
const PROVENANCE = `query Provenance($from: DateTime!, $to: DateTime!) { analytics(from: $from, to: $to) { summaryProvenance {
  source createdByProvider handoffs superseded supersededRate withdrawnByRollback failed failedRate pending meanOmissions totalOmissions } } }`;

const RELATIONSHIPS = `
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
CALL (thread) {
  MATCH (thread)-[r]->() RETURN type(r) AS type, count(r) AS n
  UNION ALL
  MATCH (run:Run {tenant: $tenant, threadId: thread.id})-[r]->() WHERE run.ordinal IS NOT NULL RETURN type(r) AS type, count(r) AS n
  UNION ALL
  MATCH (thread)-[:HAS_PROVIDER_THREAD]->(:ProviderThread)-[r]->() RETURN type(r) AS type, count(r) AS n
  UNION ALL
  MATCH (:ContextHandoff {tenant: $tenant, threadId: thread.id})-[r]->() RETURN type(r) AS type, count(r) AS n
  UNION ALL
  MATCH (:ContextTransfer {tenant: $tenant, sourceThreadId: thread.id})-[r]->() RETURN type(r) AS type, count(r) AS n
}
RETURN type, sum(n) AS relationships ORDER BY type`;

/**
 * The relationships a thread's own nodes start (facts and checkpoints start none), by type: what the
 * thread adds to the store's relationship count, counted in a store shared with other data.
 */
async function countRelationships(
  driver: Driver,
  database: string,
  threadId: string,
  runs: number,
): Promise<RelationshipCount> {
  const result = await driver.executeQuery(RELATIONSHIPS, { tenant: TENANT, threadId }, { database });
  const byType = Object.fromEntries(
    result.records.map((record) => [String(record.get('type')), Number(record.get('relationships'))]),
  );
  const total = Object.values(byType).reduce((a, b) => a + b, 0);
  return { total, perRun: Math.round((total / runs) * 1000) / 1000, byType };
}

export async function prepareProduct(input: ProductInput): Promise<PreparedProduct> {
  const { api, sizes, prefix, log } = input;
  const [main, other] = [input.providers[0].id, input.providers[1].id];
  const operations = productOperations(main, other);
  const started = performance.now();
  const seed = (threadId: string, size: number, owed: 'delta' | 'full-existing' = 'delta') =>
    seedThread(input.driver, input.database, {
      threadId,
      size,
      providers: input.providers,
      planner: input.planner,
      owed,
    });

  const earlyRounds: Record<number, number> = {};
  const liveRuns = new Map<number, number>();
  const threads = new Map<
    number,
    { switchThread: CycledThread; delta: CycledThread; full: CycledThread; copies: string[] }
  >();
  for (const size of sizes) {
    log(`seeding the write cases' threads of ${size} runs`);
    const ids = {
      switchThread: `${prefix}-${size}-switch`,
      delta: `${prefix}-${size}-delta`,
      full: `${prefix}-${size}-full`,
    };
    await seed(ids.switchThread, size);
    await seed(ids.delta, size);
    await seed(ids.full, size, 'full-existing');
    earlyRounds[size] = Math.min(
      input.iterations,
      Math.max(MIN_EARLY_ROUNDS, Math.floor(EARLY_ROLLBACK_RUN_BUDGET / size)),
    );
    const copies = Array.from({ length: earlyRounds[size] }, (_, k) => `${prefix}-${size}-early-${k}`);
    // The seed's own rollbacks come after run EARLY_ROLLBACK_ORDINAL: the rollback withdraws every live run above it.
    for (const copy of copies) liveRuns.set(size, (await seed(copy, size)).liveRuns);
    log(`  ${size} runs: switch, delta and full threads and ${copies.length} copies for the early rollback`);
    threads.set(size, {
      switchThread: new CycledThread(api, ids.switchThread, size),
      delta: new CycledThread(api, ids.delta, size),
      full: new CycledThread(api, ids.full, size),
      copies,
    });
  }
  const seedSeconds = (performance.now() - started) / 1000;

  const viewer = viewerFirstPaint();
  const cases: Case[] = [];
  const heavyCases: Case[] = [];
  const sanity: Record<string, string> = {};
  const relationships: Record<number, RelationshipCount> = {};
  for (const size of sizes) {
    const { switchThread, delta, full, copies } = threads.get(size)!;
    const read = input.read.get(size)!;
    const name = (id: OperationId) => key(OP[id], size);

    // The delta thread's head provider thread gets a native id, which a native fork needs.
    const forkSource = await api.planRun({ threadId: delta.id, provider: main });
    expectPlan(forkSource, { decision: 'NO_HANDOFF', action: 'REUSE' }, `${size} fork source`);
    await api.bindProviderThread(forkSource.providerThread!.id, `bench-native-${forkSource.providerThread!.id}`);

    const noHandoff: Case = {
      name: key(ROUND.noHandoff, size),
      run: async (step) => {
        let rolledBack: RollbackView | undefined;
        try {
          const run = await switchThread.start(
            step,
            name('startNoHandoff'),
            { provider: main },
            { decision: 'NO_HANDOFF', action: 'REUSE' },
          );
          await switchThread.complete(step, name('completeNoHandoff'), run.run.id);
          rolledBack = await step(name('rollbackHead'), () => switchThread.rollBack());
          if (rolledBack.rolledBackRunCount !== 1)
            throw new Error(`${name('rollbackHead')} rolled back ${rolledBack.rolledBackRunCount} runs, not 1`);
        } finally {
          await switchThread.restore(rolledBack);
        }
      },
    };
    const deltaRound: Case = {
      name: key(ROUND.delta, size),
      run: async (step) => {
        try {
          const run = await delta.start(
            step,
            name('startDelta'),
            { provider: other },
            { decision: 'DELTA_HANDOFF', action: 'RESUME' },
          );
          await delta.complete(step, name('completeDelta'), run.run.id);
        } finally {
          await delta.restore();
        }
      },
    };
    const fullNewAndResumeFailure: Case = {
      name: key(ROUND.fullNew, size),
      run: async (step) => {
        try {
          const fresh = await switchThread.start(
            step,
            name('startFullNew'),
            { provider: other, cleanContext: true },
            { decision: 'FULL_HANDOFF_NEW', action: 'CREATE' },
          );
          await switchThread.complete(step, name('completeFullNew'), fresh.run.id);
          const resumed = await switchThread.start(
            step,
            name('startBeforeFailure'),
            { provider: other },
            { decision: 'NO_HANDOFF', action: 'REUSE' },
          );
          await switchThread.reportResumeFailure(step, name('resumeFailure'), resumed.run.id, {
            decision: 'FULL_HANDOFF_NEW',
            action: 'CREATE',
          });
          await switchThread.complete(step, name('completeAfterFailure'), resumed.run.id);
        } finally {
          await switchThread.restore();
        }
      },
    };
    const fullExisting: Case = {
      name: key(ROUND.fullExisting, size),
      run: async (step) => {
        try {
          const run = await full.start(
            step,
            name('startFullExisting'),
            { provider: other },
            { decision: 'FULL_HANDOFF_EXISTING', action: 'RESUME' },
          );
          await full.complete(step, name('completeFullExisting'), run.run.id);
        } finally {
          await full.restore();
        }
      },
    };
    const forks: Case = {
      name: key(ROUND.forks, size),
      run: async (step) => {
        const nativeFork = await step(name('fork'), () => api.forkThread(delta.id));
        const native = await step(name('forkNative'), () =>
          api.startRun({ threadId: nativeFork, provider: main, userMessage: 'bench fork' }),
        );
        expectPlan(native.plan, { decision: 'NO_HANDOFF', action: 'NATIVE_FORK' }, name('forkNative'));
        await step(name('completeForkNative'), () => api.completeRun(native.run.id));
        const portableFork = await api.forkThread(delta.id);
        const portable = await step(name('forkPortable'), () =>
          api.startRun({ threadId: portableFork, provider: other, userMessage: 'bench fork' }),
        );
        expectPlan(portable.plan, { decision: 'FULL_HANDOFF_NEW', action: 'CREATE' }, name('forkPortable'));
        await step(name('completeForkPortable'), () => api.completeRun(portable.run.id));
      },
    };
    let nextCopy = 0;
    const earlyRollback: Case = {
      name: key(ROUND.early, size),
      rounds: copies.length,
      run: async (step) => {
        const copy = copies[nextCopy++];
        if (copy === undefined) throw new Error(`${name('rollbackEarly')}: no seeded copy left`);
        const rolledBack = await step(name('rollbackEarly'), () => api.rollbackThread(copy, EARLY_ROLLBACK_ORDINAL));
        const expected = liveRuns.get(size)! - EARLY_ROLLBACK_ORDINAL;
        if (rolledBack.rolledBackRunCount !== expected)
          throw new Error(
            `${name('rollbackEarly')} rolled back ${rolledBack.rolledBackRunCount} runs, not ${expected}`,
          );
      },
    };

    // Sanity: one untimed round of each restoring case, then the planner must decide as before it.
    const again = async (
      label: string,
      round: Case,
      threadId: string,
      plan: Omit<PlanInput, 'threadId'>,
      expected: ExpectedPlan,
    ) => {
      const before = await api.planRun({ ...plan, threadId });
      expectPlan(before, expected, `${size} ${label} before a round`);
      await round.run(untimed);
      const after = await api.planRun({ ...plan, threadId });
      expectPlan(after, expected, `${size} ${label} after a round`);
      sanity[`${size} ${label}`] = `${describePlan(before)}; after a round and its restore: ${describePlan(after)}`;
    };
    await again(
      'NO_HANDOFF',
      noHandoff,
      switchThread.id,
      { provider: main },
      { decision: 'NO_HANDOFF', action: 'REUSE' },
    );
    await again(
      'DELTA_HANDOFF',
      deltaRound,
      delta.id,
      { provider: other },
      { decision: 'DELTA_HANDOFF', action: 'RESUME' },
    );
    await again(
      'FULL_HANDOFF_NEW',
      fullNewAndResumeFailure,
      switchThread.id,
      { provider: other, cleanContext: true },
      { decision: 'FULL_HANDOFF_NEW', action: 'CREATE' },
    );
    await again(
      'FULL_HANDOFF_EXISTING',
      fullExisting,
      full.id,
      { provider: other },
      { decision: 'FULL_HANDOFF_EXISTING', action: 'RESUME' },
    );
    // The NO_HANDOFF round again after the others: they must have left its provider thread as it was.
    await again(
      'NO_HANDOFF after the other rounds',
      noHandoff,
      switchThread.id,
      { provider: main },
      { decision: 'NO_HANDOFF', action: 'REUSE' },
    );
    await forks.run(untimed);
    sanity[`${size} forks`] = `native first run and portable first run as expected, from ${delta.id}`;

    const head = (await api.planRun({ threadId: read.threadId, provider: main })).providerThread!.id;
    const owed = (await api.planRun({ threadId: read.threadId, provider: other })).providerThread!.id;
    const windowVariables = { from: read.window.from, to: read.window.to };
    const drawn = await drawnOrdinals(api, read.threadId);
    const reads: [OperationId, () => Promise<unknown>][] = [
      ['viewer', () => viewer.paint(api, read.threadId)],
      ['coverageHead', () => api.request(COVERAGE, { id: head, ...drawn })],
      ['coverageOwed', () => api.request(COVERAGE, { id: owed, ...drawn })],
      ['matrix', () => api.request(MATRIX, { id: read.threadId })],
      ['previewDelta', () => api.request(PREVIEW, { input: { threadId: read.threadId, provider: other } })],
      [
        'previewFull',
        () => api.request(PREVIEW, { input: { threadId: read.threadId, provider: other, cleanContext: true } }),
      ],
      ['threadIndex', () => api.request(THREAD_INDEX_QUERY, {})],
      ['crossProvider', () => api.request(CROSS_PROVIDER, windowVariables)],
      ['staleness', () => api.request(STALENESS, windowVariables)],
      ['provenance', () => api.request(PROVENANCE, windowVariables)],
      [
        'coverageGaps',
        () => runAnalyticsQuery(input.context.graph, 'coverage-gaps', { threadId: read.threadId, limit: 100 }, anyRow),
      ],
      [
        'lineageTree',
        () => runAnalyticsQuery(input.context.graph, 'lineage-tree', { threadId: read.threadId, limit: 200 }, anyRow),
      ],
      [
        'handoffChains',
        () =>
          runAnalyticsQuery(
            input.context.graph,
            'longest-handoff-chains',
            { threadId: read.threadId, limit: 20 },
            anyRow,
          ),
      ],
    ];
    for (const [id, work] of reads) {
      await work();
      (ANALYTICS.has(id) ? heavyCases : cases).push({ name: name(id), run: async () => void (await work()) });
    }
    cases.push(noHandoff, deltaRound, fullNewAndResumeFailure, fullExisting, forks);
    heavyCases.push(earlyRollback);
    relationships[size] = await countRelationships(input.driver, input.database, read.threadId, size);
  }
  return {
    operations,
    cases,
    heavyCases,
    sanity,
    earlyRounds,
    viewer: { runsSelection: viewer.runsSelection, schemaHasRunsWindow: viewer.schemaHasRunsWindow },
    relationships,
    seedSeconds,
  };
}

/** The figures of one operation at every size, from the interleaved latencies. */
export function operationStats(
  operation: OperationSpec,
  sizes: number[],
  latency: Record<string, Stats>,
): { bySize: Record<number, Stats | null>; errors: Record<string, number> | null } {
  const bySize: Record<number, Stats | null> = {};
  let errors: Record<string, number> | null = null;
  for (const size of sizes) {
    bySize[size] = latency[key(operation.name, size)] ?? null;
    const caseErrors = latency[key(operation.caseName, size)]?.errors;
    if (caseErrors)
      errors = {
        ...(errors ?? {}),
        ...Object.fromEntries(Object.entries(caseErrors).map(([code, count]) => [`${size}: ${code}`, count])),
      };
  }
  return { bySize, errors };
}
