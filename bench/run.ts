// `npm run bench`: what the product costs as a thread grows, every case measured at every size side
// by side in one run. See docs/benchmarks.md for what it measures and the latest figures.
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import neo4j, { type Driver, type ProfiledPlan } from 'neo4j-driver';
import { loadConfig } from '../src/config.js';
import {
  decidePlan,
  measurableDeltaRange,
  type Plan,
  type PlannerSettings,
  type PlanningSnapshot,
  rolledBackEndsRead,
} from '../src/domain/planner.js';
import type { ProviderDefinition } from '../src/domain/providers.js';
import { endsOf } from '../src/domain/ranges.js';
import { createDriver, type Neo4jConnection } from '../src/graph/driver.js';
import { chooseNeo4j } from '../src/graph/chooseNeo4j.js';
import type { LocalNeo4j } from '../src/graph/localNeo4j.js';
import { sentCypher } from '../src/graph/queries.js';
import { providerThreadNode, threadNode } from '../src/graph/repositories/mapping.js';
import { loadPlanningSnapshot, planningSnapshotParameters } from '../src/graph/repositories/planning.js';
import { Graph, statementParameters } from '../src/graph/transactions.js';
import { plain } from '../src/graph/values.js';
import type { AnalyticsWindow } from '../src/operations/analytics.js';
import type { OperationContext } from '../src/operations/context.js';
import { readSummaryMaterial, summarize } from '../src/operations/summaries.js';
import { planRun } from '../src/operations/switching.js';
import { startService } from '../src/server/app.js';
import { createLogger } from '../src/server/logger.js';
import { Api, ApiError, describePlan, type PlanView } from './api.js';
import { measureFootprints, type StoreFootprint } from './footprint.js';
import { interleaved, peakRssMiB, stats, type Case, type Stats } from './measure.js';
import { prepareProduct, type PreparedProduct, type ReadThread } from './product.js';
import {
  productSection,
  renderPlannerTables,
  renderProduct,
  referenceSizeOf,
  writeResults,
  type BenchReport,
  type Machine,
  type MemoryPeaks,
  type NaiveAgreement,
  type Ratios,
  type SummaryFigures,
  type ThroughputFigures,
} from './report.js';
import { rateSpreads, seedThread, TENANT, type SeedResult } from './seed.js';
import { CROWD_HEAP, CROWD_PAGE_CACHE, CROWD_THREAD_RUNS, HEAP, PAGE_CACHE, SUMMARY_BUDGET } from './settings.js';
import { measureManyThreads, type ManyThreadsFigures } from './manyThreads.js';

export interface BenchOptions {
  sizes: number[];
  iterations: number;
  warmup: number;
  seconds: number;
  /** Use this Neo4j instead of NEO4J_URI or a local one. */
  neo4j?: Neo4jConnection;
  /** Threads of 100 runs beside the measured small one (bench/manyThreads.ts); 0 or unset: not measured. */
  manyThreads?: number;
  /** Write bench/results/<timestamp>.json and docs/benchmarks.md (off for the smoke test). */
  write: boolean;
  log: (line: string) => void;
}

/** What every step works with: the service under test, the graph behind it and this run's threads. */
interface Bench {
  driver: Driver;
  database: string;
  api: Api;
  context: OperationContext;
  planner: PlannerSettings;
  /** The seeded threads' main provider (the last one) and the other one (owed a handoff). */
  providers: [ProviderDefinition, ProviderDefinition];
  /** Prefix of every thread this run creates. */
  run: string;
  log: (line: string) => void;
}

/** One planRun the planner's cases time: a provider asked for on the read thread of one size. */
interface PlanCase {
  size: number;
  label: string;
  /** `<size> <label>`: names its decision, its db hits and (after the kind of timing) its timings. */
  key: string;
  threadId: string;
  provider: string;
  runtimeMode: string | null;
  cleanContext: boolean;
}

