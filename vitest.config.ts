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
  test: {
    projects: [
      {
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        // The service's behaviour: the real graph through HTTP.
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'], ...onTheGraph },
      },
      {
        // The service under stress: races, faults, hostile input, random operation sequences, the browser.
        test: { name: 'reliability', include: ['test/reliability/**/*.test.ts'], ...onTheGraph },
      },
    ],
  },
});
