// With API keys, every request needs a bearer token, and a tenant never sees another's data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, startTestService, uniqueId, type TestService } from '../support/service.js';
import { START_RUN } from '../support/lineage.js';
import { fileTenant } from '../support/tenants.js';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef00';
const CAROL = 'carol-key-0123456789abcdef';
let t: TestService;
beforeAll(async () => {
  // Tenants of this run only, so that a reused database (NEO4J_URI) holds no threads of theirs.
  t = await startTestService({
    THREADLINE_API_KEYS: `${ALICE}=${fileTenant('alice')},${BOB}=${fileTenant('bob')},${CAROL}=${fileTenant('carol')}`,
  });
});
afterAll(async () => {
  await t?.close();
});

describe('tenants', () => {
  it('require a valid bearer token', async () => {
    for (const token of [undefined, 'wrong-key-0123456789abcdef']) {
      const result = await t.gql('{ __typename }', {}, token);
      expect(result.status).toBe(401);
      expect(codeOf(result)).toBe('UNAUTHENTICATED');
    }
    expect((await t.gql('{ __typename }', {}, ALICE)).status).toBe(200);
  });

  it('keep threads, runs and provider threads apart, even under the same thread id', async () => {
    const threadId = uniqueId('shared-name');
    await t.ok(
      'mutation($id: ID) { createThread(input: { id: $id, title: "alice" }) { id } }',
      { id: threadId },
      ALICE,
    );
    const started = (await t.ok(START_RUN, { input: { threadId, provider: 'codex', userMessage: 'secret' } }, ALICE))
      .startRun;

    expect((await t.ok('query($id: ID!) { thread(id: $id) { id } }', { id: threadId }, BOB)).thread).toBeNull();
    expect((await t.ok('query($id: ID!) { run(id: $id) { id } }', { id: started.run.id }, BOB)).run).toBeNull();
    expect(
      (await t.ok('query($id: ID!) { providerThread(id: $id) { id } }', { id: started.providerThread.id }, BOB))
        .providerThread,
    ).toBeNull();
    expect(codeOf(await t.gql(START_RUN, { input: { threadId, provider: 'codex', userMessage: 'x' } }, BOB))).toBe(
      'NOT_FOUND',
    );
    expect(
      codeOf(
        await t.gql('mutation($id: ID!) { completeRun(input: { runId: $id }) { id } }', { id: started.run.id }, BOB),
      ),
    ).toBe('NOT_FOUND');
    const bobThreads = (await t.ok('{ threads(first: 100) { edges { node { id } } } }', {}, BOB)).threads.edges;
    expect(bobThreads.map((edge: any) => edge.node.id)).not.toContain(threadId);

    const bobs = (
      await t.ok(
        'mutation($id: ID) { createThread(input: { id: $id, title: "bob" }) { id title headOrdinal } }',
        { id: threadId },
        BOB,
      )
    ).createThread;
    expect(bobs).toEqual({ id: threadId, title: 'bob', headOrdinal: 0 });
    const alices = (await t.ok('query($id: ID!) { thread(id: $id) { title headOrdinal } }', { id: threadId }, ALICE))
      .thread;
    expect(alices).toEqual({ title: 'alice', headOrdinal: 1 });
  });

  it("page a tenant's threads newest first with opaque cursors", async () => {
    const ids = [];
    for (let i = 0; i < 5; i++)
      ids.push((await t.ok('mutation { createThread(input: { title: "c" }) { id } }', {}, CAROL)).createThread.id);
    const PAGE =
      'query($after: String) { threads(first: 2, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }';
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page: any = (await t.ok(PAGE, { after }, CAROL)).threads;
      seen.push(...page.edges.map((edge: any) => edge.node.id));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      pages++;
    } while (after);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
    expect(codeOf(await t.gql(PAGE, { after: 'not-a-cursor' }, CAROL))).toBe('BAD_USER_INPUT');
  });
});
