// Finding threads again: the project a thread belongs to, through GraphQL on the real graph.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateThreadDocument } from '../../client/index.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';
import { expectCode, runTurns } from '../support/lineage.js';

const CREATE = `mutation($input: CreateThreadInput!) { createThread(input: $input) { id title project } }`;

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
