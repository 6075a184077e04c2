// OpenTelemetry traces, as an operator switches them on: spans exported over OTLP/HTTP (JSON) to a
// real HTTP receiver, one per GraphQL request and one per poll of the change feed, each with its
// Cypher statements as children. The sweeper's spans: test/own-neo4j/sweeper.instances.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_RUN, createThread } from '../support/lineage.js';
import { liveClient, subscribe } from '../support/live.js';
import {
  numberAttribute,
  startOtlpReceiver,
  stringAttribute as attribute,
  type OtlpReceiver,
} from '../support/otlpReceiver.js';
import { startTestService, type TestService } from '../support/service.js';

let receiver: OtlpReceiver;
let t: TestService;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  t = await startTestService({
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.endpoint,
    OTEL_SERVICE_NAME: 'threadline-test',
    THREADLINE_SUBSCRIPTION_POLL_MS: '50',
  });
  const threadId = await createThread(t);
  const live = liveClient(t);
  const { thread } = await t.ok(`query($id: ID!) { thread(id: $id) { changeSequence } }`, { id: threadId });
  const subscription = subscribe(
    live,
    `subscription($id: ID!, $after: Int) { threadChanged(threadId: $id, afterSequence: $after) { sequence } }`,
    { id: threadId, after: thread.changeSequence },
  );
  await t.ok(START_RUN, { input: { threadId, provider: 'codex', userMessage: 'traced' } });
  expect(await subscription.take(1)).toHaveLength(1);
  await live.dispose();
  expect(
    (await t.gql('mutation { completeRun(input: { runId: "no-such-run" }) { id } }')).errors?.[0]?.extensions?.code,
  ).toBe('NOT_FOUND');
  // Stopping the service exports what its batch still holds.
  await t.close();
});
afterAll(() => {
  receiver?.close();
});

const spans = () => receiver.spans();

describe('tracing', () => {
  it('exports OTLP JSON for the configured service', () => {
    expect(receiver.contentTypes().length).toBeGreaterThan(0);
    expect(receiver.contentTypes().every((contentType) => contentType === 'application/json')).toBe(true);
    expect(new Set(spans().map((span) => span.service))).toEqual(new Set(['threadline-test']));
  });

  it('gives each GraphQL operation a span, with its Cypher statements as children in its trace', () => {
    const all = spans();
    const operations = all.filter((span) => span.name === 'mutation startRun');
    expect(operations).toHaveLength(1);
    const operation = operations[0]!;
    expect(attribute(operation, 'graphql.operation.name')).toBe('Start');
    const children = all.filter((span) => span.parentSpanId === operation.spanId);
    expect(children.every((child) => child.traceId === operation.traceId)).toBe(true);
    const names = children.map((child) => child.name);
    expect(names).toEqual(expect.arrayContaining(['cypher planner/locked-snapshot', 'cypher runs/create']));
    // The lock is taken by the snapshot's own statement (cypher/planner/locked-snapshot.cypher).
    expect(names).not.toContain('cypher threads/lock');
    // The run's write records its change in the feed: no statement of its own (cypher/changes/append.fragment.cypher).
    expect(names).not.toContain('cypher changes/record');
    expect(names.every((name) => name.startsWith('cypher '))).toBe(true);
    expect(children.map((child) => attribute(child, 'db.system.name'))).toEqual(children.map(() => 'neo4j'));
  });

  it('marks a refused operation with its error code', () => {
    const refused = spans().find((span) => span.name === 'mutation completeRun');
    expect(refused).toBeDefined();
    expect(attribute(refused!, 'threadline.error_code')).toBe('NOT_FOUND');
    expect(refused!.status?.code).toBe(2);
    expect(
      spans()
        .filter((span) => span.parentSpanId === refused!.spanId)
        .map((span) => span.name),
    ).toEqual(['cypher runs/finish']);
  });

  it("traces the change feed's polls, each with its statement, and counts what each delivered", () => {
    const all = spans();
    const polls = all.filter((span) => span.name === 'poll thread changes');
    expect(polls.length).toBeGreaterThan(0);
    for (const poll of polls) {
      expect(all.filter((span) => span.parentSpanId === poll.spanId).map((span) => span.name)).toEqual([
        'cypher changes/since',
      ]);
      expect(numberAttribute(poll, 'threadline.watched_threads')).toBe(1);
    }
    // startRun recorded one change, which exactly one poll delivered.
    expect(polls.reduce((sum, poll) => sum + numberAttribute(poll, 'threadline.changes'), 0)).toBe(1);
  });

  it('keeps one trace per operation', () => {
    const roots = spans().filter((span) => !span.parentSpanId && !span.name.startsWith('poll '));
    expect(new Set(roots.map((span) => span.traceId)).size).toBe(roots.length);
    expect(roots.map((span) => span.name)).toEqual(
      expect.arrayContaining(['mutation createThread', 'mutation startRun', 'mutation completeRun']),
    );
  });
});
