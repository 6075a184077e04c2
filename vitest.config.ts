import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SHORT_LIVED_JVM_FLAGS } from './src/graph/localNeo4jInstall.js';

// What every test on the real graph shares.
const onTheGraph = {
  // One Neo4j for the whole run, whichever projects run (test/globalSetup.ts); files isolate their data by unique ids.
  globalSetup: ['test/globalSetup.ts'],
  // Fails a file when the shared graph violates an invariant of cypher/audit/ after it.
  setupFiles: ['test/support/auditAfterFile.ts'],
  testTimeout: 60_000,
  hookTimeout: 240_000,
};

/**
 * The longest files first, so that no worker is left with one of them at the end: the files that
 * boot Neo4j processes of their own, then the reliability tier, then the rest. Within a tier,
 * vitest's own order (slowest of the last run first, else the largest file).
 */
const TIER_ORDER = ['own-neo4j', 'reliability', 'integration', 'graph', 'unit'];

class LongestTiersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => TIER_ORDER.indexOf(file.project.name);
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  // graphql has no "exports" map: Node loads its CommonJS entry for the packages that import it
  // (Apollo, graphql-tools, graphql-ws), while Vite would give the project's own files its ES module,
  // and graphql refuses a schema from the other copy. One copy, as under plain Node.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    // Two files at a time whatever the machine: most of a file's time is spent waiting on Neo4j, the
    // service or a child process, so two files keep two cores (and the shared Neo4j) busy, where
    // vitest's default (one fewer than the cores) would run one file at a time on two.
    maxWorkers: 2,
    // A worker keeps its modules from one file to the next: importing the service for every file
    // again cost more than many files' tests. The files share no state but the graph.
    isolate: false,
    sequence: { sequencer: LongestTiersFirst },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        // The repositories and their mapping on the real graph, without the service or HTTP.
        extends: true,
        test: { name: 'graph', include: ['test/graph/**/*.test.ts'], ...onTheGraph },
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
          // Their Neo4j processes live for a test: compiling with C1 alone takes about 40% less CPU to
          // start one than the JIT's two tiers do, and these never run long enough for C2 to pay back
          // (with both tiers the tier alone took 280 s and 525 CPU seconds instead of 213 and 371).
          // The serial collector spares a small heap G1's concurrent threads: a start and stop of a new
          // store took 4.5 instead of 6.3 CPU seconds, and these files' Neo4j processes 207 instead
          // of 252 over a run.
          env: { JDK_JAVA_OPTIONS: SHORT_LIVED_JVM_FLAGS.join(' ') },
        },
      },
    ],
  },
});
