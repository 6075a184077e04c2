// Live updates: GraphQL subscriptions over a real WebSocket (graphql-ws), fed by the change feed in
// the graph, so that a subscriber on one instance sees what another instance changed.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  COMPLETE_RUN,
  START_RUN,
  completeRun,
  createThread,
  expectCode,
  runTurns,
  startRun,
} from '../support/lineage.js';
import { liveClient, subscribe, type LiveClient } from '../support/live.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

// Short, so the tests wait little for the poll; the default is 500 ms.
const FAST = { THREADLINE_SUBSCRIPTION_POLL_MS: '50' };

const CHANGES = `subscription($threadId: ID!, $after: Int) {
  threadChanged(threadId: $threadId, afterSequence: $after) {
    sequence kind resync at
    thread { id title headOrdinal changeSequence runs { edges { node { ordinal status } } } }
  }
}`;
const CHANGE_SEQUENCE = `query($id: ID!) { thread(id: $id) { changeSequence } }`;
const BIND = `mutation($input: BindProviderThreadInput!) { bindNativeThread(input: $input) { providerThread { id } } }`;
const REGENERATE = `mutation($id: ID!) { regenerateHandoff(input: { handoffId: $id, source: "local" }) { id } }`;
const FAIL = `mutation($input: FailRunInput!) { failRun(input: $input) { status } }`;
const ROLLBACK = `mutation($threadId: ID!, $to: Int!) { rollbackThread(input: { threadId: $threadId, toOrdinal: $to }) { thread { headOrdinal } } }`;

const changesOf = (results: any[]) => results.map((result) => result.data.threadChanged);
const kindsOf = (results: any[]) => changesOf(results).map((change) => `${change.sequence} ${change.kind}`);