/** The names of the planner's timings, which ratios() reads back. */
const TIMING = {
  httpFloor: 'floor: { __typename } over HTTP',
  boltFloor: 'floor: RETURN 1 over Bolt',
  planRunHttp: (key: string) => `planRun HTTP ${key}`,
  planRunInProcess: (key: string) => `planRun in-process ${key}`,
  snapshot: (key: string) => `snapshot Cypher Bolt ${key}`,
  naive: (key: string) => `naive ${key}`,
  fullSummary: (size: number) => `full summary ${size}`,
};

/** Each throughput case: its name, its concurrent orchestrators, and whether they share one thread. */
const THROUGHPUT = [
  ['1 orchestrator', 1, false],
  ['4 orchestrators', 4, false],
  ['16 orchestrators', 16, false],
  ['16 on one thread', 16, true],
] as const;

/** Not bench/seed.ts's SEEDED_RUNTIME_MODE: asking for it makes the seeded provider threads stale. */
const STALE_RUNTIME_MODE = 'read-only';

export async function main(options: BenchOptions): Promise<BenchReport> {
  const { sizes } = options;
  const { bench, local, close } = await openBench(options);
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg()[0]!;
  let measured: Omit<BenchReport, 'product'>;
  let prepared: PreparedProduct;
  try {
    const { seeding, read } = await seed(bench, sizes);
    const cases = planCases(bench, sizes);
    const decisions = await sanity(bench, cases);
    prepared = await product(bench, options, read);
    const naiveBefore = await naiveBaseline(bench, cases);
    const latency = await measureLatency(bench, cases, prepared, options);
    // Agreement again after the timings (the naive baseline is checked on every case it was timed on).
    const naiveAfter = await naiveBaseline(bench, cases);
    const summaries = await summaryLengths(bench, sizes);
    const { dbHits, profiles } = await profileSnapshots(bench, cases, sizes[sizes.length - 1]!);
    const throughput = await measureThroughput(bench, options.seconds);
    const memory = peakMemory(local);
    const figures = {
      startedAt,
      options: { sizes, iterations: options.iterations, warmup: options.warmup, seconds: options.seconds },
      seeding,
      decisions,
      latency,
      naive: {
        agreements: naiveBefore.agreements + naiveAfter.agreements,
        disagreements: [...naiveBefore.disagreements, ...naiveAfter.disagreements],
      },
      summaries,
      dbHits,
      profiles,
      throughput,
      memory,
      machine: await describeMachine(bench, local, loadAtStart),
    };
    measured = { ...figures, ratios: ratios(figures, sizes, cases) };
  } finally {
    await close();
  }
  const stores = await footprint(bench, local, sizes);
  const manyThreads = await crowd(bench, local, options);
  return report(
    { ...measured, product: productSection(prepared, sizes, measured.latency, stores), manyThreads },
    options,
  );
}

/** The Neo4j to measure, the service started in-process on it, and what the steps use of both. */
async function openBench(
  options: BenchOptions,
): Promise<{ bench: Bench; local: LocalNeo4j | null; close: () => Promise<void> }> {
  const neo4jInUse = options.neo4j
    ? { connection: options.neo4j, local: null, close: () => Promise.resolve() }
    : await chooseNeo4j(loadConfig(process.env).neo4j, {
        start: 'throwaway',
        storePrefix: 'threadline-bench-',
        heap: HEAP,
        pageCache: PAGE_CACHE,
        progress: options.log,
      });
  const { connection, local } = neo4jInUse;
  const driver = createDriver(connection);
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  const service = await startService(
    { ...config, neo4j: { ...config.neo4j, database: connection.database } },
    driver,
    createLogger('silent'),
  );
  const [main, other] = config.providers as [ProviderDefinition, ProviderDefinition];
  const context: OperationContext = {
    graph: new Graph(driver, connection.database, '').forTenant(TENANT),
    providers: new Map(config.providers.map((p) => [p.id, p])),
    planner: config.planner,
    summaries: { policy: config.summaries, summarizers: new Map() },
  };
  const bench: Bench = {
    driver,
    database: connection.database,
    api: new Api(service.url),
    context,
    planner: config.planner,
    providers: [main, other],
    run: `bench-${Date.now().toString(36)}`,
    log: options.log,
  };
  const close = async () => {
    await service.close();
    await driver.close();
    await neo4jInUse.close();
  };
  return { bench, local, close };
}

