// Which Neo4j a process works on, decided in this one place for the service, the command-line tools,
// the tests, the benchmark and the fuzzer: the one NEO4J_URI names when it is set; otherwise a local
// Neo4j (localNeo4j.ts), in the way the caller asks for.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Neo4jConnection } from './driver.js';
import { startLocalNeo4j, type LocalNeo4j } from './localNeo4j.js';
import { NEO4J_VERSION } from './localNeo4jInstall.js';

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
   * auth when a password is set.
   */
  | { start: 'store'; dataDir: string; heap: string; pageCache: string; progress: (message: string) => void; neo4jLog?: (line: string) => void }
  /** The command-line tools: they never start a Neo4j. */
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
      progress: (message: string) => void;
      instead?: () => Promise<ChosenNeo4j | null>;
    };

export interface ChosenNeo4j {
  connection: Neo4jConnection;
  /** NEO4J_URI; a local Neo4j this process started; a container. */
  source: 'env' | 'local' | 'container';
  /** The local Neo4j this process started, if it did. */
  local: LocalNeo4j | null;
  /** Stops what this process started (removing a throwaway store); leaves any other Neo4j alone. */
  close(): Promise<void>;
}

/** No Neo4j to use, in words for the user of the tool that asked. */
export class NoNeo4jError extends Error {}

export async function chooseNeo4j(settings: Neo4jSettings, withoutUri: WithoutUri): Promise<ChosenNeo4j> {
  const { user, password, database } = settings;
  if (settings.uri !== null) {
    return { connection: { uri: settings.uri, user, password, database }, source: 'env', local: null, close: async () => undefined };
  }
  switch (withoutUri.start) {
    case 'store': {
      const storeDir = path.resolve(withoutUri.dataDir, 'neo4j');
      withoutUri.progress(`NEO4J_URI is not set: starting the local Neo4j ${NEO4J_VERSION}, store ${storeDir}`);
      const local = await startLocalNeo4j({
        storeDir,
        password: password ?? undefined,
        heap: withoutUri.heap,
        pageCache: withoutUri.pageCache,
        log: withoutUri.neo4jLog,
      });
      return {
        connection: { uri: local.uri, user, password, database },
        source: 'local',
        local,
        close: () => local.stop(),
      };
    }
    case 'none':
      throw new NoNeo4jError(
        `${withoutUri.tool} needs a running Neo4j, and NEO4J_URI is not set: set it (e.g. bolt://127.0.0.1:7687) and, as needed, NEO4J_USER, NEO4J_PASSWORD and NEO4J_DATABASE. ` +
          'It does not start the local Neo4j; while `npm start` runs one, point NEO4J_URI at it.',
      );
    case 'throwaway': {
      const other = await withoutUri.instead?.();
      if (other) return other;
      const storeDir = await mkdtemp(path.join(tmpdir(), withoutUri.storePrefix));
      withoutUri.progress(`booting a local Neo4j ${NEO4J_VERSION} in ${storeDir} (heap ${withoutUri.heap}, page cache ${withoutUri.pageCache})`);
      const throwawayPassword = withoutUri.password ?? null;
      const local = await startLocalNeo4j({
        storeDir,
        password: throwawayPassword ?? undefined,
        heap: withoutUri.heap,
        pageCache: withoutUri.pageCache,
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
