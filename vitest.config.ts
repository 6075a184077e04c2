import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // One Neo4j for the whole run (test/globalSetup.ts); files isolate their data by unique ids.
          globalSetup: ['test/globalSetup.ts'],
          // Fails a file when the shared graph violates an invariant of cypher/audit/ after it.
          setupFiles: ['test/support/auditAfterFile.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