const readThreadId = (bench: Bench, size: number) => `${bench.run}-${size}`;

/** Seeds one read thread per size, each in a time window of its own for the analytics. */
async function seed(
  bench: Bench,
  sizes: number[],
): Promise<{ seeding: Record<number, SeedResult>; read: Map<number, ReadThread> }> {
  const { driver, database, log } = bench;
  const seeding: Record<number, SeedResult> = {};
  const read = new Map<number, ReadThread>();
  for (const size of sizes) {
    log(`seeding ${size} runs`);
    const from = await serverNow(driver, database);
    const seeded = await seedThread(driver, database, {
      threadId: readThreadId(bench, size),
      size,
      providers: bench.providers,
      planner: bench.planner,
      log,
    });
    const window: AnalyticsWindow = { from, to: await serverNow(driver, database) };
    seeding[size] = seeded;
    read.set(size, { threadId: seeded.threadId, window });
    log(
      `  ${size} runs: ${seeded.providerThreads} provider threads, ${seeded.handoffs} handoffs, ${seeded.rollbacks} rollbacks, ${seeded.coversEdges} COVERS, ${seeded.facts} facts, ${seeded.checkpoints} checkpoints, ${seeded.forks} forks (${seeded.mergeBacks} merged back), ${seeded.subagents} subagents in ${seeded.seconds.toFixed(1)} s (${Math.round(seeded.runsPerSecond)} runs/s)`,
    );
    log(`  ${size} runs, events per 1,000 runs: ${JSON.stringify(seeded.rates)}`);
  }
  // Costs that grow with switches look flat when switches grow slower than runs: such a seed measures nothing.
  const spreads = rateSpreads(seeding);
  if (spreads.length > 0)
    throw new Error(`the seed's events per 1,000 runs differ by more than 10% between sizes: ${spreads.join('; ')}`);
  return { seeding, read };
}

async function serverNow(driver: Driver, database: string): Promise<string> {
  const result = await driver.executeQuery('RETURN toString(datetime()) AS now', {}, { database });
  return String(result.records[0]!.get('now'));
}

/** The planner's cases at each size: the last provider, a delta, a clean context and a stale provider thread. */
function planCases(bench: Bench, sizes: number[]): PlanCase[] {
  const [main, other] = [bench.providers[0].id, bench.providers[1].id];
  const planCase = (
    size: number,
    label: string,
    provider: string,
    runtimeMode: string | null,
    cleanContext: boolean,
  ): PlanCase => ({
    size,
    label,
    key: caseKey(size, label),
    threadId: readThreadId(bench, size),
    provider,
    runtimeMode,
    cleanContext,
  });
  return sizes.flatMap((size) => [
    planCase(size, `${main} (last provider)`, main, null, false),
    planCase(size, `${other} (delta)`, other, null, false),
    planCase(size, `${other} clean context`, other, null, true),
    // Stale from what the graph holds: the target provider thread runs in another mode.
    planCase(size, `${other} stale (mode changed)`, other, STALE_RUNTIME_MODE, false),
  ]);
}

const caseKey = (size: number, label: string) => `${size} ${label}`;

const planOverHttp = (bench: Bench, c: PlanCase) =>
  bench.api.planRun({
    threadId: c.threadId,
    provider: c.provider,
    runtimeMode: c.runtimeMode,
    cleanContext: c.cleanContext,
  });

