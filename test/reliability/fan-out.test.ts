// Fan-out within a budget: 8 connections x 20 subscriptions to one thread, all with one selection,
// and one change. Each subscription receives it, and the change is resolved once for them all (per
// tenant and selection), not once per subscription: the graph sessions the fan-out opens stay few.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveClient, subscribe, type LiveClient } from '../support/live.js';
import { startTestService, type TestService } from '../support/service.js';

const CONNECTIONS = 8;
const PER_CONNECTION = 20;
let t: TestService;
const clients: LiveClient[] = [];
beforeAll(async () => {
  t = await startTestService({ THREADLINE_SUBSCRIPTION_POLL_MS: '50' });
});
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await t?.close();
});

const SELECTION = `subscription($id: ID!, $after: Int) {
  threadChanged(threadId: $id, afterSequence: $after) { sequence kind thread { id title runs(first: 5) { edges { node { id userMessage } } } } }
}`;

describe('a change to 160 subscriptions of one selection', () => {
  it('reaches each of them, resolved once', async () => {
    const { createThread } = await t.ok<{ createThread: { id: string } }>(
      'mutation { createThread(input: { title: "fan-out" }) { id } }',
    );
    const threadId = createThread.id;
    const { thread } = await t.ok<{ thread: { changeSequence: number } }>(
      'query($id: ID!) { thread(id: $id) { changeSequence } }',
      { id: threadId },
    );
    const subscriptions = [];
    for (let c = 0; c < CONNECTIONS; c++) {
      const live = liveClient(t);
      clients.push(live);
      for (let s = 0; s < PER_CONNECTION; s++)
        subscriptions.push(subscribe(live, SELECTION, { id: threadId, after: thread.changeSequence }));
      await live.connected;
    }
    // Every subscription is in place once the feed has polled with all of them.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const before = t.sessionsOpened();
    await t.ok('mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }', {
      input: { threadId, provider: 'codex', userMessage: 'fan me out' },
    });
    const received = await Promise.all(subscriptions.map((subscription) => subscription.take(1)));
    const opened = t.sessionsOpened() - before;

    const first = JSON.stringify(received[0]![0]);
    expect(received.every((results) => results.length === 1 && JSON.stringify(results[0]) === first)).toBe(true);
    expect(received[0]![0].data.threadChanged.thread.runs.edges[0].node.userMessage).toBe('fan me out');
    // The mutation's own transactions, the feed's polls, and one resolution of the selection (before:
    // one per subscription, 160 and more).
    expect(opened).toBeLessThan((CONNECTIONS * PER_CONNECTION) / 4);
  });
});
