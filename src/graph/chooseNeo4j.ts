// Which Neo4j a process works on, decided in this one place for the service, the command-line tools,
// the tests, the benchmark and the fuzzer: the one NEO4J_URI names when it is set; otherwise a local
// Neo4j (localNeo4j.ts), in the way the caller asks for.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Neo4jConnection } from './driver.js';
import { startLocalNeo4j, type LocalNeo4j } from './localNeo4j.js';
import { NEO4J_VERSION } from './localNeo4jInstall.js';
import {
  localNeo4jRecordFile,
  readLocalNeo4jRecord,
  removeLocalNeo4jRecord,
  writeLocalNeo4jRecord,
} from './localNeo4jState.js';

/** The Neo4j settings of the configuration (src/config.ts); `uri` is null when NEO4J_URI is not set. */
export interface Neo4jSettings {
  uri: string | null;
  user: string;
  password: string | null;
  database: string;
}

/** What to do when NEO4J_URI is not set. */
export type WithoutUri =
  /**
   * `npm start`: start the local Neo4j on its store in <dataDir>/neo4j (data survives restarts), with
   * auth when a password is set, and record it in <dataDir>/neo4j.json while it runs.
   */
  | {
      start: 'store';
      dataDir: string;
      heap: string;
      pageCache: string;
      progress: (message: string) => void;
      neo4jLog?: (line: string) => void;
    }
  /** The command-line tools: the local Neo4j that a running `npm start` recorded. They never start one. */
  | { start: 'none'; dataDir: string; tool: string }
  /**
   * Tests, the benchmark, the fuzzer: a local Neo4j on a fresh store in the temporary directory, which
   * close() removes; `instead` may offer another first (the tests' container when Docker answers).
   */
  | {
      start: 'throwaway';
      storePrefix: string;
      heap: string;
      pageCache: string;
      password?: string;
      jvmFlags?: string[];
      settings?: Record<string, string>;
      progress: (message: string) => void;
      instead?: () => Promise<ChosenNeo4j | null>;
    };

export interface ChosenNeo4j {
  connection: Neo4jConnection;
  /** NEO4J_URI; a local Neo4j this process started; the one a running `npm start` recorded; a container. */
  source: 'env' | 'local' | 'running' | 'container';
  /** The local Neo4j this process started, if it did. */
  local: LocalNeo4j | null;
  /** Stops what this process started (removing a throwaway store); leaves any other Neo4j alone. */
  close(): Promise<void>;
}

// What Neo4j says when another process holds its store's lock file.
const STORE_LOCKED = /locked by another process|FileLockException/;

/** No Neo4j to use, in words for the user of the tool that asked. */
export class NoNeo4jError extends Error {}

export async function chooseNeo4j(settings: Neo4jSettings, withoutUri: WithoutUri): Promise<ChosenNeo4j> {
  const { user, password, database } = settings;
  if (settings.uri !== null) {
    return {
      connection: { uri: settings.uri, user, password, database },
      source: 'env',
      local: null,
      close: () => Promise.resolve(),
    };
  }
  switch (withoutUri.start) {
    case 'store': {
      const storeDir = path.resolve(withoutUri.dataDir, 'neo4j');
      // Neo4j locks its store: a second start on it would end in a page of Java stack.
      const running = await readLocalNeo4jRecord(withoutUri.dataDir);
      if (running?.alive)
        throw new NoNeo4jError(
          `The store ${storeDir} is already in use by another start (Neo4j pid ${running.record.pid} at ${running.record.uri}, since ${running.record.startedAt}): stop that one (Ctrl-C), or start this one on another store with --data-dir (or THREADLINE_DATA_DIR).`,
        );
      withoutUri.progress(`NEO4J_URI is not set: starting the local Neo4j ${NEO4J_VERSION} on its store ${storeDir}`);
      const local = await startLocalNeo4j({
        storeDir,
        password: password ?? undefined,
        heap: withoutUri.heap,
        pageCache: withoutUri.pageCache,
        progress: withoutUri.progress,
        log: withoutUri.neo4jLog,
      }).catch((error: unknown) => {
        // A Neo4j this project did not record (another tool's, or one whose record was lost) holds the lock.
        if (error instanceof Error && STORE_LOCKED.test(error.message))
          throw new NoNeo4jError(
            `The store ${storeDir} is locked by another Neo4j process: stop the Neo4j that has it open, or start on another store with --data-dir (or THREADLINE_DATA_DIR).`,
          );
        throw error;
      });
      const record = {
        uri: local.uri,
        pid: local.pid,
        startedAt: new Date().toISOString(),
        storeDir,
        version: local.version,
        auth: password !== null,
      };
      await writeLocalNeo4jRecord(withoutUri.dataDir, record);
      return {
        connection: { uri: local.uri, user, password, database },
        source: 'local',
        local,
        close: async () => {
          await removeLocalNeo4jRecord(withoutUri.dataDir, local.pid);
          await local.stop();
        },
      };
    }
    case 'none': {
      const found = await readLocalNeo4jRecord(withoutUri.dataDir);
      const file = readablePath(localNeo4jRecordFile(withoutUri.dataDir));
      const remedy =
        'Start the service with `npm start` (its local Neo4j is then found by itself), or set NEO4J_URI ' +
        '(and NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE) to the Neo4j to read.';
      if (found === null) {
        throw new NoNeo4jError(
          `${withoutUri.tool} needs a running Neo4j: NEO4J_URI is not set, and no local Neo4j of \`npm start\` runs (none is recorded in ${file}). ${remedy}`,
        );
      }
      if (!found.alive) {
        throw new NoNeo4jError(
          `${withoutUri.tool} needs a running Neo4j: NEO4J_URI is not set, and the local Neo4j recorded in ${file} (pid ${found.record.pid}, started ${found.record.startedAt}) no longer runs. ${remedy}`,
        );
      }
      if (found.record.auth && password === null) {
        throw new NoNeo4jError(
          `${withoutUri.tool}: the local Neo4j at ${found.record.uri} was started with a password; set NEO4J_PASSWORD to the same one.`,
        );
      }
      return {
        connection: { uri: found.record.uri, user, password, database },
        source: 'running',
        local: null,
        close: () => Promise.resolve(),
      };
    }
    case 'throwaway': {
      const other = await withoutUri.instead?.();
      if (other) return other;
      const storeDir = await mkdtemp(path.join(tmpdir(), withoutUri.storePrefix));
      withoutUri.progress(
        `booting a local Neo4j ${NEO4J_VERSION} in ${storeDir} (heap ${withoutUri.heap}, page cache ${withoutUri.pageCache})`,
      );
      const throwawayPassword = withoutUri.password ?? null;
      const local = await startLocalNeo4j({
        storeDir,
        password: throwawayPassword ?? undefined,
        heap: withoutUri.heap,
        pageCache: withoutUri.pageCache,
        jvmFlags: withoutUri.jvmFlags,
        settings: withoutUri.settings,
        progress: withoutUri.progress,
      });
      return {
        connection: { uri: local.uri, user: 'neo4j', password: throwawayPassword, database: 'neo4j' },
        source: 'local',
        local,
        close: async () => {
          await local.stop();
          await rm(storeDir, { recursive: true, force: true });
        },
      };
    }
  }
}

/** Relative to the working directory when it lies below it (.threadline/neo4j.json), else absolute. */
function readablePath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
