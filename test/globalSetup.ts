// One real Neo4j for the integration run, chosen by chooseNeo4j like the service's: NEO4J_URI when
// set, else a container when a Docker engine answers, else a throwaway local Neo4j from Maven Central's
// jars. And the lineage viewer's browser modules compiled from this tree, which every service serves.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ProvidedContext } from 'vitest';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../src/config.js';
import { describeViolations, runAudit } from '../src/graph/audit.js';
import { chooseNeo4j, type ChosenNeo4j } from '../src/graph/chooseNeo4j.js';
import { createDriver, type Neo4jConnection } from '../src/graph/driver.js';
import { applyMigrations } from '../src/graph/migrations.js';
import { NEO4J_VERSION } from '../src/graph/localNeo4jInstall.js';
import { projectRoot } from '../src/graph/projectRoot.js';
import { Graph } from '../src/graph/transactions.js';
import { TEST_NEO4J_SETTINGS } from './support/neo4jSettings.js';

declare module 'vitest' {
  export interface ProvidedContext {
    neo4j: Neo4jConnection & { source: ChosenNeo4j['source'] };
  }
}

type TestNeo4j = ProvidedContext['neo4j'];

// Vitest runs this once for each project that names it (integration, reliability): the first starts
// the Neo4j, the others share it, and the last teardown stops it.
const SHARED = Symbol.for('threadline.test.neo4j');
interface Shared {
  neo4j: Promise<{ connection: TestNeo4j; stop: () => Promise<void> }>;
  viewer: Promise<unknown>;
  users: number;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const registry = globalThis as { [SHARED]?: Shared };
  const shared = (registry[SHARED] ??= {
    neo4j: startNeo4j(),
    viewer: promisify(execFile)('npm', ['run', '--silent', 'build:viewer'], { cwd: projectRoot() }),
    users: 0,
  });
  shared.users++;
  const [{ connection, stop }] = await Promise.all([shared.neo4j, shared.viewer]);
  project.provide('neo4j', connection);
  return async () => {
    if (--shared.users > 0) return;
    delete registry[SHARED];
    try {
      await auditWholeGraph(connection);
    } finally {
      await stop();
    }
  };
}

/**
 * Once after the run, every tenant: the audit after each file reads only the tenants it said it
 * writes under (test/support/tenants.ts), and this finds what one wrote under another. A violating
 * element names its tenant, and a file's tenant names the file.
 */
async function auditWholeGraph(connection: TestNeo4j): Promise<void> {
  const driver = createDriver(connection);
  try {
    const violations = await runAudit(driver, connection.database);
    if (violations.length > 0)
      throw new Error(
        `The invariant audit of the whole graph after the run found ${violations.length} violation(s):\n${describeViolations(violations)}`,
      );
  } finally {
    await driver.close();
  }
}

async function startNeo4j(): Promise<{ connection: TestNeo4j; stop: () => Promise<void> }> {
  const chosen = await chooseNeo4j(loadConfig(process.env).neo4j, {
    start: 'throwaway',
    storePrefix: 'threadline-test-neo4j-',
    password: 'threadline-test',
    heap: '1g',
    pageCache: '256m',
    // The JIT's two tiers, unlike the own-neo4j files' short-lived Neo4j processes (C1 alone): since
    // each statement is planned once (TEST_NEO4J_SETTINGS), C2's code pays back over a run. With C1
    // alone this Neo4j took 280-294 CPU seconds of a run and the run 520-543 s; with both, 251 and 467.
    // C2 compiling was still a third of its CPU (94-106 of 249-283 CPU seconds over the graph,
    // integration and reliability tiers): it never runs long enough to want C2's deepest inlining.
    // With less of it C2 took 52-55 CPU seconds, this Neo4j 207-218 and those tiers 233-243 s
    // instead of 254-284. Inlining less still (FreqInlineSize=50) made the Bolt workers slower by more.
    jvmFlags: ['-XX:FreqInlineSize=100', '-XX:InlineSmallCode=1000'],
    settings: TEST_NEO4J_SETTINGS,
    progress: () => undefined,
    instead: startContainerIfDockerAnswers,
  });
  const connection = { ...chosen.connection, source: chosen.source };
  // The schema in place before any file starts: files run side by side, and a service that finds
  // another applying the migrations answers 503 until it is done.
  const driver = createDriver(connection);
  try {
    await applyMigrations(new Graph(driver, connection.database, ''));
  } finally {
    await driver.close();
  }
  return { connection, stop: () => chosen.close() };
}

async function startContainerIfDockerAnswers(): Promise<ChosenNeo4j | null> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch {
    return null; // no Docker engine: the local Neo4j it is
  }
  const { Neo4jContainer } = await import('@testcontainers/neo4j');
  const container = await new Neo4jContainer(`neo4j:${NEO4J_VERSION}-community`)
    .withPassword('threadline-test')
    .start();
  return {
    connection: {
      uri: container.getBoltUri().replace(/\/$/, ''),
      user: container.getUsername(),
      password: container.getPassword(),
      database: 'neo4j',
    },
    source: 'container',
    local: null,
    close: async () => {
      await container.stop();
    },
  };
}
