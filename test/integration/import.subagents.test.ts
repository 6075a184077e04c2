// Issue 26 item 1, subagent work imported as subagent threads: importSubagentThread over HTTP makes
// the SUBAGENT child of an imported session's thread, linked to the parent run that started it, with
// its task already consumed (never delivered again), once whatever the number of imports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, startTestService, uniqueId, type TestService } from '../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

const IMPORT_SUBAGENT = `mutation($input: ImportSubagentThreadInput!) {
  importSubagentThread(input: $input) {
    id title
    lineage { parent { id } relationshipToParent sourcePoint { threadId runId runOrdinal } }
  }
}`;
const IMPORT_RUNS = `mutation($input: ImportRunsInput!) { importRuns(input: $input) { runs { id ordinal } } }`;
const TRANSFERS = `query($id: ID!) {
  thread(id: $id) { transfers { kind status resolution sourceRunId: sourcePoint { runId } } subagents { id } }
}`;
const PREVIEW = `query($input: PlanRunInput!) { previewRun(input: $input) { context providerThreadAction nativeThreadRef } }`;

const run = (key: string, startedAt: string) => ({
  sourceKey: key,
  sourceId: uniqueId('record'),
  startedAt,
  status: 'COMPLETED',
  userMessage: `turn ${key}`,
  assistantMessage: `answer ${key}`,
});

/** A thread holding a two-turn Codex session: the main session a subagent worked for. */
async function mainThread(): Promise<{ id: string; runs: { id: string; ordinal: number }[] }> {
  const id = (await t.ok(`mutation { createThread(input: { title: "main" }) { id } }`)).createThread.id as string;
  const runs = (
    await t.ok(IMPORT_RUNS, {
      input: {
        threadId: id,
        providerThread: { provider: 'codex', nativeThreadRef: uniqueId('main-session') },
        runs: [run('1', '2025-03-01T09:00:00Z'), run('2', '2025-03-01T09:10:00Z')],
      },
    })
  ).importRuns.runs;
  return { id, runs };
}

async function threadExists(id: string): Promise<boolean> {
  return (await t.ok(`query($id: ID!) { thread(id: $id) { id } }`, { id })).thread !== null;
}