describe('subscriptions on one instance', () => {
  let t: TestService;
  const clients: LiveClient[] = [];
  const connect = (...args: Parameters<typeof liveClient> extends [unknown, ...infer Rest] ? Rest : never) => {
    const live = liveClient(t, ...args);
    clients.push(live);
    return live;
  };
  beforeAll(async () => {
    t = await startTestService({ ...FAST, THREADLINE_MAX_SUBSCRIPTIONS_PER_CONNECTION: '2' });
  });
  afterAll(async () => {
    await Promise.all(clients.map((live) => live.dispose()));
    await t?.close();
  });

  // The end of a run is recorded by runs/finish itself (cypher/changes/append.fragment.cypher), only
  // when the run was running: an end refused adds nothing to the feed.
  it('records a failed and an interrupted run as RUN_FAILED, and nothing for an end refused', async () => {
    const threadId = await createThread(t);
    const subscription = subscribe(connect(), CHANGES, { threadId, after: 0 });
    const failed = await startRun(t, threadId, 'codex');
    expect((await t.ok(FAIL, { input: { runId: failed.run.id, error: 'tests failed' } })).failRun.status).toBe(
      'FAILED',
    );
    const stopped = await startRun(t, threadId, 'codex');
    const input = { runId: stopped.run.id, error: 'stopped by the user', interrupted: true };
    expect((await t.ok(FAIL, { input })).failRun.status).toBe('INTERRUPTED');
    await expectCode(t.gql(COMPLETE_RUN, { input: { runId: stopped.run.id, assistantMessage: 'late' } }), 'CONFLICT');
    await expectCode(t.gql(FAIL, { input }), 'CONFLICT');
    await startRun(t, threadId, 'codex');

    expect(kindsOf(await subscription.take(5))).toEqual([
      '1 RUN_STARTED',
      '2 RUN_FAILED',
      '3 RUN_STARTED',
      '4 RUN_FAILED',
      '5 RUN_STARTED',
    ]);
    expect((await t.ok(CHANGE_SEQUENCE, { id: threadId })).thread.changeSequence).toBe(5);
  });

  it('delivers every change of a thread in order, each with the thread as it is then', async () => {
    const threadId = await createThread(t);
    const { thread } = await t.ok(CHANGE_SEQUENCE, { id: threadId });
    expect(thread.changeSequence).toBe(0);
    const subscription = subscribe(connect(), CHANGES, { threadId, after: thread.changeSequence });

    const first = await startRun(t, threadId, 'codex');
    await t.ok(BIND, {
      input: { providerThreadId: first.providerThread.id, nativeThreadRef: uniqueId('codex-session') },
    });
    await completeRun(t, first.run.id);
    const second = await startRun(t, threadId, 'claude');
    expect(second.handoff).not.toBeNull();
    await t.ok(REGENERATE, { id: second.handoff.id });
    await completeRun(t, second.run.id);
    await t.ok(ROLLBACK, { threadId, to: 1 });

    const results = await subscription.take(7);
    expect(results.every((result) => result.errors === undefined)).toBe(true);
    expect(kindsOf(results)).toEqual([
      '1 RUN_STARTED',
      '2 PROVIDER_THREAD_BOUND',
      '3 RUN_COMPLETED',
      '4 RUN_STARTED',
      '5 HANDOFF_REPLACED',
      '6 RUN_COMPLETED',
      '7 ROLLED_BACK',
    ]);
    const changes = changesOf(results);
    expect(changes.map((change) => change.resync)).toEqual(Array(7).fill(false));
    expect(changes.every((change) => change.thread.id === threadId && !Number.isNaN(Date.parse(change.at)))).toBe(true);
    // The last event reads the thread after the rollback: run 2 rolled back, the head back at 1.
    const last = changes.at(-1);
    expect(last.thread.headOrdinal).toBe(1);
    expect(last.thread.changeSequence).toBe(7);
    expect(last.thread.runs.edges.map((edge: any) => `${edge.node.ordinal} ${edge.node.status}`)).toEqual([
      '1 COMPLETED',
      '2 ROLLED_BACK',
    ]);
    expect((await t.ok(CHANGE_SEQUENCE, { id: threadId })).thread.changeSequence).toBe(7);
  });

  it('starts after the newest change without afterSequence', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 1);
    const subscription = subscribe(connect(), CHANGES, { threadId });
    // When the subscription took its starting point is not visible from here: change the thread
    // until it reports something. Whatever it reports first is newer than the changes before it.
    let runs = 0;
    while (subscription.results.length === 0 && subscription.failure === null) {
      await runTurns(t, threadId, 'codex', 1);
      runs++;
      await Promise.race([subscription.take(1), new Promise((resolve) => setTimeout(resolve, 200))]);
    }
    const first = changesOf(await subscription.take(1))[0];
    expect(first.sequence).toBeGreaterThan(2);
    expect(first.sequence).toBeLessThanOrEqual(2 + 2 * runs);
    subscription.unsubscribe();
  });

  it('gives a subscriber that comes back with the last sequence it saw what it missed', async () => {
    const threadId = await createThread(t);
    const live = connect();
    const before = subscribe(live, CHANGES, { threadId, after: 0 });
    const first = await startRun(t, threadId, 'codex');
    const seen = changesOf(await before.take(1)).at(-1).sequence;
    before.unsubscribe();

    await completeRun(t, first.run.id);
    const second = await startRun(t, threadId, 'claude');
    await completeRun(t, second.run.id);
    const again = subscribe(live, CHANGES, { threadId, after: seen });
    expect(kindsOf(await again.take(3))).toEqual(['2 RUN_COMPLETED', '3 RUN_STARTED', '4 RUN_COMPLETED']);
    expect(changesOf(again.results).map((change) => change.resync)).toEqual([false, false, false]);
    again.unsubscribe();
  });

  it('gives a subscriber further behind than the 500 kept changes the oldest kept one, marked resync', async () => {
    const threadId = await createThread(t);
    const first = await runTurns(t, threadId, 'codex', 1);
    // Binding the same native id again is a change each time, and the cheapest one: 2 + 518 = 520.
    const input = { providerThreadId: first.providerThread.id, nativeThreadRef: uniqueId('codex-session') };
    for (let bound = 0; bound < 518; bound += 14) {
      await Promise.all(Array.from({ length: Math.min(14, 518 - bound) }, () => t.ok(BIND, { input })));
    }
    expect((await t.ok(CHANGE_SEQUENCE, { id: threadId })).thread.changeSequence).toBe(520);
    // The newest 500 are kept: 21 to 520.
    const { records } = await t.driver.executeQuery(
      `MATCH (change:ThreadChange {tenant: $tenant, threadId: $threadId})
       RETURN count(change) AS kept, min(change.sequence) AS oldest`,
      { threadId, tenant: t.tenant },
      { database: inject('neo4j').database },
    );
    expect([Number(records[0]!.get('kept')), Number(records[0]!.get('oldest'))]).toEqual([500, 21]);

    const live = connect();
    const firstOf = async (after: number) => {
      const subscription = subscribe(live, CHANGES, { threadId, after });
      const [change] = changesOf(await subscription.take(1));
      subscription.unsubscribe();
      return { sequence: change.sequence, kind: change.kind, resync: change.resync };
    };
    // Changes 1 to 20 left the feed: whoever had not seen all of them is told to read the thread again.
    for (const after of [0, 1, 19]) {
      expect(await firstOf(after), `after ${after}`).toEqual({
        sequence: 21,
        kind: 'PROVIDER_THREAD_BOUND',
        resync: true,
      });
    }
    // One that saw change 20 missed nothing the feed no longer has.
    expect(await firstOf(20)).toEqual({ sequence: 21, kind: 'PROVIDER_THREAD_BOUND', resync: false });
  });

  it('answers an unknown thread with NOT_FOUND, and bad input with its code', async () => {
    const live = connect();
    const unknown = subscribe(live, CHANGES, { threadId: uniqueId('no-such-thread') });
    await unknown.ended();
    expect(unknown.results[0].errors[0].extensions.code).toBe('NOT_FOUND');
    expect(unknown.completed).toBe(true);

    const negative = subscribe(live, CHANGES, { threadId: await createThread(t), after: -1 });
    await negative.ended();
    expect(negative.results[0].errors[0].extensions.code).toBe('BAD_USER_INPUT');

    const mistyped = subscribe(live, CHANGES, { threadId: 'x', after: 'one' });
    await mistyped.ended();
    expect((mistyped.failure as any[])[0].extensions.code).toBe('BAD_USER_INPUT');

    const query = subscribe(live, `{ __typename }`);
    await query.ended();
    expect((query.failure as any[])[0].extensions.code).toBe('BAD_REQUEST');

    const unparsable = subscribe(live, `subscription {`);
    await unparsable.ended();
    expect((unparsable.failure as any[])[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');

    const tooDeep = subscribe(
      live,
      `subscription($id: ID!) { threadChanged(threadId: $id) { thread { runs { edges { node { thread { runs { edges { node { thread { id } } } } } } } } } } }`,
      { id: 'x' },
    );
    await tooDeep.ended();
    expect((tooDeep.failure as any[])[0].extensions).toMatchObject({
      code: 'GRAPHQL_VALIDATION_FAILED',
      limit: 'depth',
    });
  });

  it('holds at most the configured subscriptions per connection', async () => {
    const live = connect();
    const threads = [await createThread(t), await createThread(t), await createThread(t)];
    // Sent in this order on one socket and held open, so the third is always over the limit.
    const held = threads.slice(0, 2).map((threadId) => subscribe(live, CHANGES, { threadId }));
    const third = subscribe(live, CHANGES, { threadId: threads[2] });
    await third.ended();
    expect((third.failure as any[])[0].extensions).toMatchObject({ code: 'BAD_REQUEST', limit: 2 });
    held.forEach((subscription) => subscription.unsubscribe());
  });
});

