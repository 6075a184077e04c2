// Many threads (issue 29, item 6): the operations on a small thread of a store that holds thousands of
// other threads and one big one, against the same operations on the same small thread alone in a
// store. Two local Neo4j stores and a service on each, measured side by side in one interleaved run:
// what the crowd costs a small thread shows as the ratio, whatever else the machine is doing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import type { PlannerSettings } from '../src/domain/planner.js';
import type { ProviderDefinition } from '../src/domain/providers.js';
import { createDriver } from '../src/graph/driver.js';
import { startLocalNeo4j } from '../src/graph/localNeo4j.js';
import { applyMigrations } from '../src/graph/migrations.js';
import { Graph } from '../src/graph/transactions.js';
import { startService } from '../src/server/app.js';
import { createLogger } from '../src/server/logger.js';
import { THREAD_INDEX_QUERY } from '../src/viewer/queries.js';
import { Api } from './api.js';
import { interleaved, type Case, type Stats } from './measure.js';
import { seedSmallThreads, seedThread } from './seed.js';
import { viewerFirstPaint } from './viewerFirstPaint.js';

/** The target: each operation on a small thread of the crowded store within this of the empty store. */
export const CROWD_FLAT = 1.2;

export interface ManyThreadsFigures {
  /** Small threads beside the measured one, their runs each, and the big thread's runs. */
  crowd: number;
  runsPerThread: number;
  bigThreadRuns: number;
  /** Threads of one index page that the otherwise empty store holds too (absent in results before 2026-12-07: none). */
  indexPage?: number;
  seedSeconds: number;
  /** Per operation: its timings in the store holding only the small thread (and one index page of threads) and in the crowded one, and crowded / empty. */
  operations: { name: string; empty: Stats; crowded: Stats; ratio: number | null }[];
}

const DATABASE = 'neo4j';
/** Warm-up iterations at least, after the restart: both JVMs compile the hot code again. */
const RESTARTED_WARMUP = 10;
const SMALL = 'small-thread';
/** THREAD_INDEX_QUERY's page: threads the otherwise empty store holds too, so that both pages are full. */
const INDEX_PAGE = 25;
const COVERAGE = `query Coverage($id: ID!) { providerThread(id: $id) { coverage {
  nativeRanges { from to } handoffRanges { from to } missingRanges { from to } coveredThroughOrdinal handoffIds } } }`;
const MATRIX = `query Matrix($id: ID!) { thread(id: $id) { coverageMatrix {
  providerThreads { id } rows { ordinal cells { providerThreadId kind } } hasNextPage } } }`;
const PREVIEW = `query Preview($input: PlanRunInput!) { previewRun(input: $input) { plan { decision } context pendingWriter } }`;

interface Store {
  label: 'empty' | 'crowded';
  api: Api;
  driver: ReturnType<typeof createDriver>;
  /** Stops the service and Neo4j, keeping the store's files. */
  stop: () => Promise<void>;
}

/** Neo4j on the store's folder (a new one, or one written before) and a service on it. */
async function startStore(
  label: Store['label'],
  storeDir: string,
  options: { heap: string; pageCache: string },
): Promise<Store> {
  const local = await startLocalNeo4j({ storeDir, heap: options.heap, pageCache: options.pageCache });
  try {
    const driver = createDriver({ uri: local.uri, user: 'neo4j', password: null, database: DATABASE });
    await applyMigrations(new Graph(driver, DATABASE, ''));
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
    const service = await startService(
      { ...config, neo4j: { ...config.neo4j, database: DATABASE } },
      driver,
      createLogger('silent'),
    );
    return {
      label,
      api: new Api(service.url),
      driver,
      stop: async () => {
        await service.close();
        await driver.close();
        await local.stop();
      },
    };
  } catch (error) {
    await local.stop();
    throw error;
  }
}

/** The small thread's operations on one store, each a case named "<operation> <store>". */
async function storeCases(store: Store, providers: [ProviderDefinition, ProviderDefinition], head: number) {
  const { api, label } = store;
  const [main, other] = [providers[0].id, providers[1].id];
  const headThread = (await api.planRun({ threadId: SMALL, provider: main })).providerThread!.id;
  const viewer = viewerFirstPaint();
  let fresh = 0;
  const reads: [string, () => Promise<unknown>][] = [
    ['planRun', () => api.planRun({ threadId: SMALL, provider: other })],
    ['previewRun DELTA_HANDOFF', () => api.request(PREVIEW, { input: { threadId: SMALL, provider: other } })],
    ["viewer's first paint", () => viewer.paint(api, SMALL)],
    ['ProviderThread.coverage', () => api.request(COVERAGE, { id: headThread })],
    ['Thread.coverageMatrix', () => api.request(MATRIX, { id: SMALL })],
    ['thread index page', () => api.request(THREAD_INDEX_QUERY, {})],
  ];
  const cases: Case[] = reads.map(([name, work]) => ({
    name: `${name} ${label}`,
    run: async () => void (await work()),
  }));
  cases.push({
    name: `round ${label}`,
    run: async (step) => {
      const started = await step(`startRun NO_HANDOFF ${label}`, () =>
        api.startRun({ threadId: SMALL, provider: main, userMessage: 'bench round' }),
      );
      await step(`completeRun ${label}`, () => api.completeRun(started.run.id));
      const rolledBack = await step(`rollbackThread to head-1 ${label}`, () => api.rollbackThread(SMALL, head));
      for (const entry of rolledBack.providerThreads)
        if (entry.action === 'ROLLED_BACK') await api.confirmProviderRollback(entry.providerThread.id);
    },
  });
  cases.push({
    name: `new thread ${label}`,
    run: async (step) => {
      const id = `fresh-${label}-${fresh++}`;
      await step(`createThread ${label}`, () =>
        api.request(`mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`, { input: { id } }),
      );
      const started = await step(`a new thread's first run ${label}`, () =>
        api.startRun({ threadId: id, provider: main, userMessage: 'first' }),
      );
      await api.completeRun(started.run.id);
    },
  });
  return cases;
}

