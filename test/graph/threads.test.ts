// The thread repository and its mapping (src/graph/repositories/threads.ts, mapping.ts) on the real
// graph, without the service: what a statement writes is what its record reads back, per tenant.
import type { Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ThreadlineError } from '../../src/domain/errors.js';
import { createDriver } from '../../src/graph/driver.js';
import {
  createThread,
  lockThread,
  lockThreadAsItIs,
  markThreadDeleted,
  renameThread,
  threadsByIds,
} from '../../src/graph/repositories/threads.js';
import { Graph } from '../../src/graph/transactions.js';
import { uniqueId } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

let driver: Driver;
let graph: Graph;

beforeAll(() => {
  const neo4j = inject('neo4j');
  driver = createDriver(neo4j);
  // A tenant of this file's own: nothing another file writes is read here. The schema is left to
  // the services of the other files (these statements need none of it): applying it here would keep
  // their services waiting.
  graph = new Graph(driver, neo4j.database, fileTenant());
});
afterAll(async () => {
  await driver?.close();
});

describe('the thread repository', () => {
  it('creates a thread and reads back the record it wrote', async () => {
    const id = uniqueId('thread');
    const created = await graph.write((tx) => createThread(tx, id, 'Parser work', '/work/parser'));
    expect(created).toMatchObject({
      id,
      title: 'Parser work',
      project: '/work/parser',
      deletedAt: null,
      providers: [],
      headOrdinal: 0,
      lastOrdinal: 0,
      providerThreadCount: 0,
      rolledBack: [],
      parentThreadId: null,
      relationshipToParent: null,
      rootThreadId: id,
      sourcePoint: null,
      forkOrdinal: 0,
      inherited: [],
    });
    expect(Date.parse(created.createdAt)).toBeGreaterThan(0);
    expect(created.lastActivityAt).toBe(created.createdAt);
    expect(await graph.read((tx) => threadsByIds(tx, [id]))).toEqual([created]);
  });

  it('returns an existing id unchanged on a second create', async () => {
    const id = uniqueId('thread');
    const first = await graph.write((tx) => createThread(tx, id, 'First', null));
    const again = await graph.write((tx) => createThread(tx, id, 'Second', '/elsewhere'));
    expect(again).toEqual(first);
  });

  it("keeps each tenant's threads to itself", async () => {
    const id = uniqueId('thread');
    await graph.write((tx) => createThread(tx, id, null, null));
    const other = new Graph(driver, inject('neo4j').database, fileTenant('other'));
    expect(await other.read((tx) => threadsByIds(tx, [id]))).toEqual([]);
    expect(await other.write((tx) => lockThreadAsItIs(tx, id))).toBeNull();
    await expect(other.write((tx) => lockThread(tx, id))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('renames, then deletes: a deleted thread is locked as it is, and refused by lockThread', async () => {
    const id = uniqueId('thread');
    await graph.write((tx) => createThread(tx, id, 'Old title', null));
    expect(await graph.write((tx) => renameThread(tx, id, 'New title'))).toMatchObject({ id, title: 'New title' });
    const deleted = await graph.write((tx) => markThreadDeleted(tx, id));
    expect(Date.parse(deleted.deletedAt!)).toBeGreaterThan(0);
    expect(await graph.write((tx) => lockThreadAsItIs(tx, id))).toMatchObject({ id, runningRunId: null });
    const refused = await graph.write((tx) => lockThread(tx, id)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ThreadlineError);
    expect((refused as ThreadlineError).code).toBe('THREAD_DELETED');
  });
});
