// `npm start`: configuration, Neo4j (given or local), then the HTTP service; Ctrl-C stops both.
import { ConfigError, isLoopback, loadConfig } from '../config.js';
import { createDriver } from '../graph/driver.js';
import { startService } from './app.js';
import { createLogger } from './logger.js';
import { connectNeo4j } from './neo4jConnection.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const { connection, local } = await connectNeo4j(config, logger);
  const driver = createDriver(connection);
  const service = await startService(config, driver, logger);
  if (config.apiKeys.size === 0) {
    const everywhere = config.host === '0.0.0.0' || config.host === '::';
    const reach = isLoopback(config.host) ? `${config.host} only` : `${everywhere ? 'every interface' : config.host}, with no authentication (THREADLINE_ALLOW_UNAUTHENTICATED_NETWORK)`;
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
    await local?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
