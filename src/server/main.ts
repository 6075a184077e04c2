// `npm start`: configuration, Neo4j (given or local), then the HTTP service; Ctrl-C stops both.
import { ConfigError, isLoopback, loadConfig } from '../config.js';
import { chooseNeo4j, NoNeo4jError } from '../graph/chooseNeo4j.js';
import { createDriver } from '../graph/driver.js';
import { startService } from './app.js';
import { createLogger } from './logger.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // NEO4J_URI when set; otherwise the local Neo4j, its store under THREADLINE_DATA_DIR so data survives restarts.
  const neo4j = await chooseNeo4j(config.neo4j, {
    start: 'store',
    dataDir: config.dataDir,
    heap: config.neo4j.heap,
    pageCache: config.neo4j.pageCache,
    progress: (message) => logger.info(message),
    neo4jLog: (line) => logger.debug({ neo4j: line }),
  });
  const { connection, local } = neo4j;
  const driver = createDriver(connection);
  const service = await startService(config, driver, logger).catch(async (error: unknown) => {
    await driver.close();
    await neo4j.close(); // a local Neo4j stops with the service that started it, and its record goes
    throw error;
  });
  if (config.apiKeys.size === 0) {
    const everywhere = config.host === '0.0.0.0' || config.host === '::';
    const reach = isLoopback(config.host)
      ? `${config.host} only`
      : `${everywhere ? 'every interface' : config.host}, with no authentication (THREADLINE_ALLOW_UNAUTHENTICATED_NETWORK)`;
    logger.warn(`No THREADLINE_API_KEYS: single-tenant mode (tenant "local"), listening on ${reach}.`);
  }
  console.log(`Threadline GraphQL at ${service.url}`);
  console.log(`Neo4j at ${connection.uri}${local ? ` (local, store ${config.dataDir})` : ''}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await service.close();
    await driver.close();
    await neo4j.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof NoNeo4jError ? error.message : error);
  process.exit(1);
});
