// Finding threads again: the project a thread belongs to, the filtered and paged threads list,
// rename and delete, through GraphQL on the real graph.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateThreadDocument,
  DeleteThreadDocument,
  RenameThreadDocument,
  ThreadsIndexDocument,
  type ThreadFilter,
  type ThreadsIndexQuery,
} from '../../client/index.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';
import { completeRun, expectCode, refusal, runTurns, startRun } from '../support/lineage.js';
import { fileTenant } from '../support/tenants.js';

const CREATE = `mutation($input: CreateThreadInput!) { createThread(input: $input) { id title project } }`;

const KEY_A = 'index-key-a-0123456789';
const KEY_B = 'index-key-b-0123456789';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('Thread.project', () => {
  it('is stored on the thread at creation, read back, and kept when the id is created again', async () => {
    const id = uniqueId('project');
    const created = await t.client.request(CreateThreadDocument, {
      input: { id, title: 'csv import', project: '/home/dev/csv-tool' },
    });
    expect(created.createThread).toMatchObject({ id, project: '/home/dev/csv-tool' });
    const again = await t.ok(CREATE, { input: { id, project: '/elsewhere' } });
    expect(again.createThread).toEqual({ id, title: 'csv import', project: '/home/dev/csv-tool' });
    const stored = await t.driver.executeQuery('MATCH (thread:Thread {id: $id}) RETURN thread.project AS project', {
      id,
    });
    expect(stored.records[0]!.get('project')).toBe('/home/dev/csv-tool');
    expect((await t.ok(`query($id: ID!) { thread(id: $id) { project } }`, { id })).thread.project).toBe(
      '/home/dev/csv-tool',
    );
  });

  it('is null when not given, and a fork or subagent thread takes its parent’s', async () => {
    const bare = (await t.ok(CREATE, { input: { title: 'no project' } })).createThread;
    expect(bare.project).toBeNull();
    const parent = (await t.ok(CREATE, { input: { id: uniqueId('parent'), project: 'repo-a' } })).createThread.id;
    await runTurns(t, parent, 'codex', 2);
    const fork = await t.ok(`mutation($input: ForkThreadInput!) { forkThread(input: $input) { id project } }`, {
      input: { sourceThreadId: parent, fromOrdinal: 1 },
    });
    expect(fork.forkThread.project).toBe('repo-a');
  });

  it('is refused when too long or holding control characters, and nothing is written', async () => {
    const long = uniqueId('long');
    const tooLong = await expectCode(
      t.gql(CREATE, { input: { id: long, project: 'p'.repeat(4001) } }),
      'BAD_USER_INPUT',
    );
    expect(tooLong.errors![0]!.extensions).toMatchObject({ field: 'project' });
    await expectCode(t.gql(CREATE, { input: { project: 'a\u0000b' } }), 'BAD_USER_INPUT');
    expect((await t.ok(`query($id: ID!) { thread(id: $id) { id } }`, { id: long })).thread).toBeNull();
    expect((await t.ok(CREATE, { input: { project: 'p'.repeat(4000) } })).createThread.project).toHaveLength(4000);
  });
});

/** Every page of the list under this filter, pages of `first`. */
async function allPages(filter: ThreadFilter, first: number) {
  const pages: { id: string; title: string | null }[][] = [];
  let after: string | null = null;
  do {
    const { threads }: ThreadsIndexQuery = await t.client.request(ThreadsIndexDocument, { filter, first, after });
    pages.push(threads.edges.map((edge) => ({ id: edge.node.id, title: edge.node.title ?? null })));
    after = threads.pageInfo.hasNextPage ? threads.pageInfo.endCursor! : null;
  } while (after);
  return pages;
}

async function create(id: string, title: string, project: string | null) {
  await t.client.request(CreateThreadDocument, { input: { id, title, project } });
  return id;
}