/** The seeded threads plan sensibly through the real planRun; returns each case's decision. */
async function sanity(bench: Bench, cases: PlanCase[]): Promise<Record<string, string>> {
  const [main, other] = [bench.providers[0].id, bench.providers[1].id];
  const decisions: Record<string, string> = {};
  for (const c of cases) {
    const plan = await planOverHttp(bench, c);
    decisions[c.key] = describePlan(plan);
    if (c.provider === main && !c.cleanContext && plan.providerThreadAction !== 'REUSE')
      throw new Error(`seeded ${c.size}: ${main} should reuse, got ${JSON.stringify(plan)}`);
    if (c.runtimeMode === STALE_RUNTIME_MODE && !plan.stalenessSignals.includes('INCOMPATIBLE_CONFIG'))
      throw new Error(`seeded ${c.size}: ${other} should be stale, got ${JSON.stringify(plan)}`);
    if (
      c.provider === other &&
      !c.cleanContext &&
      !c.runtimeMode &&
      !['DELTA_HANDOFF', 'FULL_HANDOFF_NEW', 'FULL_HANDOFF_EXISTING'].includes(plan.decision)
    )
      throw new Error(`seeded ${c.size}: ${other} should get a handoff, got ${JSON.stringify(plan)}`);
  }
  bench.log(`plans: ${JSON.stringify(decisions)}`);
  return decisions;
}

/** The whole product: its threads, the sanity of its rounds, its cases. */
async function product(bench: Bench, options: BenchOptions, read: Map<number, ReadThread>): Promise<PreparedProduct> {
  const { api, driver, database, context, providers, planner, log } = bench;
  const prepared = await prepareProduct({
    api,
    driver,
    database,
    context,
    providers,
    planner,
    sizes: options.sizes,
    iterations: options.iterations,
    prefix: bench.run,
    read,
    log,
  });
  log(`product: ${JSON.stringify(prepared.sanity)}`);
  return prepared;
}

/** The naive baseline: the whole thread into TypeScript, then the pure decidePlan. */
async function naivePlan(bench: Bench, c: PlanCase): Promise<Plan> {
  const { threadId } = c;
  const session = bench.driver.session({ database: bench.database, defaultAccessMode: neo4j.session.READ });
  try {
    const loaded = await session.executeRead(async (tx) => {
      const thread = await tx.run(`MATCH (t:Thread {tenant: $tenant, id: $threadId}) RETURN t {.*} AS thread`, {
        tenant: TENANT,
        threadId,
      });
      const runs = await tx.run(
        `MATCH (r:Run {tenant: $tenant, threadId: $threadId}) WHERE r.ordinal IS NOT NULL RETURN r.ordinal AS ordinal, r.provider AS provider, r.providerThreadId AS providerThreadId, r.status AS status`,
        { tenant: TENANT, threadId },
      );
      const pts = await tx.run(
        `MATCH (p:ProviderThread {tenant: $tenant, threadId: $threadId}) WHERE p.provider = $provider RETURN p {.*} AS pt ORDER BY p.seq DESC LIMIT 1`,
        { tenant: TENANT, threadId, provider: c.provider },
      );
      const target = pts.records[0] ? (plain(pts.records[0].get('pt')) as Record<string, unknown>) : null;
      const handoffs = await tx.run(
        `MATCH (h:ContextHandoff {tenant: $tenant, threadId: $threadId}) WHERE h.toProviderThreadId = $targetId RETURN h.status AS status, h.transferKind AS kind, h.coveredTo AS coveredTo`,
        { tenant: TENANT, threadId, targetId: target?.id ?? null },
      );
      return {
        thread: plain(thread.records[0]!.get('thread')) as Record<string, unknown>,
        runs: runs.records.map(
          (r) => plain(r.toObject()) as { ordinal: number; provider: string; providerThreadId: string; status: string },
        ),
        target,
        handoffs: handoffs.records.map(
          (r) => plain(r.toObject()) as { status: string; kind: string; coveredTo: number },
        ),
      };
    });
    const runs = loaded.runs.sort((a, b) => a.ordinal - b.ordinal);
    const thread = threadNode.parse(loaded.thread);
    const head = runs.find((r) => r.ordinal === thread.headOrdinal) ?? null;
    const target = loaded.target && providerThreadNode.parse(loaded.target);
    const standing = loaded.handoffs.filter(
      (h) => ['pending', 'ready'].includes(h.status) && ['provider_handoff', 'fork'].includes(h.kind),
    );
    const lastNative = target ? (target.lastRunOrdinal ?? target.inheritedThroughOrdinal ?? 0) : 0;
    const snapshot: PlanningSnapshot = {
      headOrdinal: thread.headOrdinal,
      headProviderThreadId: head?.providerThreadId ?? null,
      rolledBack: endsOf(thread.rolledBack),
      target: target && {
        providerThread: target,
        coveredThroughOrdinal: Math.max(
          target.lastRunOrdinal ?? 0,
          ...standing.map((h) => h.coveredTo),
          target.inheritedThroughOrdinal ?? 0,
        ),
        standingHandoffCount: standing.length,
        runsSinceLastNative: runs
          .filter((r) => r.ordinal > lastNative && r.status !== 'rolled_back')
          .slice(0, bench.planner.maxRunsElsewhere + 1)
          .map((r) => ({ ordinal: r.ordinal, providerThreadId: r.providerThreadId })),
      },
    };
    const request = {
      provider: bench.context.providers.get(c.provider)!,
      model: null,
      runtimeMode: c.runtimeMode,
      cleanContext: c.cleanContext,
    };
    const range = measurableDeltaRange(snapshot, bench.planner);
    let deltaChars: number | null = null;
    if (range) {
      const summaryRequest = {
        threadId,
        title: thread.title,
        range,
        strategy: 'delta_since_target_last_seen' as const,
        targetProvider: c.provider,
        budgetChars: null,
      };
      const source = await bench.context.graph.read((tx) => readSummaryMaterial(tx, thread, summaryRequest));
      deltaChars = summarize(source, summaryRequest).text.length;
    }
    return decidePlan(snapshot, request, deltaChars, bench.planner);
  } finally {
    await session.close();
  }
}