describe('subscriptions across instances on one Neo4j', () => {
  let a: TestService;
  let b: TestService;
  let live: LiveClient;
  beforeAll(async () => {
    [a, b] = await Promise.all([startTestService(FAST), startTestService(FAST)]);
    live = liveClient(a);
  });
  afterAll(async () => {
    await live?.dispose();
    await Promise.all([a?.close(), b?.close()]);
  });

  it('a subscriber on instance A sees the changes made through instance B', async () => {
    const threadId = await createThread(b);
    const subscription = subscribe(live, CHANGES, {
      threadId,
      after: (await a.ok(CHANGE_SEQUENCE, { id: threadId })).thread.changeSequence,
    });
    const started = await startRun(b, threadId, 'codex');
    await completeRun(b, started.run.id);
    const results = await subscription.take(2);
    expect(kindsOf(results)).toEqual(['1 RUN_STARTED', '2 RUN_COMPLETED']);
    expect(changesOf(results)[1].thread.runs.edges.map((edge: any) => edge.node.status)).toEqual(['COMPLETED']);
    subscription.unsubscribe();
  });
});

describe('subscriptions with API keys', () => {
  const ALICE = 'alice-live-key-0123456789';
  const BOB = 'bob-live-key-0123456789ab';
  let t: TestService;
  const clients: LiveClient[] = [];
  const connect = (options: Parameters<typeof liveClient>[1]) => {
    const live = liveClient(t, options);
    clients.push(live);
    return live;
  };
  beforeAll(async () => {
    t = await startTestService({
      ...FAST,
      THREADLINE_API_KEYS: `${ALICE}=${fileTenant('alice')},${BOB}=${fileTenant('bob')}`,
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await t?.close();
  });

  it('refuse a connection without a valid key with 4403, and take the key from connection_init or the upgrade header', async () => {
    for (const options of [
      {},
      { token: 'wrong-key-0123456789abcdef' },
      { headerToken: 'wrong-key-0123456789abcdef' },
    ]) {
      const live = connect(options);
      const subscription = subscribe(live, CHANGES, { threadId: 'any' });
      await subscription.ended();
      expect((await live.closed).code).toBe(4403);
    }
    const threadId = uniqueId('keyed');
    await t.ok('mutation($id: ID) { createThread(input: { id: $id }) { id } }', { id: threadId }, ALICE);
    for (const options of [{ token: ALICE }, { headerToken: ALICE }]) {
      const subscription = subscribe(connect(options), CHANGES, { threadId, after: 0 });
      await t.ok(
        `mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }`,
        { input: { threadId, provider: 'codex', userMessage: 'hi' } },
        ALICE,
      );
      const [result] = await subscription.take(1);
      expect(result.errors).toBeUndefined();
      expect(result.data.threadChanged.thread.id).toBe(threadId);
      subscription.unsubscribe();
      const running = (
        await t.ok(
          `query($id: ID!) { thread(id: $id) { runs(last: 1) { edges { node { id } } } } }`,
          { id: threadId },
          ALICE,
        )
      ).thread.runs.edges[0].node.id;
      await t.ok(`mutation($id: ID!) { completeRun(input: { runId: $id }) { id } }`, { id: running }, ALICE);
    }
  });

  it("never show a tenant another tenant's thread, even under the same id", async () => {
    const threadId = uniqueId('shared');
    for (const [token, title] of [
      [ALICE, 'alice'],
      [BOB, 'bob'],
    ] as const) {
      await t.ok(
        'mutation($id: ID, $title: String) { createThread(input: { id: $id, title: $title }) { id } }',
        { id: threadId, title },
        token,
      );
    }
    const aliceOnly = uniqueId('alice-only');
    await t.ok('mutation($id: ID) { createThread(input: { id: $id }) { id } }', { id: aliceOnly }, ALICE);
    const bobClient = connect({ token: BOB });
    const unknownToBob = subscribe(bobClient, CHANGES, { threadId: aliceOnly });
    const own = subscribe(bobClient, CHANGES, { threadId, after: 0 });
    // Alice's changes come first and include a kind Bob's do not: a leak would show in Bob's feed.
    const alice = (await t.ok(START_RUN, { input: { threadId, provider: 'codex', userMessage: 'alice' } }, ALICE))
      .startRun;
    await t.ok(
      BIND,
      { input: { providerThreadId: alice.providerThread.id, nativeThreadRef: uniqueId('alice-session') } },
      ALICE,
    );
    const bob = (await t.ok(START_RUN, { input: { threadId, provider: 'claude', userMessage: 'bob' } }, BOB)).startRun;
    await t.ok(`mutation($id: ID!) { completeRun(input: { runId: $id }) { id } }`, { id: bob.run.id }, BOB);
    const results = await own.take(2);
    expect(kindsOf(results)).toEqual(['1 RUN_STARTED', '2 RUN_COMPLETED']);
    expect(changesOf(results)[1].thread.title).toBe('bob');
    await unknownToBob.ended();
    expect(unknownToBob.results[0].errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('subscription limits and shutdown', () => {
  it('refuses connections over the cap, and closes open ones with 1001 when the service stops', async () => {
    const t = await startTestService({ ...FAST, THREADLINE_MAX_SUBSCRIPTION_CONNECTIONS: '1' });
    const first = liveClient(t);
    const threadId = await createThread(t);
    const open = subscribe(first, CHANGES, { threadId });
    await first.connected;
    const second = liveClient(t);
    const refused = subscribe(second, CHANGES, { threadId });
    await refused.ended();
    expect(refused.failure).not.toBeNull();
    expect(refused.results).toEqual([]);
    await t.close();
    expect((await first.closed).code).toBe(1001);
    await open.ended();
    await Promise.all([first.dispose(), second.dispose()]);
  });
});