describe('Query.threads with a filter', () => {
  it('finds a project’s threads newest first, page by page, with providers, run count and last activity', async () => {
    const project = `/home/dev/${uniqueId('proj')}`;
    const a = await create(uniqueId('a'), 'first of project', project);
    const b = await create(uniqueId('b'), 'second of project', project);
    const c = await create(uniqueId('c'), 'third of project', project);
    await create(uniqueId('other'), 'elsewhere', `${project}-other`);
    await runTurns(t, b, 'codex', 2);
    await runTurns(t, b, 'claude', 1);

    const pages = await allPages({ project }, 2);
    expect(pages.map((page) => page.map((row) => row.id))).toEqual([[c, b], [a]]);

    const { threads } = await t.client.request(ThreadsIndexDocument, { filter: { project }, first: 3 });
    const row = threads.edges.find((edge) => edge.node.id === b)!.node;
    expect(row).toMatchObject({ project, providers: ['codex', 'claude'], runCount: 3 });
    const created = threads.edges.find((edge) => edge.node.id === a)!.node;
    expect(created.runCount).toBe(0);
    expect(created.providers).toEqual([]);
    expect(created.lastActivityAt).toBe(created.createdAt);
    expect(Date.parse(row.lastActivityAt)).toBeGreaterThan(Date.parse(row.createdAt));
    const newest = await t.driver.executeQuery(
      'MATCH (run:Run {threadId: $id}) RETURN max(run.completedAt).epochMillis AS newest',
      { id: b },
    );
    expect(Date.parse(row.lastActivityAt)).toBe(newest.records[0]!.get('newest').toNumber());
  });

  it('takes imported runs’ own times as the last activity, the newest of them', async () => {
    const id = await create(uniqueId('imported'), 'imported', null);
    const run = (key: string, startedAt: string, completedAt: string | null) => ({
      sourceKey: key,
      startedAt,
      completedAt,
      status: 'COMPLETED',
      userMessage: `turn ${key}`,
    });
    await t.ok(`mutation($input: ImportRunsInput!) { importRuns(input: $input) { runs { id } } }`, {
      input: {
        threadId: id,
        providerThread: { provider: 'codex', nativeThreadRef: uniqueId('session') },
        runs: [run('1', '2025-03-01T10:00:00Z', '2025-03-01T10:05:00Z'), run('2', '2025-03-02T09:00:00Z', null)],
      },
    });
    const read = await t.ok(`query($id: ID!) { thread(id: $id) { lastActivityAt runCount providers } }`, { id });
    expect(read.thread).toEqual({ lastActivityAt: '2025-03-02T09:00:00.000Z', runCount: 2, providers: ['codex'] });
  });

  it('narrows by provider and by text in the title, id or project, ignoring case, and combines them', async () => {
    const tag = uniqueId('Needle');
    const project = `/src/${uniqueId('textproj')}`;
    const titled = await create(uniqueId('t'), `Fix the ${tag} parser`, project);
    const byId = await create(`${tag}-by-id`, 'plain', project);
    const byProject = await create(uniqueId('p'), 'plain', `/src/${tag.toUpperCase()}`);
    await runTurns(t, titled, 'claude', 1);
    await runTurns(t, byProject, 'codex', 1);

    const found = (filter: ThreadFilter) => allPages(filter, 100).then((pages) => pages.flat().map((row) => row.id));
    expect(await found({ text: tag.toLowerCase() })).toEqual([byProject, byId, titled]);
    expect(await found({ text: tag, provider: 'claude' })).toEqual([titled]);
    expect(await found({ text: tag, provider: 'codex' })).toEqual([byProject]);
    expect(await found({ project, text: 'PLAIN' })).toEqual([byId]);
    expect(await found({ project, provider: 'gemini' })).toEqual([]);
  });

  it('refuses an empty or overlong text and a cursor that is not one', async () => {
    await expectCode(t.gql(`{ threads(filter: { text: " " }) { edges { cursor } } }`), 'BAD_USER_INPUT');
    const long = await expectCode(
      t.gql(`query($text: String) { threads(filter: { text: $text }) { edges { cursor } } }`, {
        text: 'x'.repeat(201),
      }),
      'BAD_USER_INPUT',
    );
    expect(long.errors![0]!.extensions).toMatchObject({ field: 'filter.text' });
    await expectCode(t.gql(`{ threads(after: "nope") { edges { cursor } } }`), 'BAD_USER_INPUT');
  });
});

