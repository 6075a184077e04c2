// `npm run bench:throughput`: what one service process does per second and where its time goes.
// Service instances run as processes of their own (src/server/main.ts) on one Neo4j; with `--before
// <dir>` an older source tree runs beside this one and every phase alternates between the two, so
// before and after are measured side by side in one session on the same load. Writes
// bench/results/throughput-<timestamp>.json and its sections of docs/benchmarks.md.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import neo4j, { type Driver } from 'neo4j-driver';
import { loadConfig } from '../src/config.js';
import type { ProviderDefinition } from '../src/domain/providers.js';
import { chooseNeo4j } from '../src/graph/chooseNeo4j.js';
import { createDriver, type Neo4jConnection } from '../src/graph/driver.js';
import { projectRoot } from '../src/graph/projectRoot.js';
import { queryNames, sentCypher } from '../src/graph/queries.js';
import { Api, ApiError } from './api.js';
import { summarizeProfile, type ClockWindow, type ProfileSummary } from './cpuProfile.js';
import { interleaved, stats, type Case, type Stats } from './measure.js';
import { measureImportRate, type ImportRate } from './importRate.js';
import { operators, totalDbHits } from './run.js';
import { seedThread, TENANT } from './seed.js';
import { rolledBackEndsRead } from '../src/domain/planner.js';
import { planningSnapshotParameters } from '../src/graph/repositories/planning.js';
import { Graph, statementParameters } from '../src/graph/transactions.js';
import type { OperationContext } from '../src/operations/context.js';
import { planRun } from '../src/operations/switching.js';
import { buildService, cpuMs, startServiceProcess, type ServiceProcess } from './serviceProcess.js';
import { HEAP, PAGE_CACHE } from './settings.js';
import {
  writeThroughputResults,
  type ThroughputReport,
  type CyclePhase,
  type StatementSample,
} from './throughputReport.js';

export interface Options {
  before: string | null;
  /** The commit the --before tree was taken from, for the report. */
  beforeCommit: string | null;
  seconds: number;
  rounds: number;
  iterations: number;
  orchestrators: number;
  importMiB: { codex: number; claude: number } | null;
  /** Keep the services' .cpuprofile files here (open them in Chrome DevTools for a flame graph). */
  profiles: string | null;
  write: boolean;
  log: (line: string) => void;
}

interface Variant {
  name: 'before' | 'after';
  root: string;
  instances: ServiceHandle[];
}

interface ServiceHandle {
  api: Api;
  process: ServiceProcess;
}

const PLAN_THREAD_RUNS = 1000;
const WARM_UP_PHASES_PER_TREE = 6;
const now = () => process.hrtime.bigint();

