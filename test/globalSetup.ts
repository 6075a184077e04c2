// One real Neo4j for the integration run, chosen like the service chooses: NEO4J_URI when set, else
// a container when a Docker engine answers, else the local Neo4j from Maven Central's jars.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { Neo4jConnection } from '../src/graph/driver.js';
import { startLocalNeo4j } from '../src/graph/localNeo4j.js';
import { NEO4J_VERSION } from '../src/graph/localNeo4jInstall.js';

declare module 'vitest' {
  export interface ProvidedContext {
    neo4j: Neo4jConnection & { source: 'env' | 'testcontainers' | 'local' };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { NEO4J_URI, NEO4J_USER = 'neo4j', NEO4J_PASSWORD, NEO4J_DATABASE = 'neo4j' } = process.env;
  if (NEO4J_URI) {
    project.provide('neo4j', { uri: NEO4J_URI, user: NEO4J_USER, password: NEO4J_PASSWORD ?? null, database: NEO4J_DATABASE, source: 'env' });
    return async () => undefined;
  }
  const container = await startContainerIfDockerAnswers();
  if (container) {
    project.provide('neo4j', { ...container.connection, source: 'testcontainers' });
    return container.stop;
  }
  const storeDir = await mkdtemp(join(tmpdir(), 'threadline-test-neo4j-'));
  const password = 'threadline-test';
  const local = await startLocalNeo4j({ storeDir, password, heap: '1g', pageCache: '256m' });
  project.provide('neo4j', { uri: local.uri, user: 'neo4j', password, database: 'neo4j', source: 'local' });
  return async () => {
    await local.stop();
    await rm(storeDir, { recursive: true, force: true });
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
