// Neo4j going away while the service runs: /readyz says 503, GraphQL answers SERVICE_UNAVAILABLE
// quickly, and when Neo4j comes back on the same store the service recovers without a restart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createDriver } from '../../src/graph/driver.js';
import { startLocalNeo4j, type LocalNeo4j } from '../../src/graph/localNeo4j.js';
import { startService, type RunningService } from '../../src/server/app.js';
import { createLogger } from '../../src/server/logger.js';
import type { Driver } from 'neo4j-driver';
import { TEST_NEO4J_SETTINGS } from '../support/neo4jSettings.js';

let storeDir: string;
let neo4j: LocalNeo4j;
let driver: Driver;
let service: RunningService;
const password = 'recovery-test';

async function gql(query: string) {
  const response = await fetch(service.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data?: any; errors?: { extensions?: { code?: string } }[] };
}
const readyStatus = async () => (await fetch(service.url.replace('/graphql', '/readyz'))).status;

beforeAll(async () => {
  storeDir = await mkdtemp(join(tmpdir(), 'threadline-recovery-'));
  neo4j = await startLocalNeo4j({ storeDir, password, settings: TEST_NEO4J_SETTINGS });
  driver = createDriver({ uri: neo4j.uri, user: 'neo4j', password, database: 'neo4j' });
  service = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent' }), driver, createLogger('silent'));
});
afterAll(async () => {
  await service?.close();
  await driver?.close();
  await neo4j?.stop();
  if (storeDir) await rm(storeDir, { recursive: true, force: true });
});

describe('Neo4j stops and starts again under a running service', () => {
  it('reports 503 and SERVICE_UNAVAILABLE while down, and recovers by itself', async () => {
    const created = await gql('mutation { createThread(input: { id: "survivor", title: "kept" }) { id } }');
    expect(created.data.createThread.id).toBe('survivor');
    expect(await readyStatus()).toBe(200);

    const port = neo4j.port;
    await neo4j.stop();
    expect(await readyStatus()).toBe(503);
    const startedAt = Date.now();
    const down = await gql('{ thread(id: "survivor") { id } }');
    expect(down.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    const write = await gql('mutation { createThread(input: { title: "lost?" }) { id } }');
    expect(write.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    // Bounded by the driver settings in src/graph/driver.ts, not the driver's 30 s default.
    expect(Date.now() - startedAt).toBeLessThan(25_000);

    neo4j = await startLocalNeo4j({ storeDir, password, port, settings: TEST_NEO4J_SETTINGS });
    let ready = 503;
    for (let attempt = 0; attempt < 60 && ready !== 200; attempt++) {
      ready = await readyStatus();
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(ready).toBe(200);
    const back = await gql('{ thread(id: "survivor") { id title } }');
    expect(back.data.thread).toEqual({ id: 'survivor', title: 'kept' });
  }, 180_000);
});