/** The naive baseline against planRun over HTTP on every case: the same decision, provider thread and covered runs. */
async function naiveBaseline(bench: Bench, cases: PlanCase[]): Promise<NaiveAgreement> {
  let agreements = 0;
  const disagreements: string[] = [];
  for (const c of cases) {
    const [mine, theirs]: [Plan, PlanView] = [await naivePlan(bench, c), await planOverHttp(bench, c)];
    const a = `${mine.decision.toUpperCase()}/${mine.providerThreadAction.toUpperCase()}/${mine.providerThreadId ?? theirs.providerThread?.id ?? ''}/${mine.coveredRunOrdinals?.from ?? ''}-${mine.coveredRunOrdinals?.to ?? ''}`;
    const b = `${theirs.decision}/${theirs.providerThreadAction}/${theirs.providerThread?.id ?? ''}/${theirs.coveredRunOrdinals?.from ?? ''}-${theirs.coveredRunOrdinals?.to ?? ''}`;
    if (a === b) agreements++;
    else disagreements.push(`${c.key}: naive ${a} vs planRun ${b}`);
  }
  return { agreements, disagreements };
}

const snapshotParams = (bench: Bench, c: PlanCase) =>
  statementParameters(
    TENANT,
    'planner/snapshot',
    // As planRun reads the thread's rolled-back ranges: by their ends.
    planningSnapshotParameters(
      c.threadId,
      c.provider,
      bench.planner.maxRunsElsewhere + 1,
      rolledBackEndsRead(bench.planner),
    ),
  );

