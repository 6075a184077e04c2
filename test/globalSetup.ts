// One real Neo4j for the integration run, chosen like the service chooses: NEO4J_URI when set, else
// a container when a Docker engine answers, else the local Neo4j from Maven Central's jars.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProvidedContext } from 'vitest';
import type { TestProject } from 'vitest/node';
import type { Neo4jConnection } from '../src/graph/driver.js';
import { NEO4J_VERSION, startLocalNeo4j } from '../src/graph/localNeo4j.js';

declare module 'vitest' {
  export interface ProvidedContext {
    neo4j: Neo4jConnection & { source: 'env' | 'testcontainers' | 'local' };
  }
}

type TestNeo4j = ProvidedContext['neo4j'];

// Vitest runs this once for each project that names it (integration, reliability): the first starts
// the Neo4j, the others share it, and the last teardown stops it.
const SHARED = Symbol.for('threadline.test.neo4j');
interface Shared {
  neo4j: Promise<{ connection: TestNeo4j; stop: () => Promise<void> }>;
  users: number;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const registry = globalThis as { [SHARED]?: Shared };
  const shared = (registry[SHARED] ??= { neo4j: startNeo4j(), users: 0 });
  shared.users++;
  const { connection, stop } = await shared.neo4j;
  project.provide('neo4j', connection);
  return async () => {
    if (--shared.users > 0) return;
    delete registry[SHARED];
    await stop();
  };
}

async function startNeo4j(): Promise<{ connection: TestNeo4j; stop: () => Promise<void> }> {
  const { NEO4J_URI, NEO4J_USER = 'neo4j', NEO4J_PASSWORD, NEO4J_DATABASE = 'neo4j' } = process.env;
  if (NEO4J_URI) {
    return {
      connection: { uri: NEO4J_URI, user: NEO4J_USER, password: NEO4J_PASSWORD ?? null, database: NEO4J_DATABASE, source: 'env' },
      stop: () => Promise.resolve(),
    };
  }
  const container = await startContainerIfDockerAnswers();
  if (container) return { connection: { ...container.connection, source: 'testcontainers' }, stop: container.stop };
  const storeDir = await mkdtemp(join(tmpdir(), 'threadline-test-neo4j-'));
  const password = 'threadline-test';
  const local = await startLocalNeo4j({ storeDir, password, heap: '1g', pageCache: '256m' });
  return {
    connection: { uri: local.uri, user: 'neo4j', password, database: 'neo4j', source: 'local' },
    stop: async () => {
      await local.stop();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}

async function startContainerIfDockerAnswers(): Promise<{ connection: Neo4jConnection; stop: () => Promise<void> } | null> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch {
    return null; // no Docker engine: the local Neo4j it is
  }
  const { Neo4jContainer } = await import('@testcontainers/neo4j');
  const container = await new Neo4jContainer(`neo4j:${NEO4J_VERSION}-community`).withPassword('threadline-test').start();
  return {
    connection: { uri: container.getBoltUri().replace(/\/$/, ''), user: container.getUsername(), password: container.getPassword(), database: 'neo4j' },
    stop: async () => {
      await container.stop();
    },
  };
}