describe('importSubagentThread', () => {
  it('makes a subagent child of the parent run, its task consumed and never delivered, once', async () => {
    const parent = await mainThread();
    const id = uniqueId('subagent');
    const task = `Find every caller of parseConfig ${uniqueId('task')}`;
    const input = { parentThreadId: parent.id, parentRunOrdinal: 2, id, title: 'subagent: callers', task };
    const child = (await t.ok(IMPORT_SUBAGENT, { input })).importSubagentThread;
    expect(child).toEqual({
      id,
      title: 'subagent: callers',
      lineage: {
        parent: { id: parent.id },
        relationshipToParent: 'SUBAGENT',
        sourcePoint: { threadId: parent.id, runId: parent.runs[1]!.id, runOrdinal: 2 },
      },
    });
    const stored = (await t.ok(TRANSFERS, { id })).thread;
    expect(stored.transfers).toEqual([
      {
        kind: 'SUBAGENT_SPAWN',
        status: 'CONSUMED',
        resolution: 'IMPORTED',
        sourceRunId: { runId: parent.runs[1]!.id },
      },
    ]);
    expect((await t.ok(TRANSFERS, { id: parent.id })).thread.subagents).toEqual([{ id }]);

    // A spawned subagent's first run would receive its task; an imported one already had it.
    const before = (await t.ok(PREVIEW, { input: { threadId: id, provider: 'claude' } })).previewRun;
    expect(before).toMatchObject({ context: null, providerThreadAction: 'CREATE' });
    const session = uniqueId('agent');
    await t.ok(IMPORT_RUNS, {
      input: {
        threadId: id,
        providerThread: { provider: 'claude', nativeThreadRef: session },
        runs: [{ ...run('a', '2025-03-01T09:11:00Z'), userMessage: task }],
      },
    });
    const after = (await t.ok(PREVIEW, { input: { threadId: id, provider: 'claude' } })).previewRun;
    expect(after).toMatchObject({ context: null, nativeThreadRef: session });

    // Again, even with another run or title: the child as it is, one transfer.
    const again = (await t.ok(IMPORT_SUBAGENT, { input: { ...input, parentRunOrdinal: 1, title: 'renamed' } }))
      .importSubagentThread;
    expect(again).toEqual(child);
    expect((await t.ok(TRANSFERS, { id })).thread.transfers).toHaveLength(1);
    expect((await t.ok(TRANSFERS, { id: parent.id })).thread.subagents).toEqual([{ id }]);
  });

  it('links to the parent run by id, or to the parent thread only; completeSubagent refuses the latter cleanly', async () => {
    const parent = await mainThread();
    const byId = (
      await t.ok(IMPORT_SUBAGENT, {
        input: { parentThreadId: parent.id, parentRunId: parent.runs[0]!.id, id: uniqueId('subagent'), task: 'by id' },
      })
    ).importSubagentThread;
    expect(byId.lineage.sourcePoint).toEqual({ threadId: parent.id, runId: parent.runs[0]!.id, runOrdinal: 1 });

    const loose = (
      await t.ok(IMPORT_SUBAGENT, { input: { parentThreadId: parent.id, id: uniqueId('subagent'), task: 'loose' } })
    ).importSubagentThread;
    expect(loose.lineage).toMatchObject({
      relationshipToParent: 'SUBAGENT',
      sourcePoint: { threadId: parent.id, runId: null, runOrdinal: null },
    });
    expect((await t.ok(TRANSFERS, { id: loose.id })).thread.transfers).toEqual([
      { kind: 'SUBAGENT_SPAWN', status: 'CONSUMED', resolution: 'IMPORTED', sourceRunId: { runId: null } },
    ]);
    const completed = await t.gql(
      `mutation($input: CompleteSubagentInput!) { completeSubagent(input: $input) { id } }`,
      { input: { childThreadId: loose.id, result: 'done' } },
    );
    expect(codeOf(completed)).toBe('BAD_USER_INPUT');
    expect(completed.errors![0]!.extensions).toMatchObject({ field: 'childThreadId' });
  });

  it('refuses a conflicting parent or thread with CONFLICT and bad input with a clear code, writing nothing', async () => {
    const parent = await mainThread();
    const other = await mainThread();
    const id = uniqueId('subagent');
    await t.ok(IMPORT_SUBAGENT, { input: { parentThreadId: parent.id, id, task: 'mine' } });
    const conflict = await t.gql(IMPORT_SUBAGENT, { input: { parentThreadId: other.id, id, task: 'mine' } });
    expect(codeOf(conflict)).toBe('CONFLICT');
    expect(conflict.errors![0]!.extensions).toMatchObject({ id, parentThreadId: parent.id });
    const root = await t.gql(IMPORT_SUBAGENT, { input: { parentThreadId: parent.id, id: other.id, task: 'x' } });
    expect(codeOf(root)).toBe('CONFLICT');

    const fresh = uniqueId('subagent');
    const refusals: [string, string, Record<string, unknown>][] = [
      ['both run forms', 'BAD_USER_INPUT', { parentRunOrdinal: 1, parentRunId: parent.runs[0]!.id }],
      ['an ordinal past the head', 'BAD_USER_INPUT', { parentRunOrdinal: 3 }],
      ['ordinal 0', 'BAD_USER_INPUT', { parentRunOrdinal: 0 }],
      ['a run of another thread', 'BAD_USER_INPUT', { parentRunId: other.runs[0]!.id }],
      ['an unknown run', 'NOT_FOUND', { parentRunId: uniqueId('run') }],
      ['an unknown parent', 'NOT_FOUND', { parentThreadId: uniqueId('thread') }],
      ['an empty task', 'BAD_USER_INPUT', { task: '' }],
      ['an empty id', 'BAD_USER_INPUT', { id: '' }],
    ];
    for (const [what, code, change] of refusals) {
      const result = await t.gql(IMPORT_SUBAGENT, {
        input: { parentThreadId: parent.id, id: fresh, task: 'task', ...change },
      });
      expect(codeOf(result), what).toBe(code);
    }
    expect(await threadExists(fresh)).toBe(false);
    expect((await t.ok(TRANSFERS, { id: parent.id })).thread.subagents).toEqual([{ id }]);
  });
});