describe('renameThread and deleteThread', () => {
  it('renames a thread, found by its new title, and records the change', async () => {
    const id = await create(uniqueId('rename'), 'old name', null);
    const renamed = await t.client.request(RenameThreadDocument, { input: { id, title: `new ${id}` } });
    expect(renamed.renameThread).toEqual({ id, title: `new ${id}` });
    expect((await allPages({ text: `new ${id}` }, 10)).flat()).toEqual([{ id, title: `new ${id}` }]);
    const change = await t.driver.executeQuery(
      'MATCH (change:ThreadChange {threadId: $id}) RETURN change.kind AS kind ORDER BY change.sequence DESC LIMIT 1',
      { id },
    );
    expect(change.records[0]!.get('kind')).toBe('renamed');
    await refusal(t.client.request(RenameThreadDocument, { input: { id, title: ' ' } }), 'BAD_USER_INPUT');
    await refusal(t.client.request(RenameThreadDocument, { input: { id: uniqueId('none'), title: 'x' } }), 'NOT_FOUND');
  });

  it('deletes as recorded data: hidden from the list, still readable, every change refused, runs kept', async () => {
    const project = `/del/${uniqueId('p')}`;
    const id = await create(uniqueId('delete'), 'to delete', project);
    const kept = await create(uniqueId('kept'), 'kept', project);
    await runTurns(t, id, 'codex', 2);

    const deleted = (await t.client.request(DeleteThreadDocument, { input: { id } })).deleteThread;
    expect(deleted.deletedAt).toEqual(expect.any(String));
    expect((await allPages({ project }, 10)).flat().map((row) => row.id)).toEqual([kept]);
    const again = (await t.client.request(DeleteThreadDocument, { input: { id } })).deleteThread;
    expect(again.deletedAt).toBe(deleted.deletedAt);

    const read = await t.ok(
      `query($id: ID!) { thread(id: $id) { deletedAt runCount runs { edges { node { ordinal } } } } }`,
      {
        id,
      },
    );
    expect(read.thread).toMatchObject({ deletedAt: deleted.deletedAt, runCount: 2 });
    expect(read.thread.runs.edges).toHaveLength(2);

    const refused = await expectCode(
      t.gql(
        `mutation($id: ID!) { startRun(input: { threadId: $id, provider: "claude", userMessage: "hi" }) { run { id } } }`,
        {
          id,
        },
      ),
      'THREAD_DELETED',
    );
    expect(refused.errors![0]!.extensions).toMatchObject({ id });
    await expectCode(
      t.gql(`query($id: ID!) { planRun(input: { threadId: $id, provider: "claude" }) { decision } }`, { id }),
      'THREAD_DELETED',
    );
    await expectCode(
      t.gql(`mutation($id: ID!) { rollbackThread(input: { threadId: $id, toOrdinal: 1 }) { thread { id } } }`, { id }),
      'THREAD_DELETED',
    );
    await expectCode(
      t.gql(`mutation($id: ID!) { forkThread(input: { sourceThreadId: $id }) { id } }`, { id }),
      'THREAD_DELETED',
    );
    await refusal(t.client.request(RenameThreadDocument, { input: { id, title: 'back' } }), 'THREAD_DELETED');
    await refusal(t.client.request(CreateThreadDocument, { input: { id } }), 'THREAD_DELETED');
  });

  it('is refused with RUN_IN_PROGRESS while a run is running, and goes through once it ended', async () => {
    const id = await create(uniqueId('busy'), 'busy', null);
    const started = await startRun(t, id, 'codex');
    const refused = await refusal(t.client.request(DeleteThreadDocument, { input: { id } }), 'RUN_IN_PROGRESS');
    expect(refused.extensions).toMatchObject({ runId: started.run.id });
    expect((await t.ok(`query($id: ID!) { thread(id: $id) { deletedAt } }`, { id })).thread.deletedAt).toBeNull();
    await completeRun(t, started.run.id);
    expect((await t.client.request(DeleteThreadDocument, { input: { id } })).deleteThread.deletedAt).not.toBeNull();
  });

  it('is tenant-scoped: another tenant can neither see nor delete the thread', async () => {
    const keys = await startTestService({
      THREADLINE_API_KEYS: `${KEY_A}=${fileTenant('a')},${KEY_B}=${fileTenant('b')}`,
    });
    try {
      const id = uniqueId('tenanted');
      await keys.ok(`mutation($id: ID!) { createThread(input: { id: $id, project: "shared" }) { id } }`, { id }, KEY_A);
      await expectCode(
        keys.gql(`mutation($id: ID!) { deleteThread(input: { id: $id }) { id } }`, { id }, KEY_B),
        'NOT_FOUND',
      );
      await expectCode(
        keys.gql(`mutation($id: ID!) { renameThread(input: { id: $id, title: "mine" }) { id } }`, { id }, KEY_B),
        'NOT_FOUND',
      );
      const listed = await keys.ok(
        `{ threads(filter: { project: "shared" }, first: 100) { edges { node { id deletedAt } } } }`,
        {},
        KEY_B,
      );
      expect(listed.threads.edges.map((edge: { node: { id: string } }) => edge.node.id)).not.toContain(id);
      const own = await keys.ok(`query($id: ID!) { thread(id: $id) { deletedAt } }`, { id }, KEY_A);
      expect(own.thread.deletedAt).toBeNull();
    } finally {
      await keys.close();
    }
  });
});

