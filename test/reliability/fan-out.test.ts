// Fan-out within a budget (docs/live-updates.md), over real WebSockets: 8 connections x 20
// subscriptions to one thread and one change. A change is resolved once per tenant and selection, not
// once per subscription; and the bytes the instance sends for it stay within the change's budget:
// a subscriber whose answer would not fit its share gets the event without its thread, marked
// withheld and resync, with the change's ids, while a small selection still gets the thread whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeRun, createThread, startRun } from '../support/lineage.js';
import { liveClient, subscribe, type LiveClient, type Subscription } from '../support/live.js';
import { startTestService, type TestService } from '../support/service.js';

const CONNECTIONS = 8;
const PER_CONNECTION = 20;
const SUBSCRIPTIONS = CONNECTIONS * PER_CONNECTION;
/** The documented defaults, which the service below runs with. */
const EVENT_MAX_BYTES = 1_048_576;
const CHANGE_MAX_BYTES = 16_777_216;
/** A withheld event's message: its selection without the thread, and the protocol's envelope. */
const MARKER_MAX_BYTES = 1_024;
/** A user message near the longest allowed: ten runs of them are ~1 MB of text. */
const LONG_TEXT = 'a long run that keeps going '.repeat(3_500);

let t: TestService;
const clients: LiveClient[] = [];
beforeAll(async () => {
  t = await startTestService({ THREADLINE_SUBSCRIPTION_POLL_MS: '50' });
});
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await t?.close();
});

const selecting = (thread: string) => `subscription($id: ID!, $after: Int) {
  threadChanged(threadId: $id, afterSequence: $after) { threadId sequence kind resync withheld thread { ${thread} } }
}`;
const FIRST_RUNS = selecting('id title runs(first: 5) { edges { node { id userMessage } } }');
const SMALL = selecting('id title changeSequence');
const LONG_RUNS = (runs: number) => selecting(`id runs(first: ${runs}) { edges { node { id userMessage } } }`);

function liveClientFor(): LiveClient {
  const live = liveClient(t);
  clients.push(live);
  return live;
}

async function changeSequence(threadId: string): Promise<number> {
  const { thread } = await t.ok<{ thread: { changeSequence: number } }>(
    'query($id: ID!) { thread(id: $id) { changeSequence } }',
    { id: threadId },
  );
  return thread.changeSequence;
}

/** A thread whose first `runs` runs each carry LONG_TEXT as their user message. */
async function threadOfLongRuns(runs: number): Promise<string> {
  const threadId = await createThread(t, 'long runs');
  for (let i = 0; i < runs; i++) {
    const started = await startRun(t, threadId, 'codex', { userMessage: LONG_TEXT });
    await completeRun(t, started.run.id);
  }
  return threadId;
}

/** `count` subscriptions of `query`, `perConnection` to a connection, all in place once the feed polled them. */
async function subscribeMany(count: number, perConnection: number, query: string, variables: Record<string, unknown>) {
  const subscriptions: Subscription[] = [];
  const opened: LiveClient[] = [];
  for (let made = 0; made < count; made += perConnection) {
    const live = liveClientFor();
    opened.push(live);
    for (let s = made; s < Math.min(count, made + perConnection); s++)
      subscriptions.push(subscribe(live, query, variables));
    await live.connected;
  }
  return { subscriptions, bytesReceived: () => opened.reduce((sum, live) => sum + live.bytesReceived(), 0) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 500));
const startRunOn = (threadId: string, userMessage: string) =>
  t.ok('mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }', {
    input: { threadId, provider: 'claude', userMessage },
  });

describe('a change to 160 subscriptions of one selection', () => {
  it('reaches each of them, resolved once', async () => {
    const threadId = await createThread(t, 'fan-out');
    const { subscriptions } = await subscribeMany(SUBSCRIPTIONS, PER_CONNECTION, FIRST_RUNS, {
      id: threadId,
      after: await changeSequence(threadId),
    });
    await settle();

    const before = t.sessionsOpened();
    await startRunOn(threadId, 'fan me out');
    const received = await Promise.all(subscriptions.map((subscription) => subscription.take(1)));
    const opened = t.sessionsOpened() - before;

    const first = JSON.stringify(received[0]![0]);
    expect(received.every((results) => results.length === 1 && JSON.stringify(results[0]) === first)).toBe(true);
    // A small selection is far below its share of the change's budget: whole, not withheld.
    expect(received[0]![0].data.threadChanged).toMatchObject({ resync: false, withheld: null });
    expect(received[0]![0].data.threadChanged.thread.runs.edges[0].node.userMessage).toBe('fan me out');
    // The mutation's own transactions, the feed's polls, and one resolution of the selection (before:
    // one per subscription, 160 and more).
    expect(opened).toBeLessThan(SUBSCRIPTIONS / 4);
  });
});

