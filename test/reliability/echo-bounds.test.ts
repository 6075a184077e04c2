// What a client sends is never echoed or recorded without bound: a long operation name reaches the
// trace's span attribute cut short, an unknown operation name comes back cut short in the error, and
// a DateTime variable nested 5,000 deep is a BAD_USER_INPUT, not an internal error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, stringAttribute, type OtlpReceiver } from '../support/otlpReceiver.js';
import { startTestService, type TestService } from '../support/service.js';

const LONG_NAME = `Q${'x'.repeat(300_000)}`;
let receiver: OtlpReceiver;
let t: TestService;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  t = await startTestService({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.endpoint });
});
afterAll(async () => {
  await t?.close();
  receiver?.close();
});

async function post(body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(t.service.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.apiKey}` },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe('bounded echoes of client text', () => {
  it('records a long operation name in its span cut short', async () => {
    const answer = await post({ query: `query ${LONG_NAME} { __typename }` });
    expect(answer.status).toBe(200);
    await t.close(); // exports what the batch holds
    const named = receiver.spans().filter((span) => stringAttribute(span, 'graphql.operation.name') !== undefined);
    expect(named.length).toBeGreaterThan(0);
    for (const span of named) expect(stringAttribute(span, 'graphql.operation.name')!.length).toBeLessThanOrEqual(200);
    t = await startTestService();
  });

  it('cuts an unknown operation name short in the error', async () => {
    const answer = await post({ query: '{ __typename }', operationName: LONG_NAME });
    expect(answer.text.length).toBeLessThan(5_000);
    expect(JSON.parse(answer.text).errors[0].message).toMatch(/^Unknown operation named "Qxxx/);
  });

  it('answers a DateTime variable nested 5,000 deep with BAD_USER_INPUT', async () => {
    // Written out by hand: JSON.stringify itself cannot nest that deep.
    const deep = `${'['.repeat(5_000)}"2026-01-01T00:00:00Z"${']'.repeat(5_000)}`;
    const query = 'query($from: DateTime!, $to: DateTime!) { analytics(from: $from, to: $to) { __typename } }';
    const answer = await post(
      `{"query":${JSON.stringify(query)},"variables":{"from":${deep},"to":"2026-02-01T00:00:00Z"}}`,
    );
    const body = JSON.parse(answer.text) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe('BAD_USER_INPUT');
    expect(answer.text.length).toBeLessThan(5_000);
  });
});
