// The Neo4j a read-only command-line tool works on, chosen by chooseNeo4j like the service's: the one
// NEO4J_URI (NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE) names, else the local Neo4j that a running
// `npm start` recorded in <THREADLINE_DATA_DIR>/neo4j.json. These tools never start a Neo4j.
import type { Driver } from 'neo4j-driver';
import { ConfigError, loadConfig, type Config } from '../src/config.js';
import { chooseNeo4j, NoNeo4jError } from '../src/graph/chooseNeo4j.js';
import { createDriver, type Neo4jConnection } from '../src/graph/driver.js';

export type ConfiguredNeo4j = { driver: Driver; connection: Neo4jConnection; config: Config } | { problem: string };

/** A driver for the configured Neo4j, or what stands in the way, worded for the user of `tool`. */
export async function connectConfiguredNeo4j(tool: string): Promise<ConfiguredNeo4j> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) return { problem: error.message };
    throw error;
  }
  try {
    const { connection } = await chooseNeo4j(config.neo4j, { start: 'none', dataDir: config.dataDir, tool });
    return { driver: createDriver(connection), connection, config };
  } catch (error) {
    if (error instanceof NoNeo4jError) return { problem: error.message };
    throw error;
  }
}
