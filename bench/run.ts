// `npm run bench`: what the product costs as a thread grows, every case measured at every size side
// by side in one run. See docs/benchmarks.md for what it measures and the latest figures.
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import neo4j, { type Driver, type ProfiledPlan } from 'neo4j-driver';
import { loadConfig } from '../src/config.js';
import { decidePlan, measurableDeltaRange, type PlanningSnapshot } from '../src/domain/planner.js';
import { LINEAGE_RULE_PARAMETERS } from '../src/domain/standing.js';
import { createDriver, type Neo4jConnection } from '../src/graph/driver.js';
import { chooseNeo4j } from '../src/graph/chooseNeo4j.js';
import { cypher } from '../src/graph/queries.js';
import { toProviderThread, toThread } from '../src/graph/repositories/mapping.js';
import { loadPlanningSnapshot } from '../src/graph/repositories/planning.js';
import { Graph } from '../src/graph/transactions.js';
import { plain } from '../src/graph/values.js';
import type { AnalyticsWindow } from '../src/operations/analytics.js';
import type { OperationContext } from '../src/operations/context.js';
import { readSummarySource, summarize } from '../src/operations/summaries.js';
import { planRun } from '../src/operations/switching.js';
import { startService } from '../src/server/app.js';
import { createLogger } from '../src/server/logger.js';
import { Api, ApiError, describePlan, type PlanView } from './api.js';
import { measureFootprints, type StoreFootprint } from './footprint.js';
import { interleaved, peakRssMiB, stats, type Case } from './measure.js';
import { prepareProduct, type ReadThread } from './product.js';
import { productSection, renderPlannerTables, renderProduct, renderResultsFile, writeResults, type BenchReport, type Machine, type Ratios, type SummaryFigures, type ThroughputFigures } from './report.js';
import { seedThread, TENANT, type SeedResult } from './seed.js';
import { DEFAULT_ITERATIONS, HEAP, PAGE_CACHE, SUMMARY_BUDGET } from './settings.js';

export interface BenchOptions {
  sizes: number[];
  iterations: number;
  warmup: number;
  seconds: number;
  /** Use this Neo4j instead of NEO4J_URI or a local one. */
  neo4j?: Neo4jConnection;
  /** Write bench/results/<timestamp>.json and docs/benchmarks.md (off for the smoke test). */
  write: boolean;
  log: (line: string) => void;
}

interface PlanCase {
  size: number;
  label: string;
  provider: string;
  runtimeMode: string | null;
  cleanContext: boolean;
}

/** Not bench/seed.ts's SEEDED_RUNTIME_MODE: asking for it makes the seeded provider threads stale. */
const STALE_RUNTIME_MODE = 'read-only';

