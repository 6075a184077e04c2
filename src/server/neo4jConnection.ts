import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Neo4jConnection } from '../graph/driver.js';
import { startLocalNeo4j, type LocalNeo4j } from '../graph/localNeo4j.js';

/** NEO4J_URI when set; otherwise the local Neo4j, its store under THREADLINE_DATA_DIR so data survives restarts. */
export async function connectNeo4j(config: Config, logger: Logger): Promise<{ connection: Neo4jConnection; local: LocalNeo4j | null }> {
  const { uri, user, password, database } = config.neo4j;
  if (uri !== null) return { connection: { uri, user, password, database }, local: null };
  const storeDir = resolve(join(config.dataDir, 'neo4j'));
  logger.info({ storeDir }, 'NEO4J_URI is not set: starting the local Neo4j');
  const local = await startLocalNeo4j({
    storeDir,
    password: password ?? undefined,
    heap: config.neo4j.heap,
    pageCache: config.neo4j.pageCache,
    log: (line) => logger.debug({ neo4j: line }),
  });
  return { connection: { uri: local.uri, user, password, database }, local };
}