/** A full-thread summary of the read thread of `size` for the other provider, as startRun would write it. */
function fullSummary(bench: Bench, size: number): Promise<{ chars: number; runsRead: number }> {
  const [main, other] = [bench.providers[0].id, bench.providers[1].id];
  const threadId = readThreadId(bench, size);
  return bench.context.graph.read(async (tx) => {
    const loaded = (await loadPlanningSnapshot(tx, threadId, main, bench.planner.maxRunsElsewhere + 1, null))!;
    const range = { from: 1, to: loaded.thread.headOrdinal };
    const summaryRequest = {
      threadId,
      title: loaded.thread.title,
      range,
      strategy: 'full_thread_summary' as const,
      targetProvider: other,
      budgetChars: SUMMARY_BUDGET,
    };
    const source = await readSummaryMaterial(tx, loaded.thread, summaryRequest);
    const text = summarize(source, summaryRequest).text;
    return { chars: text.length, runsRead: source.runs.length };
  });
}

/** Latency, interleaved across every case of every size: the floors, the planner's cases, the full summaries and the product's cases. */
async function measureLatency(
  bench: Bench,
  cases: PlanCase[],
  product: Pick<PreparedProduct, 'cases' | 'heavyCases'>,
  options: BenchOptions,
): Promise<Record<string, Stats>> {
  const snapshotText = sentCypher('planner/snapshot');
  const bolt = bench.driver.session({ database: bench.database, defaultAccessMode: neo4j.session.READ });
  try {
    const timed: Case[] = [
      { name: TIMING.httpFloor, run: async () => void (await bench.api.request('{ __typename }')) },
      { name: TIMING.boltFloor, run: async () => void (await bolt.run('RETURN 1')) },
    ];
    for (const c of cases) {
      timed.push({ name: TIMING.planRunHttp(c.key), run: async () => void (await planOverHttp(bench, c)) });
      timed.push({
        name: TIMING.planRunInProcess(c.key),
        run: async () =>
          void (await planRun(bench.context, {
            threadId: c.threadId,
            provider: c.provider,
            model: null,
            runtimeMode: c.runtimeMode,
            cleanContext: c.cleanContext,
          })),
      });
      timed.push({
        name: TIMING.snapshot(c.key),
        run: async () => void (await bolt.run(snapshotText, snapshotParams(bench, c))),
      });
      timed.push({ name: TIMING.naive(c.key), run: async () => void (await naivePlan(bench, c)) });
    }
    for (const size of options.sizes)
      timed.push({ name: TIMING.fullSummary(size), run: async () => void (await fullSummary(bench, size)) });
    timed.push(...product.cases);
    const loop = async (loopCases: Case[], what: string) => {
      bench.log(
        `measuring ${loopCases.length} ${what} x ${options.iterations} iterations (+${options.warmup} warm-up), interleaved`,
      );
      let lastProgress = performance.now();
      return interleaved(loopCases, options.iterations, options.warmup, (done, total) => {
        if (performance.now() - lastProgress < 60_000 && done < total) return;
        lastProgress = performance.now();
        bench.log(`  iteration ${done} of ${total}`);
      });
    };
    return {
      ...(await loop(timed, 'cases')),
      ...(await loop(product.heavyCases, 'heavy cases (analytics, the rollback to run 5)')),
    };
  } finally {
    await bolt.close();
  }
}

/** The length of a full summary at each size, and how many runs it read. */
async function summaryLengths(bench: Bench, sizes: number[]): Promise<Record<number, SummaryFigures>> {
  const summaries: Record<number, SummaryFigures> = {};
  for (const size of sizes) {
    summaries[size] = await fullSummary(bench, size).catch((error: unknown): SummaryFigures => ({
      chars: NaN,
      runsRead: NaN,
      error: String((error as { code?: unknown }).code ?? error),
    }));
  }
  return summaries;
}