export function parseArgs(argv: string[]): Omit<BenchOptions, 'log' | 'write'> {
  const quick = argv.includes('--quick');
  const value = (flag: string) => {
    const index = argv.indexOf(flag);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const sizes = value('--sizes')?.split(',').map(Number) ?? (quick ? [10, 1000, 10000] : [10, 1000, 10000, 100000]);
  const iterations = Number(value('--iterations') ?? (quick ? 10 : DEFAULT_ITERATIONS));
  return { sizes, iterations, warmup: Math.max(2, Math.round(iterations / 10)), seconds: Number(value('--seconds') ?? (quick ? 3 : 10)) };
}

async function serverNow(driver: Driver, database: string): Promise<string> {
  const result = await driver.executeQuery('RETURN toString(datetime()) AS now', {}, { database });
  return String(result.records[0]!.get('now'));
}

export async function main(options: BenchOptions): Promise<BenchReport> {
  const log = options.log;
  const neo4jInUse = options.neo4j
    ? { connection: options.neo4j, local: null, close: () => Promise.resolve() }
    : await chooseNeo4j(loadConfig(process.env).neo4j, { start: 'throwaway', storePrefix: 'threadline-bench-', heap: HEAP, pageCache: PAGE_CACHE, progress: log });
  const { connection, local } = neo4jInUse;
  const driver = createDriver(connection);
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  const service = await startService({ ...config, neo4j: { ...config.neo4j, database: connection.database } }, driver, createLogger('silent'));
  const providers = new Map(config.providers.map((p) => [p.id, p]));
  const context: OperationContext = {
    graph: new Graph(driver, connection.database, '').forTenant(TENANT),
    providers,
    planner: config.planner,
    summaries: { policy: config.summaries, summarizers: new Map() },
  };
  const api = new Api(service.url);
  const run = `bench-${Date.now().toString(36)}`;
  const [mainProvider, otherProvider] = config.providers as [(typeof config.providers)[number], (typeof config.providers)[number]];
  const [main, other] = [mainProvider.id, otherProvider.id];
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg()[0]!;
  const { sizes } = options;
  let report: Omit<BenchReport, 'product'> & { prepared: Awaited<ReturnType<typeof prepareProduct>> };
  try {
    // 1. Seed: one read thread per size, each in a time window of its own for the analytics.
    const seeding: Record<number, SeedResult> = {};
    const read = new Map<number, ReadThread>();
    for (const size of sizes) {
      log(`seeding ${size} runs`);
      const from = await serverNow(driver, connection.database);
      const seeded = await seedThread(driver, connection.database, { threadId: `${run}-${size}`, size, providers: [mainProvider, otherProvider], planner: config.planner, log });
      const window: AnalyticsWindow = { from, to: await serverNow(driver, connection.database) };
      seeding[size] = seeded;
      read.set(size, { threadId: seeded.threadId, window });
      log(`  ${size} runs: ${seeded.providerThreads} provider threads, ${seeded.handoffs} handoffs, ${seeded.coversEdges} COVERS, ${seeded.facts} facts, ${seeded.checkpoints} checkpoints in ${seeded.seconds.toFixed(1)} s (${Math.round(seeded.runsPerSecond)} runs/s)`);
    }

    // 2. Sanity: the seeded threads plan sensibly through the real planRun.
    const cases: PlanCase[] = sizes.flatMap((size) => [
      { size, label: `${main} (last provider)`, provider: main, runtimeMode: null, cleanContext: false },
      { size, label: `${other} (delta)`, provider: other, runtimeMode: null, cleanContext: false },
      { size, label: `${other} clean context`, provider: other, runtimeMode: null, cleanContext: true },
      // Stale from what the graph holds: the target provider thread runs in another mode.
      { size, label: `${other} stale (mode changed)`, provider: other, runtimeMode: STALE_RUNTIME_MODE, cleanContext: false },
    ]);
    const planOverHttp = (c: PlanCase) => api.planRun({ threadId: `${run}-${c.size}`, provider: c.provider, runtimeMode: c.runtimeMode, cleanContext: c.cleanContext });
    const decisions: Record<string, string> = {};
    for (const c of cases) {
      const plan = await planOverHttp(c);
      decisions[`${c.size} ${c.label}`] = describePlan(plan);
      if (c.provider === main && !c.cleanContext && plan.providerThreadAction !== 'REUSE') throw new Error(`seeded ${c.size}: ${main} should reuse, got ${JSON.stringify(plan)}`);
      if (c.runtimeMode === STALE_RUNTIME_MODE && !plan.stalenessSignals.includes('INCOMPATIBLE_CONFIG')) throw new Error(`seeded ${c.size}: ${other} should be stale, got ${JSON.stringify(plan)}`);
      if (c.provider === other && !c.cleanContext && !c.runtimeMode && !['DELTA_HANDOFF', 'FULL_HANDOFF_NEW', 'FULL_HANDOFF_EXISTING'].includes(plan.decision)) throw new Error(`seeded ${c.size}: ${other} should get a handoff, got ${JSON.stringify(plan)}`);
    }
    log(`plans: ${JSON.stringify(decisions)}`);

    // 3. The whole product: its threads, the sanity of its rounds, its cases.
    const prepared = await prepareProduct({ api, driver, database: connection.database, context, providers: [mainProvider, otherProvider], planner: config.planner, sizes, iterations: options.iterations, prefix: run, read, log });
    log(`product: ${JSON.stringify(prepared.sanity)}`);

    // 4. The naive baseline: the whole thread into TypeScript, then the pure decidePlan.
    const naive = async (c: PlanCase) => {
      const threadId = `${run}-${c.size}`;
      const session = driver.session({ database: connection.database, defaultAccessMode: neo4j.session.READ });
      try {
        const loaded = await session.executeRead(async (tx) => {
          const thread = await tx.run(`MATCH (t:Thread {tenant: $tenant, id: $threadId}) RETURN t {.*} AS thread`, { tenant: TENANT, threadId });
          const runs = await tx.run(
            `MATCH (r:Run {tenant: $tenant, threadId: $threadId}) WHERE r.ordinal IS NOT NULL RETURN r.ordinal AS ordinal, r.provider AS provider, r.providerThreadId AS providerThreadId, r.status AS status`,
            { tenant: TENANT, threadId },
          );
          const pts = await tx.run(`MATCH (p:ProviderThread {tenant: $tenant, threadId: $threadId}) WHERE p.provider = $provider RETURN p {.*} AS pt ORDER BY p.seq DESC LIMIT 1`, { tenant: TENANT, threadId, provider: c.provider });
          const target = pts.records[0] ? (plain(pts.records[0].get('pt')) as Record<string, unknown>) : null;
          const handoffs = await tx.run(
            `MATCH (h:ContextHandoff {tenant: $tenant, threadId: $threadId}) WHERE h.toProviderThreadId = $targetId RETURN h.status AS status, h.transferKind AS kind, h.coveredTo AS coveredTo`,
            { tenant: TENANT, threadId, targetId: target?.id ?? null },
          );
          return {
            thread: plain(thread.records[0]!.get('thread')) as Record<string, unknown>,
            runs: runs.records.map((r) => plain(r.toObject()) as { ordinal: number; provider: string; providerThreadId: string; status: string }),
            target,
            handoffs: handoffs.records.map((r) => plain(r.toObject()) as { status: string; kind: string; coveredTo: number }),
          };
        });
        const runs = loaded.runs.sort((a, b) => a.ordinal - b.ordinal);
        const thread = toThread(loaded.thread);
        const head = runs.find((r) => r.ordinal === thread.headOrdinal) ?? null;
        const target = loaded.target && toProviderThread(loaded.target);
        const standing = loaded.handoffs.filter((h) => ['pending', 'ready'].includes(h.status) && ['provider_handoff', 'fork'].includes(h.kind));
        const lastNative = target ? (target.lastRunOrdinal ?? target.inheritedThroughOrdinal ?? 0) : 0;
        const snapshot: PlanningSnapshot = {
          headOrdinal: thread.headOrdinal,
          headProviderThreadId: head?.providerThreadId ?? null,
          rolledBack: thread.rolledBack,
          target: target && {
            providerThread: target,
            coveredThroughOrdinal: Math.max(target.lastRunOrdinal ?? 0, ...standing.map((h) => h.coveredTo), target.inheritedThroughOrdinal ?? 0),
            standingHandoffCount: standing.length,
            runsSinceLastNative: runs
              .filter((r) => r.ordinal > lastNative && r.status !== 'rolled_back')
              .slice(0, config.planner.maxRunsElsewhere + 1)
              .map((r) => ({ ordinal: r.ordinal, providerThreadId: r.providerThreadId })),
          },
        };
        const request = { provider: providers.get(c.provider)!, model: null, runtimeMode: c.runtimeMode, cleanContext: c.cleanContext };
        const range = measurableDeltaRange(snapshot, config.planner);
        let deltaChars: number | null = null;
        if (range) {
          const summaryRequest = { threadId, title: thread.title, range, strategy: 'delta_since_target_last_seen' as const, targetProvider: c.provider, budgetChars: null };
          const source = await context.graph.read((tx) => readSummarySource(tx, thread, summaryRequest));
          deltaChars = summarize(source, summaryRequest).text.length;
        }
        return decidePlan(snapshot, request, deltaChars, config.planner);
      } finally {
        await session.close();
      }
    };
    let agreements = 0;
    const disagreements: string[] = [];
    const checkNaive = async (c: PlanCase) => {
      const [mine, theirs]: [Awaited<ReturnType<typeof naive>>, PlanView] = [await naive(c), await planOverHttp(c)];
      const a = `${mine.decision.toUpperCase()}/${mine.providerThreadAction.toUpperCase()}/${mine.providerThreadId ?? theirs.providerThread?.id ?? ''}/${mine.coveredRunOrdinals?.from ?? ''}-${mine.coveredRunOrdinals?.to ?? ''}`;
      const b = `${theirs.decision}/${theirs.providerThreadAction}/${theirs.providerThread?.id ?? ''}/${theirs.coveredRunOrdinals?.from ?? ''}-${theirs.coveredRunOrdinals?.to ?? ''}`;
      if (a === b) agreements++;
      else disagreements.push(`${c.size} ${c.label}: naive ${a} vs planRun ${b}`);
    };
    for (const c of cases) await checkNaive(c);

    // 5. Latency, interleaved across every case of every size.
    const snapshotText = cypher('planner/snapshot');
    const snapshotParams = (c: PlanCase) => ({ ...LINEAGE_RULE_PARAMETERS, tenant: TENANT, threadId: `${run}-${c.size}`, provider: c.provider, runWindow: neo4j.int(config.planner.maxRunsElsewhere + 1) });
    const bolt = driver.session({ database: connection.database, defaultAccessMode: neo4j.session.READ });
    const timed: Case[] = [
      { name: 'floor: { __typename } over HTTP', run: async () => void (await api.request('{ __typename }')) },
      { name: 'floor: RETURN 1 over Bolt', run: async () => void (await bolt.run('RETURN 1')) },
    ];
    for (const c of cases) {
      const key = `${c.size} ${c.label}`;
      timed.push({ name: `planRun HTTP ${key}`, run: async () => void (await planOverHttp(c)) });
      timed.push({ name: `planRun in-process ${key}`, run: async () => void (await planRun(context, { threadId: `${run}-${c.size}`, provider: c.provider, model: null, runtimeMode: c.runtimeMode, cleanContext: c.cleanContext })) });
      timed.push({ name: `snapshot Cypher Bolt ${key}`, run: async () => void (await bolt.run(snapshotText, snapshotParams(c))) });
      timed.push({ name: `naive ${key}`, run: async () => void (await naive(c)) });
    }
    const fullSummary = (size: number) =>
      context.graph.read(async (tx) => {
        const loaded = (await loadPlanningSnapshot(tx, `${run}-${size}`, main, config.planner.maxRunsElsewhere + 1))!;
        const range = { from: 1, to: loaded.thread.headOrdinal };
        const summaryRequest = { threadId: `${run}-${size}`, title: loaded.thread.title, range, strategy: 'full_thread_summary' as const, targetProvider: other, budgetChars: SUMMARY_BUDGET };
        const source = await readSummarySource(tx, loaded.thread, summaryRequest);
        const text = summarize(source, summaryRequest).text;
        return { chars: text.length, runsRead: source.runs.length };
      });
    for (const size of sizes) timed.push({ name: `full summary ${size}`, run: async () => void (await fullSummary(size)) });
    timed.push(...prepared.cases);
    log(`measuring ${timed.length} cases x ${options.iterations} iterations (+${options.warmup} warm-up), interleaved`);
    let lastProgress = performance.now();
    const latency = await interleaved(timed, options.iterations, options.warmup, (done, total) => {
      if (performance.now() - lastProgress < 60_000 && done < total) return;
      lastProgress = performance.now();
      log(`  iteration ${done} of ${total}`);
    });
    await bolt.close();
    // Agreement again after the timings (the naive baseline is checked on every case it was timed on).
    for (const c of cases) await checkNaive(c);

    // 6. Summary lengths and PROFILE db hits.
    const summaries: Record<number, SummaryFigures> = {};
    const dbHits: Record<string, number> = {};
    const profiles: Record<string, string[]> = {};
    for (const size of sizes) {
      summaries[size] = await fullSummary(size).catch((error: unknown): SummaryFigures => ({ chars: NaN, runsRead: NaN, error: String((error as { code?: unknown }).code ?? error) }));
    }
    const session = driver.session({ database: connection.database });
    const sum = (plan: ProfiledPlan): number => Number(plan.dbHits ?? 0) + plan.children.reduce((total, child) => total + sum(child), 0);
    for (const c of cases) {
      const result = await session.run(`PROFILE ${snapshotText}`, snapshotParams(c));
      const profile = result.summary.profile;
      if (!profile) throw new Error('PROFILE returned no profile');
      dbHits[`${c.size} ${c.label}`] = sum(profile);
      if (c.size === sizes[sizes.length - 1]) {
        const operators: string[] = [];
        const walk = (plan: ProfiledPlan, depth: number): void => {
          operators.push(`${'  '.repeat(depth)}${plan.operatorType.replace(/@.*/, '')} dbHits=${Number(plan.dbHits ?? 0)} rows=${Number(plan.rows ?? 0)}`);
          for (const child of plan.children) walk(child, depth + 1);
        };
        walk(profile, 0);
        profiles[`${c.size} ${c.label}`] = operators;
      }
    }
    await session.close();

    // 7. Throughput.
    const throughput: Record<string, ThroughputFigures> = {};
    const cycle = async (threadId: string): Promise<string | null> => {
      try {
        const started = await api.startRun({ threadId, provider: main, userMessage: 'throughput cycle' });
        await api.completeRun(started.run.id);
        return null;
      } catch (error) {
        if (error instanceof ApiError) return error.code;
        throw error;
      }
    };
    for (const [label, workers, shared] of [['1 orchestrator', 1, false], ['4 orchestrators', 4, false], ['16 orchestrators', 16, false], ['16 on one thread', 16, true]] as const) {
      const threads = Array.from({ length: shared ? 1 : workers }, (_, i) => `${run}-tp-${workers}-${shared ? 'shared' : i}`);
      for (const id of threads) await api.request(`mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`, { input: { id, title: 'throughput' } });
      const latencies: number[] = [];
      const errors: Record<string, number> = {};
      let cycles = 0;
      const deadline = performance.now() + options.seconds * 1000;
      await Promise.all(
        Array.from({ length: workers }, async (_, i) => {
          while (performance.now() < deadline) {
            const start = performance.now();
            const code = await cycle(threads[shared ? 0 : i]!);
            if (code === null) {
              cycles++;
              latencies.push(performance.now() - start);
            } else errors[code] = (errors[code] ?? 0) + 1;
          }
        }),
      );
      const s = stats(latencies);
      throughput[label] = { cyclesPerSecond: Math.round((cycles / options.seconds) * 10) / 10, p50Ms: s.medianMs, p95Ms: s.p95Ms, p99Ms: s.p99Ms, errors };
      log(`  throughput ${label}: ${throughput[label].cyclesPerSecond} cycles/s, p50 ${s.medianMs} ms, errors ${JSON.stringify(errors)}`);
    }

    // 8. Memory.
    const memory = { nodePeakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024), neo4jPeakRssMiB: local ? peakRssMiB(local.pid) : null };
    const base = {
      startedAt,
      options: { sizes, iterations: options.iterations, warmup: options.warmup, seconds: options.seconds },
      seeding,
      decisions,
      latency,
      naive: { agreements, disagreements },
      summaries,
      dbHits,
      profiles,
      throughput,
      memory,
      machine: machine(local?.version ?? (await serverVersion(driver, connection.database)), loadAtStart),
    };
    report = { ...base, ratios: ratios(base, sizes, cases), prepared };
  } finally {
    await service.close();
    await driver.close();
    await neo4jInUse.close();
  }

  // 9. Bytes on disk, in stores of their own: only when the bench runs its own Neo4j.
  let stores: StoreFootprint[] | null = null;
  if (local) {
    log('measuring store and transaction-log bytes, one fresh store per size');
    stores = await measureFootprints({ sizes, providers: [mainProvider, otherProvider], planner: config.planner, heap: HEAP, pageCache: PAGE_CACHE, log });
  }
  const { prepared, ...rest } = report;
  const result: BenchReport = { ...rest, product: productSection(prepared, sizes, rest.latency, stores) };
  log(renderPlannerTables(result));
  log(renderProduct(result.product, sizes));
  if (options.write) log(`wrote ${writeResults(result)} and docs/benchmarks.md`);
  return result;
}

