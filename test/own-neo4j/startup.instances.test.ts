// Ready means ready: three instances start before their Neo4j (a new store, so no schema), clients
// write to all three while Neo4j comes up, and no write is served before the schema migrations are
// in place. The instances apply the migrations once between them (a lease in the database), all
// become ready by themselves, the one thread every client asked for exists once, and the audit is
// clean. Runs on a Neo4j of its own: the test needs a store without a schema.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config.js';
import { runAudit } from '../../src/graph/audit.js';
import { createDriver } from '../../src/graph/driver.js';
import { startLocalNeo4j, type LocalNeo4j } from '../../src/graph/localNeo4j.js';
import { queryNames } from '../../src/graph/queries.js';
import { startService, type RunningService } from '../../src/server/app.js';
import { createLogger } from '../../src/server/logger.js';
import { TEST_NEO4J_SETTINGS } from '../support/neo4jSettings.js';

const INSTANCES = 3;
const password = 'startup-test';
let storeDir: string;
let neo4j: LocalNeo4j | undefined;
const drivers: Driver[] = [];
const services: RunningService[] = [];
const logs: string[][] = [];

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function createTwin(service: RunningService) {
  const response = await fetch(service.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation { createThread(input: { id: "twin", title: "one" }) { id } }' }),
  });
  const body = (await response.json()) as { data?: { createThread: { id: string } }; errors?: any[] };
  return { status: response.status, code: body.errors?.[0]?.extensions?.code as string | undefined, body };
}

const readyz = async (service: RunningService) => {
  const response = await fetch(new URL('/readyz', service.url));
  return { status: response.status, body: (await response.json()) as { ready: boolean; state: string } };
};

/** The HTTP status a WebSocket upgrade at /graphql gets; 101 when it is accepted. */
function upgradeStatus(service: RunningService): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(service.url.replace('http', 'ws'), 'graphql-transport-ws');
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('open', () => (socket.close(), resolve(101)));
    socket.once('error', reject);
  });
}

beforeAll(async () => {
  storeDir = await mkdtemp(join(tmpdir(), 'threadline-startup-'));
  const port = await freePort();
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' });
  for (let index = 0; index < INSTANCES; index++) {
    const lines: string[] = [];
    logs.push(lines);
    const destination = new Writable({
      write: (chunk: Buffer, _encoding, done) => (lines.push(...chunk.toString().split('\n').filter(Boolean)), done()),
    });
    const driver = createDriver({ uri: `bolt://127.0.0.1:${port}`, user: 'neo4j', password, database: 'neo4j' });
    drivers.push(driver);
    services.push(await startService(config, driver, createLogger('info', destination)));
  }
  // The store is created, and Neo4j listens, only after every instance has started without it.
  neo4j = await startLocalNeo4j({ storeDir, password, port, settings: TEST_NEO4J_SETTINGS });
}, 240_000);
afterAll(async () => {
  for (const service of services) await service.close();
  for (const driver of drivers) await driver.close();
  await neo4j?.stop();
  if (storeDir) await rm(storeDir, { recursive: true, force: true });
});

describe('instances started before their Neo4j', () => {
  it('serve nothing before the schema is in place, apply it once, and all become ready', async () => {
    // Neo4j is up, the schema perhaps not yet: each round, every instance is asked for the same thread.
    const answers: Awaited<ReturnType<typeof createTwin>>[] = [];
    const notReady: { status: number; state: string }[] = [];
    const giveUp = Date.now() + 120_000;
    while (Date.now() < giveUp) {
      answers.push(...(await Promise.all(services.map(createTwin))));
      const states = await Promise.all(services.map(readyz));
      notReady.push(...states.filter((state) => state.status !== 200).map(({ status, body }) => ({ status, ...body })));
      if (states.every((state) => state.status === 200)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    for (const service of services)
      expect(await readyz(service)).toEqual({ status: 200, body: { ready: true, state: 'ready' } });
    for (const service of services) expect(await upgradeStatus(service)).toBe(101);

    // Every answer is the thread, or a refusal to try later: never another error, never half a write.
    expect(answers.some((answer) => answer.status === 503)).toBe(true);
    for (const answer of answers)
      if (answer.status === 200) expect(answer.body.data).toEqual({ createThread: { id: 'twin' } });
      else expect(answer).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    // /readyz said why in its own words, without the driver's text.
    for (const { state } of notReady) {
      expect(state).toMatch(/^(starting: |the database )/);
      expect(state).not.toMatch(/neo4j|bolt|ECONN|Error|constraint/i);
    }

    const session = drivers[0]!.session();
    try {
      const count = async (cypher: string) => (await session.run(cypher)).records[0]!.get(0).toNumber() as number;
      expect(await count(`MATCH (t:Thread {id: 'twin'}) RETURN count(t)`)).toBe(1);
      const migrations = queryNames().filter((name) => /^schema\/\d+_/.test(name)).length;
      expect(await count('MATCH (m:SchemaMigration) RETURN count(m)')).toBe(migrations);
    } finally {
      await session.close();
    }
    // One instance applied the migrations; each logged its tries while it waited.
    const appliedBy = logs.filter((lines) => lines.some((line) => line.includes('schema migrations applied')));
    expect(appliedBy).toHaveLength(1);
    for (const lines of logs) expect(lines.some((line) => line.includes('schema migrations not applied'))).toBe(true);
    expect(await runAudit(drivers[0]!, 'neo4j')).toEqual([]);
  }, 240_000);

  it('refused GraphQL over HTTP and WebSocket while the schema was missing', async () => {
    // Checked on a fourth instance whose Neo4j never answers: the refusal does not depend on timing.
    const driver = createDriver({
      uri: `bolt://127.0.0.1:${await freePort()}`,
      user: 'neo4j',
      password,
      database: 'neo4j',
    });
    const service = await startService(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }),
      driver,
      createLogger('silent'),
    );
    try {
      expect(await createTwin(service)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(await upgradeStatus(service)).toBe(503);
      expect(await readyz(service)).toEqual({
        status: 503,
        body: { ready: false, state: 'starting: the database is not reachable to apply the schema migrations' },
      });
      expect((await fetch(new URL('/healthz', service.url))).status).toBe(200);
    } finally {
      await service.close();
      await driver.close();
    }
  });
});