/** PROFILE of the snapshot query for every case: its db hits, and at the largest size its operators. */
async function profileSnapshots(
  bench: Bench,
  cases: PlanCase[],
  largest: number,
): Promise<Pick<BenchReport, 'dbHits' | 'profiles'>> {
  const snapshotText = sentCypher('planner/snapshot');
  const dbHits: Record<string, number> = {};
  const profiles: Record<string, string[]> = {};
  const session = bench.driver.session({ database: bench.database });
  for (const c of cases) {
    const result = await session.run(`PROFILE ${snapshotText}`, snapshotParams(bench, c));
    const profile = result.summary.profile;
    if (!profile) throw new Error('PROFILE returned no profile');
    dbHits[c.key] = totalDbHits(profile);
    if (c.size === largest) profiles[c.key] = operators(profile, 0);
  }
  await session.close();
  return { dbHits, profiles };
}

export const totalDbHits = (plan: ProfiledPlan): number =>
  Number(plan.dbHits ?? 0) + plan.children.reduce((total, child) => total + totalDbHits(child), 0);

export const operators = (plan: ProfiledPlan, depth: number): string[] => [
  `${'  '.repeat(depth)}${plan.operatorType.replace(/@.*/, '')} dbHits=${Number(plan.dbHits ?? 0)} rows=${Number(plan.rows ?? 0)}`,
  ...plan.children.flatMap((child) => operators(child, depth + 1)),
];

/** Start-and-complete cycles per second, for `seconds` each, by 1 to 16 concurrent orchestrators. */
async function measureThroughput(bench: Bench, seconds: number): Promise<Record<string, ThroughputFigures>> {
  const throughput: Record<string, ThroughputFigures> = {};
  for (const [label, workers, shared] of THROUGHPUT) {
    const threads = Array.from(
      { length: shared ? 1 : workers },
      (_, i) => `${bench.run}-tp-${workers}-${shared ? 'shared' : i}`,
    );
    for (const id of threads)
      await bench.api.request(`mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`, {
        input: { id, title: 'throughput' },
      });
    const latencies: number[] = [];
    const errors: Record<string, number> = {};
    let cycles = 0;
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: workers }, async (_, i) => {
        while (performance.now() < deadline) {
          const start = performance.now();
          const code = await cycle(bench, threads[shared ? 0 : i]!);
          if (code === null) {
            cycles++;
            latencies.push(performance.now() - start);
          } else errors[code] = (errors[code] ?? 0) + 1;
        }
      }),
    );
    const s = stats(latencies);
    throughput[label] = {
      cyclesPerSecond: Math.round((cycles / seconds) * 10) / 10,
      p50Ms: s.medianMs,
      p95Ms: s.p95Ms,
      p99Ms: s.p99Ms,
      errors,
    };
    bench.log(
      `  throughput ${label}: ${throughput[label].cyclesPerSecond} cycles/s, p50 ${s.medianMs} ms, errors ${JSON.stringify(errors)}`,
    );
  }
  return throughput;
}

