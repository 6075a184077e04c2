// How the graph layer runs work of one statement on the real graph (src/graph/transactions.ts):
// readInOneStatement() runs a one-statement read as an auto-commit statement, and starts a read that
// needs more over in a read transaction; writeInOneStatement() commits its one statement as it runs.
// The driver is the real one, watched through a proxy that notes how each session was used.
import { Neo4jError, type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDriver } from '../../src/graph/driver.js';
import { createThread, lockThread, renameThread, threadsByIds } from '../../src/graph/repositories/threads.js';
import { Graph, type StatementObserver, type Tx } from '../../src/graph/transactions.js';
import { uniqueId } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

let driver: Driver;
let database: string;
const sessionCalls: string[] = [];
const statements: string[] = [];

/** The driver, noting each call of a session's run, executeRead and executeWrite in sessionCalls. */
function watched(real: Driver): Driver {
  const noted = new Set(['run', 'executeRead', 'executeWrite']);
  return new Proxy(real, {
    get(target, key, receiver) {
      if (key !== 'session') return Reflect.get(target, key, receiver) as unknown;
      return (...args: Parameters<Driver['session']>) =>
        new Proxy(target.session(...args), {
          get(session, name, sessionReceiver) {
            const value = Reflect.get(session, name, sessionReceiver) as unknown;
            if (typeof name !== 'string' || !noted.has(name) || typeof value !== 'function') return value;
            return (...callArgs: unknown[]) => {
              sessionCalls.push(name);
              return (value as (...a: unknown[]) => unknown).apply(session, callArgs);
            };
          },
        });
    },
  });
}

const observer: StatementObserver = {
  statementStarted: (name) => {
    statements.push(name);
    return () => undefined;
  },
};

function graph(): Graph {
  return new Graph(watched(driver), database, fileTenant()).withStatementsObservedBy(observer);
}

beforeAll(() => {
  const settings = inject('neo4j');
  driver = createDriver(settings);
  database = settings.database;
});
afterAll(async () => {
  await driver?.close();
});

async function twoThreads(): Promise<[string, string]> {
  const ids: [string, string] = [uniqueId('thread'), uniqueId('thread')];
  for (const id of ids) await graph().write((tx) => createThread(tx, id, `Thread ${id}`, null));
  sessionCalls.length = 0;
  statements.length = 0;
  return ids;
}

describe('readInOneStatement', () => {
  it('runs a read of one statement as an auto-commit statement, with no transaction around it', async () => {
    const [first] = await twoThreads();
    const read = await graph().readInOneStatement((tx) => threadsByIds(tx, [first]));
    expect(read.map((thread) => thread.id)).toEqual([first]);
    expect(sessionCalls).toEqual(['run']);
    expect(statements).toEqual(['threads/by-ids']);
  });

  it('starts a read that asks for a second statement over in a read transaction, answering what read() answers', async () => {
    const ids = await twoThreads();
    const work = async (tx: Tx) => [...(await threadsByIds(tx, [ids[0]])), ...(await threadsByIds(tx, [ids[1]]))];
    const read = await graph().readInOneStatement(work);
    expect(read.map((thread) => thread.id)).toEqual(ids);
    expect(sessionCalls).toEqual(['run', 'executeRead']);
    // The first statement once on its own, then both in the transaction.
    expect(statements).toEqual(['threads/by-ids', 'threads/by-ids', 'threads/by-ids']);
    expect(await graph().read(work)).toEqual(read);
  });

  it('answers a statement error that no retry cures as it is, without starting over', async () => {
    const [first] = await twoThreads();
    // A write in a read: Neo4j refuses it in a session of read access, every time.
    const refused = graph().readInOneStatement((tx) => lockThread(tx, first));
    await expect(refused).rejects.toBeInstanceOf(Neo4jError);
    await expect(refused).rejects.toMatchObject({ retriable: false });
    expect(sessionCalls).toEqual(['run']);
  });
});

describe('writeInOneStatement', () => {
  it('runs a write of one statement as an auto-commit statement, with no transaction around it', async () => {
    const [first] = await twoThreads();
    const renamed = await graph().writeInOneStatement((tx) => renameThread(tx, first, 'Renamed alone'));
    expect(renamed.title).toBe('Renamed alone');
    expect(sessionCalls).toEqual(['run']);
    expect(statements).toEqual(['threads/rename']);
    expect((await graph().read((tx) => threadsByIds(tx, [first])))[0]?.title).toBe('Renamed alone');
  });

  it('refuses a second statement as a bug, and cannot undo the first: it is committed', async () => {
    const ids = await twoThreads();
    const twice = graph().writeInOneStatement(async (tx) => {
      await renameThread(tx, ids[0], 'Committed on its own');
      return renameThread(tx, ids[1], 'Never written');
    });
    await expect(twice).rejects.toThrow('A write in one statement sent a second: cypher/threads/rename.cypher');
    expect(sessionCalls).toEqual(['run']);
    const titles = (await graph().read((tx) => threadsByIds(tx, ids))).map((thread) => thread.title).sort();
    expect(titles).toEqual(['Committed on its own', `Thread ${ids[1]}`]);
  });
});