describe('recordFact and Thread.history(fromOrdinal)', () => {
  const RECORD = `mutation($input: RecordFactInput!) { recordFact(input: $input) { run { ordinal } fact { kind text key } } }`;

  it('records a decision on the newest live run, after its facts, where the next handoff reads it', async () => {
    const id = await create(uniqueId('fact'), 'facts', null);
    await runTurns(t, id, 'codex', 2);
    const decision = `Use streaming only (${id})`;
    const recorded = await t.ok(RECORD, { input: { threadId: id, kind: 'DECISION', text: decision, key: 'parser' } });
    expect(recorded.recordFact).toEqual({
      run: { ordinal: 2 },
      fact: { kind: 'DECISION', text: decision, key: 'parser' },
    });
    const facts = await t.ok(
      `query($id: ID!) { thread(id: $id) { runs { edges { node { ordinal factCount facts { kind text } } } } } }`,
      { id },
    );
    expect(facts.thread.runs.edges[1].node.facts.at(-1)).toEqual({ kind: 'DECISION', text: decision });
    const preview = await t.ok(`query($input: PlanRunInput!) { previewRun(input: $input) { context } }`, {
      input: { threadId: id, provider: 'claude' },
    });
    expect(preview.previewRun.context).toContain(decision);
  });

  it('refuses a thread without runs, a kind a run records itself, and a deleted thread', async () => {
    const empty = await create(uniqueId('nofacts'), 'empty', null);
    const none = await expectCode(
      t.gql(RECORD, { input: { threadId: empty, kind: 'NOTE', text: 'x' } }),
      'BAD_USER_INPUT',
    );
    expect(none.errors![0]!.extensions).toMatchObject({ field: 'threadId' });
    await runTurns(t, empty, 'codex', 1);
    await expectCode(t.gql(RECORD, { input: { threadId: empty, kind: 'COMMAND', text: 'ls' } }), 'BAD_USER_INPUT');
    await expectCode(t.gql(RECORD, { input: { threadId: empty, kind: 'NOTE', text: ' ' } }), 'BAD_USER_INPUT');
    await t.client.request(DeleteThreadDocument, { input: { id: empty } });
    await expectCode(t.gql(RECORD, { input: { threadId: empty, kind: 'NOTE', text: 'late' } }), 'THREAD_DELETED');
  });

  it('starts a history page at fromOrdinal, and refuses it with after or below 1', async () => {
    const id = await create(uniqueId('from'), 'from', null);
    await runTurns(t, id, 'codex', 4);
    const HISTORY = `query($id: ID!, $from: Int, $after: String) { thread(id: $id) { history(fromOrdinal: $from, after: $after, first: 2) {
      edges { cursor node { ordinal } } pageInfo { hasNextPage } } } }`;
    const page = (await t.ok(HISTORY, { id, from: 2 })).thread.history;
    expect(page.edges.map((edge: { node: { ordinal: number } }) => edge.node.ordinal)).toEqual([2, 3]);
    expect(page.pageInfo.hasNextPage).toBe(true);
    await expectCode(t.gql(HISTORY, { id, from: 2, after: page.edges[0].cursor }), 'BAD_USER_INPUT');
    await expectCode(t.gql(HISTORY, { id, from: 0 }), 'BAD_USER_INPUT');
  });
});
