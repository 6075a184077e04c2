// The graph edge (src/graph/rows.ts, transactions.ts): a row of the wrong shape is refused where it
// is read, naming the statement and the field; a statement that must answer a row and answers none
// is a MissingRecordError. The malformed rows come from test statements run on the real graph and
// answered in place of a repository's statement, so the repository's own schema meets them.
import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { MissingRecordError } from '../../src/domain/errors.js';
import { createDriver } from '../../src/graph/driver.js';
import type { QueryName } from '../../src/graph/queries.js';
import { changeHead } from '../../src/graph/repositories/changes.js';
import { runPage } from '../../src/graph/repositories/runs.js';
import { threadNode } from '../../src/graph/repositories/mapping.js';
import { createThread, renameThread, threadById, threadsByIds } from '../../src/graph/repositories/threads.js';
import { RowShapeError } from '../../src/graph/rows.js';
import { Graph, txOf, type Tx } from '../../src/graph/transactions.js';
import { plain } from '../../src/graph/values.js';
import { uniqueId } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

const threadRow = z.object({ thread: threadNode });

let driver: Driver;
let graph: Graph;

beforeAll(() => {
  const settings = inject('neo4j');
  driver = createDriver(settings);
  graph = new Graph(driver, settings.database, fileTenant());
});
afterAll(async () => {
  await driver?.close();
});

/** A Tx whose every statement is answered by `text` on the real graph, whatever the repository asked for. */
function answeredBy(text: string, asked: QueryName[]): Tx {
  return txOf(async (query) => {
    asked.push(query);
    const session = driver.session({ database: inject('neo4j').database, defaultAccessMode: neo4j.session.READ });
    try {
      return (await session.run(text)).records.map((record) => plain(record.toObject()) as Record<string, unknown>);
    } finally {
      await session.close();
    }
  });
}

async function refusal(read: Promise<unknown>): Promise<RowShapeError> {
  const error = await read.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(RowShapeError);
  return error as RowShapeError;
}

describe('rows of the wrong shape', () => {
  it('names the statement and a node property of the wrong type', async () => {
    const asked: QueryName[] = [];
    const tx = answeredBy(
      "RETURN {id: 'thread-1', createdAt: '2026-12-05T08:00:00.000Z', headOrdinal: 'three'} AS thread",
      asked,
    );
    const error = await refusal(threadsByIds(tx, ['thread-1']));
    expect(asked).toEqual(['threads/by-ids']);
    expect(error.statement).toBe('threads/by-ids');
    expect(error.fields).toEqual(['thread.headOrdinal']);
    expect(error.message).toContain('cypher/threads/by-ids.cypher');
    expect(error.message).toContain('thread.headOrdinal');
  });

  it('refuses an enum value the domain does not know, from its list', async () => {
    const tx = answeredBy(
      `RETURN {id: 'run-1', threadId: 't', ordinal: 1, provider: 'codex', status: 'paused', providerThreadId: 'pt',
               planDecision: 'no_handoff', planAction: 'reuse', createdAt: '2026-12-05T08:00:00.000Z'} AS run`,
      [],
    );
    const error = await refusal(runPage(tx, 't', 0, 10));
    expect(error.statement).toBe('runs/page');
    expect(error.fields).toEqual(['run.status']);
    expect(error.message).toContain('rolled_back');
  });

  it('refuses a missing column, and a row that is the right shape passes', async () => {
    expect((await refusal(changeHead(answeredBy('RETURN 3 AS seq', []), 't'))).fields).toEqual(['sequence']);
    expect(await changeHead(answeredBy('RETURN 3 AS sequence', []), 't')).toBe(3);
  });

  it('a row the real statement answers passes its schema', async () => {
    const id = uniqueId('thread');
    const created = await graph.write((tx) => createThread(tx, id, 'Rows', null));
    expect(await graph.read((tx) => threadsByIds(tx, [id]))).toEqual([created]);
  });
});

describe('a statement that must answer one row', () => {
  it('is a MissingRecordError naming what and the statement when it answers none', async () => {
    const tx = answeredBy('UNWIND [] AS nothing RETURN nothing', []);
    const error = await tx
      .single('threads/rename', {}, threadRow, 'the renamed thread')
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MissingRecordError);
    expect((error as MissingRecordError).what).toBe(
      'the renamed thread (cypher/threads/rename.cypher answered no row)',
    );
  });

  it('is a MissingRecordError on the real graph: renaming a thread that is not there', async () => {
    const error = await graph
      .write((tx) => renameThread(tx, uniqueId('absent'), 'x'))
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MissingRecordError);
    expect((error as MissingRecordError).what).toContain('cypher/threads/rename.cypher');
  });

  it('present(): a record the caller holds to exist and the graph lacks is a MissingRecordError naming it', async () => {
    const id = uniqueId('absent');
    const error = await graph.read((tx) => threadById(tx, id)).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MissingRecordError);
    expect((error as MissingRecordError).what).toBe(`thread ${id}`);
  });
});
