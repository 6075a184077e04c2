// A real OTLP/HTTP receiver for traces, as an operator's collector would be: it keeps every span the
// service exports (JSON), with the service name of the resource it came under.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  status?: { code?: number };
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
  service: string;
}

export interface OtlpReceiver {
  /** What to set OTEL_EXPORTER_OTLP_TRACES_ENDPOINT to. */
  endpoint: string;
  /** The content type of every export so far. */
  contentTypes(): (string | undefined)[];
  spans(): ExportedSpan[];
  close(): void;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: { contentType: string | undefined; body: any }[] = [];
  const server = createServer((request, response) => {
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
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/v1/traces`,
    contentTypes: () => exports.map((exported) => exported.contentType),
    spans: () =>
      exports.flatMap(({ body }) =>
        body.resourceSpans.flatMap((resourceSpans: any) => {
          const service = resourceSpans.resource.attributes.find((attribute: any) => attribute.key === 'service.name')
            ?.value.stringValue;
          return resourceSpans.scopeSpans.flatMap((scope: any) =>
            scope.spans.map((span: Omit<ExportedSpan, 'service'>) => ({ ...span, service })),
          );
        }),
      ),
    close: () => server.close(),
  };
}

export const stringAttribute = (span: ExportedSpan, key: string) =>
  span.attributes.find((candidate) => candidate.key === key)?.value.stringValue;
export const numberAttribute = (span: ExportedSpan, key: string) =>
  Number(span.attributes.find((candidate) => candidate.key === key)?.value.intValue);