export async function main(options: Options): Promise<ThroughputReport> {
  const { log } = options;
  const loadAtStart = loadavg();
  const chosen = await chooseNeo4j(loadConfig(process.env).neo4j, {
    start: 'throwaway',
    storePrefix: 'threadline-bench-throughput-',
    heap: HEAP,
    pageCache: PAGE_CACHE,
    progress: log,
  });
  const driver = createDriver(chosen.connection);
  const profileDir = options.profiles ? resolve(options.profiles) : mkdtempSync(join(tmpdir(), 'threadline-cpu-'));
  mkdirSync(profileDir, { recursive: true });
  const variants: Variant[] = [];
  try {
    const trees = [
      ...(options.before ? [['before', resolve(options.before)] as const] : []),
      ['after', projectRoot()] as const,
    ];
    for (const [name, root] of trees) {
      log(`building and starting 2 service processes from ${name === 'after' ? 'this tree' : root}`);
      buildService(root);
      const instances: ServiceHandle[] = [];
      for (let i = 0; i < 2; i++) {
        const started = await startServiceProcess(root, chosen.connection, { profileDir });
        instances.push({ api: new Api(started.url), process: started });
      }
      variants.push({ name, root, instances });
    }
    const run = `tp-${Date.now().toString(36)}`;
    const floor = await measureFloor(driver, chosen.connection, variants, run, options);
    // Warm-up, whole phases alternating between the trees: their code compiled, their connections open
    // and Neo4j's JIT warm (the first phases ran at a third of the later ones without it) before
    // anything is timed. After one phase per tree, the cycles per second still rose by half from the
    // first timed round to the third (the run of 2026-12-07 at 16:26), which favoured the tree second;
    // after three, the first round still ran at half the speed of the second (the runs of 16:45, 17:07).
    for (let phase = 0; phase < WARM_UP_PHASES_PER_TREE; phase++)
      for (const variant of phase % 2 === 0 ? variants : [...variants].reverse())
        await cycles(variant, 2, options, `${run}-${variant.name}-warm-${phase}`);
    const phases: CyclePhase[] = [];
    const windows = new Map<string, ClockWindow[]>();
    const statements = new Map<string, Map<string, number>>();
    for (let round = 0; round < options.rounds; round++) {
      // Alternate which tree goes first, so neither always runs right after the other's load.
      const ordered = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of ordered)
        for (const instances of [1, 2]) {
          const window: ClockWindow = { fromNs: now(), toNs: 0n };
          const pids = [...variant.instances.slice(0, instances).map((i) => i.process.pid)];
          const cpuBefore = pids.map(cpuMs);
          const neo4jBefore = chosen.local ? cpuMs(chosen.local.pid) : null;
          const phase = await cycles(variant, instances, options, `${run}-${variant.name}-${instances}-${round}`);
          const cycleCount = phase.cyclesPerSecond * options.seconds;
          const serviceCpu = pids.reduce((sum, pid, k) => sum + (cpuMs(pid) ?? NaN) - (cpuBefore[k] ?? NaN), 0);
          const neo4jCpu = chosen.local && neo4jBefore !== null ? (cpuMs(chosen.local.pid) ?? NaN) - neo4jBefore : NaN;
          phase.serviceCpuMsPerCycle = Math.round((serviceCpu / cycleCount) * 100) / 100;
          phase.neo4jCpuMsPerCycle = Math.round((neo4jCpu / cycleCount) * 100) / 100;
          window.toNs = now();
          phases.push({ ...phase, round, load: loadavg()[0]! });
          log(
            `  round ${round + 1} ${variant.name}, ${instances} instance(s): ${phase.cyclesPerSecond} cycles/s, p50 ${phase.p50Ms} ms, CPU per cycle: service ${phase.serviceCpuMsPerCycle} ms, Neo4j ${phase.neo4jCpuMsPerCycle} ms, errors ${JSON.stringify(phase.errors)}, load ${loadavg()[0]!.toFixed(2)}`,
          );
          if (instances === 1) windows.set(variant.name, [...(windows.get(variant.name) ?? []), window]);
        }
    }
    // Sampling what Neo4j runs costs Neo4j CPU: in a phase of its own, not timed.
    for (const variant of variants) {
      const sampler = sampleTransactions(driver, chosen.connection.database);
      await cycles(variant, 1, options, `${run}-${variant.name}-sampled`);
      statements.set(variant.name, await sampler.stop());
    }
    const importWindows = new Map<string, ClockWindow[]>();
    const importRate: ImportRate[] = options.importMiB
      ? await measureImportRate(
          variants.map((v) => ({
            variant: v.name,
            root: v.root,
            url: v.instances[0]!.process.url,
            pid: v.instances[0]!.process.pid,
          })),
          options.importMiB,
          `${run}-import`,
          () => loadavg()[0]!,
          log,
          chosen.local?.pid ?? null,
          options.profiles ? profileDir : null,
          (variant, window) => importWindows.set(variant, [...(importWindows.get(variant) ?? []), window]),
        )
      : [];
    for (const variant of variants) for (const instance of variant.instances) await instance.process.stop();
    const profiles: Record<string, { cycles: ProfileSummary; plan: ProfileSummary; import: ProfileSummary }> = {};
    for (const variant of variants) {
      const file = variant.instances[0]!.process.profile();
      if (!file) continue;
      profiles[variant.name] = {
        cycles: summarizeProfile(file, windows.get(variant.name) ?? []),
        plan: summarizeProfile(file, [floor.windows[variant.name]!]),
        import: summarizeProfile(file, importWindows.get(variant.name) ?? []),
      };
    }
    for (const [variant, { import: summary }] of Object.entries(profiles)) {
      log(
        `${variant}: CPU of the service during the imports, ${summary.samples} samples, busy ${summary.busyPercent}%`,
      );
      for (const area of summary.byArea) log(`    ${area.percent}% ${area.name}`);
      for (const fn of summary.topFunctions) log(`      ${fn.percent}% ${fn.name}`);
    }
    for (const [variant, { cycles: summary }] of Object.entries(profiles)) {
      log(
        `${variant}: CPU of the first instance under ${options.orchestrators} orchestrators, ${summary.samples} samples, busy ${summary.busyPercent}%`,
      );
      for (const area of summary.byArea) log(`    ${area.percent}% ${area.name}`);
      for (const fn of summary.topFunctions) log(`      ${fn.percent}% ${fn.name}`);
    }
    for (const [variant, shares] of statements)
      log(`${variant}: statements in flight: ${JSON.stringify(statementShares(shares))}`);
    const report: ThroughputReport = {
      startedAt: new Date().toISOString(),
      options: {
        before: options.before ? (options.beforeCommit ?? 'an older tree') : null,
        seconds: options.seconds,
        rounds: options.rounds,
        warmUpPhases: WARM_UP_PHASES_PER_TREE,
        iterations: options.iterations,
        orchestrators: options.orchestrators,
      },
      machine: { nproc: cpus().length, node: process.version },
      load: { atStart: loadAtStart, atEnd: loadavg() },
      floor: { latency: floor.latency, ratios: floor.ratios, snapshotProfile: floor.snapshotProfile },
      phases,
      profiles,
      statements: Object.fromEntries([...statements].map(([variant, counts]) => [variant, statementShares(counts)])),
      importRate,
    };
    if (options.write) log(`wrote ${writeThroughputResults(report)} and docs/benchmarks.md`);
    return report;
  } finally {
    for (const variant of variants) for (const instance of variant.instances) await instance.process.stop();
    if (!options.profiles) rmSync(profileDir, { recursive: true, force: true });
    await driver.close();
    await chosen.close();
  }
}

