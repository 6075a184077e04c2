// The Neo4j a read-only command-line tool works on: the one the service's configuration names
// (NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE). These tools never start the local Neo4j.
import type { Driver } from 'neo4j-driver';
import { ConfigError, loadConfig, type Config } from '../src/config.js';
import { createDriver } from '../src/graph/driver.js';

export type ConfiguredNeo4j = { driver: Driver; config: Config } | { problem: string };

/** A driver for the configured Neo4j, or what stands in the way, worded for the user of `tool`. */
export function connectConfiguredNeo4j(tool: string): ConfiguredNeo4j {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) return { problem: error.message };
    throw error;
  }
  const { uri, user, password, database } = config.neo4j;
  if (!uri) {
    return {
      problem:
        `${tool} needs a running Neo4j: set NEO4J_URI (e.g. bolt://127.0.0.1:7687) and, as needed, NEO4J_USER, NEO4J_PASSWORD and NEO4J_DATABASE. ` +
        'It does not start the local Neo4j; while `npm start` runs one, point NEO4J_URI at it.',
    };
  }
  return { driver: createDriver({ uri, user, password, database }), config };
}