export async function measureManyThreads(options: {
  crowd: number;
  runsPerThread: number;
  bigThreadRuns: number;
  iterations: number;
  warmup: number;
  providers: [ProviderDefinition, ProviderDefinition];
  planner: PlannerSettings;
  heap: string;
  pageCache: string;
  log: (line: string) => void;
}): Promise<ManyThreadsFigures> {
  const { crowd, runsPerThread, bigThreadRuns, providers, planner, log } = options;
  const labels = ['empty', 'crowded'] as const;
  const storeDirs: string[] = [];
  let stores: Store[] = [];
  try {
    for (const label of labels) {
      storeDirs.push(await mkdtemp(path.join(tmpdir(), `threadline-bench-${label}-`)));
      stores.push(await startStore(label, storeDirs.at(-1)!, options));
    }
    const started = performance.now();
    const seedOptions = { size: runsPerThread, providers, planner };
    for (const store of stores) await seedThread(store.driver, DATABASE, { ...seedOptions, threadId: SMALL });
    const [empty, crowded] = [stores[0]!, stores[1]!];
    // The thread index page shows the newest threads of the store: alone, the small thread (and the
    // few the rounds create) would make a page shorter than the crowded store's, cheaper to read, not
    // faster. One page of threads like the crowd's on both sides compares the same page's cost.
    await seedSmallThreads(empty.driver, DATABASE, {
      ...seedOptions,
      threadIds: Array.from({ length: INDEX_PAGE }, (_, i) => `page-${i}`),
    });
    log(`many threads: seeding a thread of ${bigThreadRuns} runs and ${crowd} threads of ${runsPerThread} runs`);
    await seedThread(crowded.driver, DATABASE, { ...seedOptions, size: bigThreadRuns, threadId: 'big-thread' });
    const crowdSeed = await seedSmallThreads(crowded.driver, DATABASE, {
      ...seedOptions,
      threadIds: Array.from({ length: crowd }, (_, i) => `crowd-${i}`),
      log,
    });
    log(`  ${crowd} threads in ${crowdSeed.seconds.toFixed(0)} s (${Math.round(crowdSeed.runsPerSecond)} runs/s)`);
    const seedSeconds = (performance.now() - started) / 1000;
    // Seeding a million runs compiles Neo4j's hot code in the crowded store's JVM and hardly any in
    // the empty one's, which made the crowded store the faster (0.62x to 0.99x with a crowd of
    // 10,000). Both start again from their files, so the two are measured from the same state.
    log('many threads: restarting both stores, so that neither is measured warmer than the other');
    for (const store of stores) await store.stop();
    stores = [];
    for (const [i, label] of labels.entries()) stores.push(await startStore(label, storeDirs[i]!, options));
    // The seed's last run is live: the round's rollback goes back to it.
    const cases = [
      ...(await storeCases(stores[0]!, providers, runsPerThread)),
      ...(await storeCases(stores[1]!, providers, runsPerThread)),
    ];
    const latency = await interleaved(cases, options.iterations, Math.max(options.warmup, RESTARTED_WARMUP));
    const names = [...new Set(Object.keys(latency).map((name) => name.replace(/ (empty|crowded)$/, '')))].filter(
      (name) => latency[`${name} empty`] && latency[`${name} crowded`] && !/^(round|new thread)$/.test(name),
    );
    return {
      crowd,
      runsPerThread,
      bigThreadRuns,
      indexPage: INDEX_PAGE,
      seedSeconds: Math.round(seedSeconds),
      operations: names.map((name) => {
        const [empty, full] = [latency[`${name} empty`]!, latency[`${name} crowded`]!];
        return {
          name,
          empty,
          crowded: full,
          ratio: empty.n && full.n ? Math.round((full.medianMs / empty.medianMs) * 100) / 100 : null,
        };
      }),
    };
  } finally {
    for (const store of stores) await store.stop();
    for (const storeDir of storeDirs) await rm(storeDir, { recursive: true, force: true });
  }
}