/** planRun over HTTP against a 1,000-run thread, interleaved with the HTTP and Bolt floors, on each tree's first instance. */
async function measureFloor(
  driver: Driver,
  connection: Neo4jConnection,
  variants: Variant[],
  run: string,
  options: Options,
): Promise<{
  latency: Record<string, Stats>;
  ratios: Record<string, number>;
  windows: Record<string, ClockWindow>;
  snapshotProfile: { dbHits: number; operators: string[] } | null;
}> {
  const config = loadConfig({});
  const [main, other] = config.providers as [ProviderDefinition, ProviderDefinition];
  const threadId = `${run}-plan`;
  options.log(`seeding a ${PLAN_THREAD_RUNS}-run thread for planRun`);
  await seedThread(driver, connection.database, {
    threadId,
    size: PLAN_THREAD_RUNS,
    providers: [main, other],
    planner: config.planner,
  });
  const bolt = driver.session({ database: connection.database, defaultAccessMode: neo4j.session.READ });
  const windows: Record<string, ClockWindow> = {};
  try {
    // What a plan is made of, in this process: a read transaction's own cost, the snapshot statement in
    // one, and planRun without HTTP; the difference to planRun over HTTP is the service's per-request cost.
    const graph = new Graph(driver, connection.database, '').forTenant(TENANT);
    const context: OperationContext = {
      graph,
      providers: new Map(config.providers.map((p) => [p.id, p])),
      planner: config.planner,
      summaries: { policy: config.summaries, summarizers: new Map() },
    };
    const snapshotParams = statementParameters(
      TENANT,
      'planner/snapshot',
      planningSnapshotParameters(
        threadId,
        main.id,
        config.planner.maxRunsElsewhere + 1,
        rolledBackEndsRead(config.planner),
      ),
    );
    const cases: Case[] = [
      { name: 'Bolt RETURN 1', run: async () => void (await bolt.run('RETURN 1')) },
      {
        name: 'Bolt RETURN 1 in a read transaction',
        run: async () => void (await bolt.executeRead((tx) => tx.run('RETURN 1'))),
      },
      {
        name: 'snapshot statement in a read transaction (last provider)',
        run: async () => void (await bolt.executeRead((tx) => tx.run(sentCypher('planner/snapshot'), snapshotParams))),
      },
      {
        name: 'planRun in-process (last provider)',
        run: async () =>
          void (await planRun(context, {
            threadId,
            provider: main.id,
            model: null,
            runtimeMode: null,
            cleanContext: false,
          })),
      },
    ];
    for (const variant of variants) {
      const api = variant.instances[0]!.api;
      cases.push({ name: `${variant.name}: HTTP floor`, run: async () => void (await api.request('{ __typename }')) });
      for (const [label, provider] of [
        ['last provider', main.id],
        ['delta', other.id],
      ] as const)
        cases.push({
          name: `${variant.name}: planRun HTTP (${label})`,
          run: async () => void (await api.planRun({ threadId, provider })),
        });
    }
    const profiled = (await bolt.run(`PROFILE ${sentCypher('planner/snapshot')}`, snapshotParams)).summary.profile;
    const snapshotProfile = profiled ? { dbHits: totalDbHits(profiled), operators: operators(profiled, 0) } : null;
    options.log(`snapshot statement PROFILE (last provider): ${snapshotProfile?.dbHits} db hits`);
    options.log(`measuring the floors and planRun: ${cases.length} cases x ${options.iterations}, interleaved`);
    const fromNs = now();
    const latency = await interleaved(cases, options.iterations, Math.max(5, options.iterations / 10));
    const toNs = now();
    for (const variant of variants) windows[variant.name] = { fromNs, toNs };
    const ratios: Record<string, number> = {};
    for (const [name, figures] of Object.entries(latency)) {
      const variant = name.split(':')[0]!;
      const floor = latency[`${variant}: HTTP floor`];
      if (name.includes('planRun') && floor) ratios[name] = Math.round((figures.medianMs / floor.medianMs) * 100) / 100;
    }
    for (const [name, figures] of Object.entries(latency))
      options.log(`  ${name}: median ${figures.medianMs} ms${ratios[name] ? `, ${ratios[name]}x the floor` : ''}`);
    return { latency, ratios, windows, snapshotProfile };
  } finally {
    await bolt.close();
  }
}