/** One startRun and its completeRun; the error code when the service refused either. */
async function cycle(bench: Bench, threadId: string): Promise<string | null> {
  try {
    const started = await bench.api.startRun({
      threadId,
      provider: bench.providers[0].id,
      userMessage: 'throughput cycle',
    });
    await bench.api.completeRun(started.run.id);
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
}

function peakMemory(local: LocalNeo4j | null): MemoryPeaks {
  return {
    nodePeakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    neo4jPeakRssMiB: local ? peakRssMiB(local.pid) : null,
  };
}

async function describeMachine(bench: Bench, local: LocalNeo4j | null, loadAtStart: number): Promise<Machine> {
  const neo4jVersion = local?.version ?? (await serverVersion(bench.driver, bench.database));
  let cpuModel = cpus()[0]?.model ?? 'unknown';
  try {
    cpuModel = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpuModel;
  } catch {
    // No /proc/cpuinfo: the model os.cpus() names stands.
  }
  let nproc = cpus().length;
  try {
    nproc = Number(execSync('nproc').toString().trim());
  } catch {
    // No nproc: the count os.cpus() gives stands.
  }
  return {
    nproc,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    cpuModel,
    node: process.version,
    neo4j: neo4jVersion,
    loadAverage: { atStart: round(loadAtStart), atEnd: round(loadavg()[0]!) },
  };
}

async function serverVersion(driver: Driver, database: string): Promise<string> {
  const result = await driver.executeQuery(
    'CALL dbms.components() YIELD versions RETURN versions[0] AS version',
    {},
    { database },
  );
  return String(result.records[0]?.get('version') ?? 'unknown');
}

function ratios(
  report: Pick<BenchReport, 'latency' | 'dbHits' | 'summaries'>,
  sizes: number[],
  cases: PlanCase[],
): Ratios {
  const latency = report.latency;
  const reference = referenceSizeOf(sizes);
  const largest = sizes[sizes.length - 1]!;
  const labels = [...new Set(cases.map((c) => c.label))];
  const floor = latency[TIMING.httpFloor]!.medianMs;
  const out: Ratios = {
    planRunLargestOverReference: {},
    planRunHttpOverFloor: {},
    naiveOverPlanner: {},
    dbHitsLargestOverReference: {},
    fullSummary: {},
  };
  for (const label of labels) {
    const key = (size: number) => caseKey(size, label);
    out.planRunLargestOverReference[label] = round(
      latency[TIMING.planRunHttp(key(largest))]!.medianMs / latency[TIMING.planRunHttp(key(reference))]!.medianMs,
    );
    out.dbHitsLargestOverReference[label] = round(report.dbHits[key(largest)]! / report.dbHits[key(reference)]!);
    for (const size of sizes) {
      out.planRunHttpOverFloor[key(size)] = round(latency[TIMING.planRunHttp(key(size))]!.medianMs / floor);
      out.naiveOverPlanner[key(size)] = round(
        latency[TIMING.naive(key(size))]!.medianMs / latency[TIMING.planRunInProcess(key(size))]!.medianMs,
      );
    }
  }
  for (const size of sizes) {
    const timing = latency[TIMING.fullSummary(size)]!;
    const summary = report.summaries[size]!;
    out.fullSummary[size] = {
      medianMs: timing.n ? timing.medianMs : null,
      chars: summary.chars,
      runsRead: summary.runsRead,
      error: summary.error ?? (timing.errors ? JSON.stringify(timing.errors) : undefined),
    };
  }
  return out;
}

const round = (value: number) => Math.round(value * 100) / 100;

/** Bytes on disk, in stores of their own: only when the bench runs its own Neo4j. */
async function footprint(bench: Bench, local: LocalNeo4j | null, sizes: number[]): Promise<StoreFootprint[] | null> {
  if (!local) return null;
  bench.log('measuring store and transaction-log bytes, one fresh store per size');
  return measureFootprints({
    sizes,
    providers: bench.providers,
    planner: bench.planner,
    heap: HEAP,
    pageCache: PAGE_CACHE,
    log: bench.log,
  });
}

/** A small thread beside many others against the same alone: only when the bench runs its own Neo4j (it boots two more). */
async function crowd(
  bench: Bench,
  local: LocalNeo4j | null,
  options: BenchOptions,
): Promise<ManyThreadsFigures | null> {
  if (!local || !options.manyThreads) return null;
  bench.log(`measuring a small thread beside ${options.manyThreads} threads against the same alone`);
  return measureManyThreads({
    crowd: options.manyThreads,
    runsPerThread: CROWD_THREAD_RUNS,
    bigThreadRuns: options.sizes[options.sizes.length - 1]!,
    iterations: options.iterations,
    warmup: options.warmup,
    providers: bench.providers,
    planner: bench.planner,
    heap: CROWD_HEAP,
    pageCache: CROWD_PAGE_CACHE,
    log: bench.log,
  });
}

/** Logs the run's tables, and unless told not to writes its results file and docs/benchmarks.md. */
function report(result: BenchReport, options: BenchOptions): BenchReport {
  options.log(renderPlannerTables(result));
  options.log(renderProduct(result.product, options.sizes));
  if (options.write) options.log(`wrote ${writeResults(result)} and docs/benchmarks.md`);
  return result;
}
