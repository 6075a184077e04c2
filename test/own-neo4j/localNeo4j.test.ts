import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import neo4j from 'neo4j-driver';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalNeo4j, type LocalNeo4j } from '../../src/graph/localNeo4j.js';
import { NEO4J_VERSION } from '../../src/graph/localNeo4jInstall.js';

const PASSWORD = 'threadline-test-password';
const TIMEOUT_MS = 240_000;

describe('local Neo4j', () => {
  const running: LocalNeo4j[] = [];
  let storeDir: string | undefined;

  afterAll(async () => {
    await Promise.all(running.map((instance) => instance.stop()));
    if (storeDir) {
      await rm(storeDir, { recursive: true, force: true });
    }
  }, TIMEOUT_MS);

  async function start(port = 0): Promise<LocalNeo4j> {
    storeDir ??= await mkdtemp(path.join(tmpdir(), 'threadline-neo4j-'));
    // -Xshare:on turns a class archive the JVM cannot map (missing, or built on another class path) into a
    // failed start, where the default would load every class again without a word.
    const instance = await startLocalNeo4j({ storeDir, port, password: PASSWORD, jvmFlags: ['-Xshare:on'] });
    running.push(instance);
    return instance;
  }

  async function withSession<T>(instance: LocalNeo4j, work: (session: neo4j.Session) => Promise<T>): Promise<T> {
    const driver = neo4j.driver(instance.uri, neo4j.auth.basic('neo4j', PASSWORD));
    const session = driver.session();
    try {
      return await work(session);
    } finally {
      await session.close();
      await driver.close();
    }
  }

  it(
    'runs Neo4j Community from its class archive, and keeps its data across a restart on the same store and port',
    async () => {
      const first = await start();
      expect(first.uri).toBe(`bolt://127.0.0.1:${first.port}`);
      expect(first.version).toBe(NEO4J_VERSION);

      await withSession(first, async (session) => {
        const components = await session.run(
          'CALL dbms.components() YIELD name, versions, edition RETURN name, versions, edition',
        );
        expect(components.records.map((record) => record.toObject())).toEqual([
          { name: 'Neo4j Kernel', versions: [NEO4J_VERSION], edition: 'community' },
        ]);
        await session.run('CREATE (:LocalNeo4jTest {id: $id})', { id: 'survives-restart' });
      });

      const wrongPassword = neo4j.driver(first.uri, neo4j.auth.basic('neo4j', 'not-the-password'));
      await expect(wrongPassword.verifyAuthentication()).resolves.toBe(false);
      await wrongPassword.close();

      await first.stop();

      const second = await start(first.port);
      expect(second.port).toBe(first.port);
      const ids = await withSession(second, async (session) => {
        const result = await session.run('MATCH (n:LocalNeo4jTest) RETURN n.id AS id');
        return result.records.map((record) => record.get('id') as string);
      });
      expect(ids).toEqual(['survives-restart']);

      await second.stop();
    },
    TIMEOUT_MS,
  );

  it('refuses a setting Neo4j does not know, by its name, before it starts', async () => {
    storeDir ??= await mkdtemp(path.join(tmpdir(), 'threadline-neo4j-'));
    await expect(
      startLocalNeo4j({ storeDir: path.join(storeDir, 'unknown-setting'), settings: { 'dbms.no_such_setting': '1' } }),
    ).rejects.toThrow(/dbms\.no_such_setting/);
  });
});