/** `orchestrators` clients, each on a thread of its own and spread over `instances` processes, doing start+complete cycles. */
async function cycles(
  variant: Variant,
  instances: number,
  options: Options,
  prefix: string,
): Promise<Omit<CyclePhase, 'round' | 'load'>> {
  const clients = Array.from({ length: options.orchestrators }, (_, i) => ({
    api: variant.instances[i % instances]!.api,
    threadId: `${prefix}-${i}`,
  }));
  for (const { api, threadId } of clients)
    await api.request(`mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`, {
      input: { id: threadId, title: 'throughput' },
    });
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  const deadline = performance.now() + options.seconds * 1000;
  await Promise.all(
    clients.map(async ({ api, threadId }) => {
      while (performance.now() < deadline) {
        const start = performance.now();
        try {
          const started = await api.startRun({ threadId, provider: 'codex', userMessage: 'throughput cycle' });
          await api.completeRun(started.run.id);
          latencies.push(performance.now() - start);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          errors[error.code] = (errors[error.code] ?? 0) + 1;
        }
      }
    }),
  );
  const s = stats(latencies);
  return {
    variant: variant.name,
    instances,
    cyclesPerSecond: Math.round((latencies.length / options.seconds) * 10) / 10,
    p50Ms: s.medianMs,
    p95Ms: s.p95Ms,
    errors,
    serviceCpuMsPerCycle: NaN,
    neo4jCpuMsPerCycle: NaN,
  };
}

/**
 * Neo4j Community has no query log (Enterprise only): what it is busy with is sampled instead, every
 * few milliseconds, from SHOW TRANSACTIONS, each running statement named by its cypher/ file.
 */
function sampleTransactions(driver: Driver, database: string): { stop: () => Promise<Map<string, number>> } {
  const byText = new Map(queryNames().map((name) => [sentCypher(name), name]));
  const counts = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
    try {
      while (running) {
        const result = await session.run(
          'SHOW TRANSACTIONS YIELD currentQuery, status WHERE NOT currentQuery STARTS WITH "SHOW TRANSACTIONS" RETURN currentQuery, status',
        );
        for (const record of result.records) {
          const text = String(record.get('currentQuery') ?? '').trim();
          const name =
            text === ''
              ? `(between statements, ${String(record.get('status'))})`
              : (byText.get(text) ?? `(other) ${text.slice(0, 60)}`);
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
        counts.set('(samples)', (counts.get('(samples)') ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 5));
      }
    } finally {
      await session.close();
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return counts;
    },
  };
}

function statementShares(counts: Map<string, number>): StatementSample[] {
  const samples = counts.get('(samples)') ?? 1;
  return [...counts]
    .filter(([name]) => name !== '(samples)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([name, count]) => ({ name, inFlight: Math.round((count / samples) * 100) / 100 }));
}
