// GET /metrics (THREADLINE_METRICS=on): Prometheus text with requests by operation and outcome,
// Neo4j transactions, the sweeper and the process, over real HTTP; off by default; a token guards it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { createThread, startRun } from '../support/lineage.js';
import { liveClient, subscribe } from '../support/live.js';

let on: TestService;
let guarded: TestService;
let off: TestService;
const TOKEN = 'metrics-token-0123456789';
beforeAll(async () => {
  [on, guarded, off] = await Promise.all([
    startTestService({ THREADLINE_METRICS: 'on' }),
    startTestService({ THREADLINE_METRICS: 'on', THREADLINE_METRICS_TOKEN: TOKEN }),
    startTestService(),
  ]);
});
afterAll(async () => {
  await Promise.all([on?.close(), guarded?.close(), off?.close()]);
});

const metricsUrl = (t: TestService) => new URL('/metrics', t.service.url).href;

/** The value of one sample line, e.g. `name{a="b"} 3`; null when the line is absent. */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('counts GraphQL requests by operation and outcome, and the transactions behind them', async () => {
    const before = await (await fetch(metricsUrl(on))).text();
    const threadId = await createThread(on);
    await startRun(on, threadId, 'codex');
    await on.gql(`query { run(id: "run_missing") { id } }`);
    await on.gql(`mutation { completeRun(input: { runId: "run_missing" }) { id } }`);
    const response = await fetch(metricsUrl(on));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    const count = (operation: string, outcome: string) =>
      sample(text, `threadline_graphql_request_duration_seconds_count{operation="${operation}",outcome="${outcome}"}`);
    expect(count('mutation startRun', 'ok')).toBe(1);
    expect(count('mutation createThread', 'ok')).toBe(1);
    expect(count('query run', 'ok')).toBe(1);
    expect(count('mutation completeRun', 'NOT_FOUND')).toBe(1);
    const writes = (metrics: string) =>
      sample(metrics, 'threadline_graph_transactions_total{mode="write",outcome="committed"}') ?? 0;
    expect(writes(text) - writes(before)).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'threadline_graph_transactions_total{mode="write",outcome="failed"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, 'threadline_graph_transaction_retries_total{mode="write"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'threadline_pending_handoff_sweeps_total{outcome="failed"}')).toBe(0);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('counts open subscription connections and subscriptions', async () => {
    const before = await (await fetch(metricsUrl(on))).text();
    expect(sample(before, 'threadline_subscriptions')).toBe(0);
    const live = liveClient(on);
    const threadId = await createThread(on);
    const subscription = subscribe(
      live,
      `subscription($id: ID!) { threadChanged(threadId: $id, afterSequence: 0) { sequence } }`,
      { id: threadId },
    );
    await startRun(on, threadId, 'codex');
    // The first event says the subscription is in place.
    await subscription.take(1);
    const text = await (await fetch(metricsUrl(on))).text();
    expect(sample(text, 'threadline_subscription_connections')).toBe(1);
    expect(sample(text, 'threadline_subscriptions')).toBe(1);
    await live.dispose();
  });

  it('labels a request that does not validate as unknown, not by what the client sent', async () => {
    await on.gql(`query { noSuchField${'x'.repeat(50)} }`);
    const text = await (await fetch(metricsUrl(on))).text();
    expect(
      sample(
        text,
        'threadline_graphql_request_duration_seconds_count{operation="unknown",outcome="GRAPHQL_VALIDATION_FAILED"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('noSuchField');
  });

  it('is not served unless switched on, and asks for its token when it has one', async () => {
    expect((await fetch(metricsUrl(off))).status).toBe(404);
    const refused = await fetch(metricsUrl(guarded));
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe(
      'UNAUTHENTICATED',
    );
    expect(
      (await fetch(metricsUrl(guarded), { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status,
    ).toBe(401);
    const allowed = await fetch(metricsUrl(guarded), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('threadline_graphql_request_duration_seconds');
  });
});