async function serverVersion(driver: Driver, database: string): Promise<string> {
  const result = await driver.executeQuery('CALL dbms.components() YIELD versions RETURN versions[0] AS version', {}, { database });
  return String(result.records[0]?.get('version') ?? 'unknown');
}

function machine(neo4jVersion: string, loadAtStart: number): Machine {
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
  return { nproc, memoryGiB: Math.round(totalmem() / 2 ** 30), cpuModel, node: process.version, neo4j: neo4jVersion, loadAverage: { atStart: round(loadAtStart), atEnd: round(loadavg()[0]!) } };
}

function ratios(report: Pick<BenchReport, 'latency' | 'dbHits' | 'summaries'>, sizes: number[], cases: PlanCase[]): Ratios {
  const latency = report.latency;
  const smallest = sizes[0]!;
  const largest = sizes[sizes.length - 1]!;
  const labels = [...new Set(cases.map((c) => c.label))];
  const floor = latency['floor: { __typename } over HTTP']!.medianMs;
  const out: Ratios = { planRunLargestOverSmallest: {}, planRunHttpOverFloor: {}, naiveOverPlanner: {}, dbHitsLargestOverSmallest: {}, fullSummary: {} };
  for (const label of labels) {
    const key = (size: number) => `${size} ${label}`;
    out.planRunLargestOverSmallest[label] = round(latency[`planRun HTTP ${key(largest)}`]!.medianMs / latency[`planRun HTTP ${key(smallest)}`]!.medianMs);
    out.dbHitsLargestOverSmallest[label] = round(report.dbHits[key(largest)]! / report.dbHits[key(smallest)]!);
    for (const size of sizes) {
      out.planRunHttpOverFloor[key(size)] = round(latency[`planRun HTTP ${key(size)}`]!.medianMs / floor);
      out.naiveOverPlanner[key(size)] = round(latency[`naive ${key(size)}`]!.medianMs / latency[`planRun in-process ${key(size)}`]!.medianMs);
    }
  }
  for (const size of sizes) {
    const timing = latency[`full summary ${size}`]!;
    const summary = report.summaries[size]!;
    out.fullSummary[size] = { medianMs: timing.n ? timing.medianMs : null, chars: summary.chars, runsRead: summary.runsRead, error: summary.error ?? (timing.errors ? JSON.stringify(timing.errors) : undefined) };
  }
  return out;
}

const round = (value: number) => Math.round(value * 100) / 100;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv.includes('--render')) {
  const file = process.argv[process.argv.indexOf('--render') + 1]!;
  renderResultsFile(file);
  console.log(`rendered docs/benchmarks.md from ${file}`);
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  main({ ...options, write: true, log: (line) => console.log(`[${Math.round((performance.now() - started) / 1000)} s] ${line}`) }).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
