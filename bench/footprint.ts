// What a thread costs on disk: for each size, one local Neo4j store holding only that thread, its
// data files measured after a clean shutdown against a store that holds none, and the bytes its
// seeding appended to the transaction log. Only possible when the bench runs its own Neo4j.
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PlannerSettings } from '../src/domain/planner.js';
import type { ProviderDefinition } from '../src/domain/providers.js';
import { createDriver } from '../src/graph/driver.js';
import { startLocalNeo4j } from '../src/graph/localNeo4j.js';
import { applyMigrations } from '../src/graph/migrations.js';
import { Graph } from '../src/graph/transactions.js';
import { seedThread } from './seed.js';

export interface StoreFootprint {
  size: number;
  /** Data files of the database directory after a clean shutdown, less those of a store without the thread. */
  storeBytes: number;
  /** Transaction-log bytes the seeding appended. */
  txLogBytes: number;
}

const DATABASE = 'neo4j';
const DATABASE_DIR = path.join('data', 'databases', DATABASE);
const TX_LOG_DIR = path.join('data', 'transactions', DATABASE);
const TX_LOG_FILE = /^neostore\.transaction\.db\.(\d+)$/;

export async function measureFootprints(options: {
  sizes: number[];
  providers: ProviderDefinition[];
  planner: PlannerSettings;
  heap: string;
  pageCache: string;
  log: (line: string) => void;
}): Promise<StoreFootprint[]> {
  const empty = await withStore(options, () => Promise.resolve(undefined));
  options.log(`  footprint: a store without threads holds ${empty.databaseBytes} bytes`);
  const footprints: StoreFootprint[] = [];
  for (const size of options.sizes) {
    const measured = await withStore(options, async (driver, storeDir) => {
      const log = new TxLogMeter(path.join(storeDir, TX_LOG_DIR));
      await log.sample();
      const before = log.bytes();
      await seedThread(driver, DATABASE, {
        threadId: `footprint-${size}`,
        size,
        providers: options.providers,
        planner: options.planner,
        afterBatch: () => log.sample(),
      });
      await log.sample();
      return log.bytes() - before;
    });
    const footprint = { size, storeBytes: measured.databaseBytes - empty.databaseBytes, txLogBytes: measured.result };
    options.log(
      `  footprint ${size} runs: ${footprint.storeBytes} store bytes, ${footprint.txLogBytes} transaction-log bytes`,
    );
    footprints.push(footprint);
  }
  return footprints;
}

/** A fresh store with the service's schema: `work` runs against it, then Neo4j stops cleanly and the database directory is measured. */
async function withStore<T>(
  options: { heap: string; pageCache: string },
  work: (driver: ReturnType<typeof createDriver>, storeDir: string) => Promise<T>,
): Promise<{ result: T; databaseBytes: number }> {
  const storeDir = await mkdtemp(path.join(tmpdir(), 'threadline-bench-footprint-'));
  try {
    const local = await startLocalNeo4j({ storeDir, heap: options.heap, pageCache: options.pageCache });
    let result: T;
    try {
      const driver = createDriver({ uri: local.uri, user: 'neo4j', password: null, database: DATABASE });
      try {
        await applyMigrations(new Graph(driver, DATABASE, ''));
        result = await work(driver, storeDir);
      } finally {
        await driver.close();
      }
    } finally {
      await local.stop();
    }
    return { result, databaseBytes: await directoryBytes(path.join(storeDir, DATABASE_DIR)) };
  } finally {
    await rm(storeDir, { recursive: true, force: true });
  }
}

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    total += entry.isDirectory() ? await directoryBytes(child) : (await stat(child)).size;
  }
  return total;
}

/**
 * Bytes written to the transaction log. Neo4j preallocates each log file to its rotation size, so a
 * file's length says nothing: what counts is up to its last non-zero byte. A checkpoint may prune
 * rotated files, so a file is sampled until a newer one exists, and its last sample kept.
 */
class TxLogMeter {
  private readonly written = new Map<number, number>();
  private readonly rotated = new Set<number>();

  constructor(private readonly dir: string) {}

  async sample(): Promise<void> {
    const versions = (await readdir(this.dir)).flatMap((name) => {
      const version = TX_LOG_FILE.exec(name)?.[1];
      return version === undefined ? [] : [Number(version)];
    });
    const newest = Math.max(...versions);
    for (const version of versions) {
      if (this.rotated.has(version)) continue;
      // A checkpoint may have pruned it since the listing: its last sample stands.
      const content = await readFile(path.join(this.dir, `neostore.transaction.db.${version}`)).catch(() => null);
      if (!content) continue;
      let end = content.length;
      while (end > 0 && content[end - 1] === 0) end--;
      this.written.set(version, end);
      if (version < newest) this.rotated.add(version);
    }
  }

  bytes(): number {
    return [...this.written.values()].reduce((a, b) => a + b, 0);
  }
}
