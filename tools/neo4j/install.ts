/**
 * `npm run neo4j:install`: fetches the Neo4j Community jars, compiles the launcher and archives
 * the classes a start loads, into .cache/neo4j/<version>.
 * Does nothing when that is already done; the server and the tests run the same check before starting Neo4j.
 */
import { ensureLocalNeo4jInstalled, NEO4J_VERSION } from '../../src/graph/localNeo4jInstall.js';

try {
  const started = Date.now();
  const { classPath, classArchive } = await ensureLocalNeo4jInstalled({ progress: (message) => console.log(message) });
  console.log(
    `Local Neo4j ${NEO4J_VERSION} is installed (${((Date.now() - started) / 1000).toFixed(1)} s):\n  class path:    ${classPath}\n  class archive: ${classArchive}`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