describe('a change to 160 subscriptions on long runs', () => {
  it('sends at most the change budget, a marker with the ids to those over their share', async () => {
    // Six long runs: each answer ~600 KB, under the per-event limit but over a 160th of the budget;
    // whole, the change would send ~96 MB.
    const threadId = await threadOfLongRuns(6);
    const after = await changeSequence(threadId);
    const long = await subscribeMany(SUBSCRIPTIONS, PER_CONNECTION, LONG_RUNS(6), { id: threadId, after });
    const small = await subscribeMany(1, 1, SMALL, { id: threadId, after });
    await settle();

    const bytesBefore = long.bytesReceived() + small.bytesReceived();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 5);
    await startRunOn(threadId, 'one more');
    const received = await Promise.all(
      [...long.subscriptions, ...small.subscriptions].map((subscription) => subscription.take(1)),
    );
    clearInterval(sampler);
    const sent = long.bytesReceived() + small.bytesReceived() - bytesBefore;
    const rssGrowth = rssPeak - rssBefore;
    console.log(
      `fan-out of one change to ${SUBSCRIPTIONS + 1} subscriptions: ${sent} bytes sent, RSS +${(rssGrowth / 2 ** 20).toFixed(1)} MiB`,
    );

    const change = { threadId, sequence: after + 1, kind: 'RUN_STARTED' };
    for (const results of received.slice(0, SUBSCRIPTIONS)) {
      expect(results).toHaveLength(1);
      expect(results[0].errors).toBeUndefined();
      expect(results[0].data.threadChanged).toEqual({
        ...change,
        resync: true,
        withheld: 'FAN_OUT_BUDGET',
        thread: null,
      });
    }
    const whole = received[SUBSCRIPTIONS]![0].data.threadChanged;
    expect(whole).toMatchObject({ ...change, resync: false, withheld: null });
    expect(whole.thread.title).toBe('long runs');

    // The documented bound: the change's budget, and a marker per subscriber.
    expect(sent).toBeLessThanOrEqual(CHANGE_MAX_BYTES + (SUBSCRIPTIONS + 1) * MARKER_MAX_BYTES);
    // What the instance held meanwhile stays within the same order: the budget's worth of answers
    // read and sent at most, never one answer per subscriber (~96 MB and more).
    expect(rssGrowth).toBeLessThan(4 * CHANGE_MAX_BYTES);
  });

  it('withholds one answer over the per-event limit, and leaves a smaller one whole', async () => {
    // Twelve long runs: ~1.2 MB, over the per-event limit; six of them, ~600 KB, are not.
    const threadId = await threadOfLongRuns(12);
    const after = await changeSequence(threadId);
    const huge = subscribe(liveClientFor(), LONG_RUNS(12), { id: threadId, after });
    const normal = subscribe(liveClientFor(), LONG_RUNS(6), { id: threadId, after });
    await settle();

    await startRunOn(threadId, 'one more');
    const [[tooLarge], [fits]] = await Promise.all([huge.take(1), normal.take(1)]);

    expect(tooLarge.data.threadChanged).toEqual({
      threadId,
      sequence: after + 1,
      kind: 'RUN_STARTED',
      resync: true,
      withheld: 'EVENT_TOO_LARGE',
      thread: null,
    });
    expect(fits.errors).toBeUndefined();
    expect(fits.data.threadChanged).toMatchObject({ resync: false, withheld: null });
    const runs = fits.data.threadChanged.thread.runs.edges;
    expect(runs).toHaveLength(6);
    expect(runs.every((edge: any) => edge.node.userMessage === LONG_TEXT)).toBe(true);
    expect(JSON.stringify(fits).length).toBeLessThan(EVENT_MAX_BYTES);
  });
});
