// OpenTelemetry traces, as an operator switches them on: spans exported over OTLP/HTTP (JSON) to a
// real HTTP receiver, one per GraphQL request with its Cypher statements as children.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_RUN, createThread } from '../support/lineage.js';
import { startTestService, type TestService } from '../support/service.js';

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  status?: { code?: number };
  attributes: { key: string; value: { stringValue?: string } }[];
}

let receiver: Server;
const exports: { contentType: string | undefined; body: any }[] = [];
let t: TestService;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces')
        exports.push({
          contentType: request.headers['content-type'],
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const { port } = receiver.address() as AddressInfo;
  t = await startTestService({
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${port}/v1/traces`,
    OTEL_SERVICE_NAME: 'threadline-test',
  });
  const threadId = await createThread(t);
  await t.ok(START_RUN, { input: { threadId, provider: 'codex', userMessage: 'traced' } });
  expect(
    (await t.gql('mutation { completeRun(input: { runId: "no-such-run" }) { id } }')).errors?.[0]?.extensions?.code,
  ).toBe('NOT_FOUND');
  // Stopping the service exports what its batch still holds.
  await t.close();
});
afterAll(() => {
  receiver?.close();
});

function spans(): (ExportedSpan & { service: string })[] {
  return exports.flatMap(({ body }) =>
    body.resourceSpans.flatMap((resourceSpans: any) => {
      const service = resourceSpans.resource.attributes.find((attribute: any) => attribute.key === 'service.name')
        ?.value.stringValue;
      return resourceSpans.scopeSpans.flatMap((scope: any) =>
        scope.spans.map((span: ExportedSpan) => ({ ...span, service })),
      );
    }),
  );
}
const attribute = (span: ExportedSpan, key: string) =>
  span.attributes.find((candidate) => candidate.key === key)?.value.stringValue;

describe('tracing', () => {
  it('exports OTLP JSON for the configured service', () => {
    expect(exports.length).toBeGreaterThan(0);
    expect(exports.every((exported) => exported.contentType === 'application/json')).toBe(true);
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
    expect(names).toEqual(
      expect.arrayContaining([
        'cypher threads/lock',
        'cypher planner/snapshot',
        'cypher runs/create',
        'cypher changes/record',
      ]),
    );
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
    ).toEqual(['cypher runs/lock-for-update']);
  });

  it('keeps one trace per operation', () => {
    const roots = spans().filter((span) => !span.parentSpanId);
    expect(new Set(roots.map((span) => span.traceId)).size).toBe(roots.length);
    expect(roots.map((span) => span.name)).toEqual(
      expect.arrayContaining(['mutation createThread', 'mutation startRun', 'mutation completeRun']),
    );
  });
});
