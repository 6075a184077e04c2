import { defineConfig } from 'vitest/config';

// What every test on the real graph shares.
const onTheGraph = {
  // One Neo4j for the whole run, whichever projects run (test/globalSetup.ts); files isolate their data by unique ids.
  globalSetup: ['test/globalSetup.ts'],
  // Fails a file when the shared graph violates an invariant of cypher/audit/ after it.
  setupFiles: ['test/support/auditAfterFile.ts'],
  testTimeout: 60_000,
  hookTimeout: 240_000,
};

export default defineConfig({
  // graphql has no "exports" map: Node loads its CommonJS entry for the packages that import it
  // (Apollo, graphql-tools, graphql-ws), while Vite would give the project's own files its ES module,
  // and graphql refuses a schema from the other copy. One copy, as under plain Node.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        // The service's behaviour: the real graph through HTTP.
        extends: true,
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'], ...onTheGraph },
      },
      {
        // The service under stress: races, faults, hostile input, random operation sequences, the browser.
        extends: true,
        test: { name: 'reliability', include: ['test/reliability/**/*.test.ts'], ...onTheGraph },
      },
      {
        // Files that start Neo4j processes of their own (the local Neo4j's life, faults, backups,
        // startup, a second Neo4j to load an export into): about a minute each, run once by CI.
        extends: true,
        test: {
          name: 'own-neo4j',
          include: ['test/own-neo4j/**/*.test.ts'],
          ...onTheGraph,
        },
      },
    ],
  },
});
