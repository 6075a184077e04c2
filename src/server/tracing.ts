// OpenTelemetry traces for operators (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): one span per GraphQL
// request over HTTP, named like the metrics' operation label (`mutation startRun`), and one per unit
// of background work (`sweep pending handoffs`, `poll thread changes`), each with one child span per
// Cypher statement it ran (`cypher threads/lock`), exported over OTLP/HTTP (JSON) in batches. Parents are passed explicitly, through the request's graph, rather than through a global
// context manager: nothing in the process is patched, and several services in one process (as in
// the tests) keep their traces apart.
import { SpanKind, SpanStatusCode, trace, ROOT_CONTEXT, type Span, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestContext } from '../api/context.js';
import type { TracingSettings } from '../config.js';
import type { BackgroundRunner, Graph, StatementObserver } from '../graph/transactions.js';
import type { OperationContext } from '../operations/context.js';
import { operationLabel } from './metrics.js';

export interface Tracing {
  /** Builds a request's context with its statements traced under a new request span, which `plugin` names and ends. */
  traced(build: (statements: StatementObserver) => RequestContext): RequestContext;
  plugin: ApolloServerPlugin<RequestContext>;
  /** Runs background work on `rootGraph` under a root span of its own, its statements as children. */
  background(rootGraph: Graph): BackgroundRunner;
  /** Exports what is left and stops. */
  shutdown(): Promise<void>;
}

export function createTracing(settings: TracingSettings, database: string): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.endpoint }))],
  });
  const tracer = provider.getTracer('threadline');
  // Apollo hands plugins a shallow copy of the context: the request's operations object identifies it.
  const requests = new WeakMap<OperationContext, Span>();
  return {
    traced(build) {
      const span = tracer.startSpan('graphql', { kind: SpanKind.SERVER });
      const context = build(statementsUnder(tracer, span, database));
      requests.set(context.operations, span);
      return context;
    },
    plugin: {
      requestDidStart({ contextValue }) {
        const span = requests.get(contextValue.operations);
        if (!span) return Promise.resolve();
        return Promise.resolve({
          didResolveOperation({ operation, operationName }) {
            span.updateName(operationLabel(operation));
            if (operation) span.setAttribute('graphql.operation.type', operation.operation);
            if (operationName) span.setAttribute('graphql.operation.name', boundedName(operationName));
            return Promise.resolve();
          },
          willSendResponse({ response }) {
            // The answer's errors, as formatError gave them their contract codes.
            const body = response.body.kind === 'single' ? response.body.singleResult : null;
            const code = body?.errors?.[0]?.extensions?.code;
            if (typeof code === 'string') {
              span.setAttribute('threadline.error_code', code);
              span.setStatus({ code: SpanStatusCode.ERROR, message: code });
            }
            span.end();
            return Promise.resolve();
          },
        });
      },
    },
    background: (rootGraph) => async (name, work, describe) => {
      const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL });
      try {
        const result = await work(rootGraph.withStatementsObservedBy(statementsUnder(tracer, span, database)));
        if (describe) span.setAttributes(describe(result));
        return result;
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
    shutdown: () => provider.shutdown(),
  };
}

function statementsUnder(tracer: Tracer, parent: Span, database: string): StatementObserver {
  const parentContext = trace.setSpan(ROOT_CONTEXT, parent);
  return {
    statementStarted(name) {
      const span = tracer.startSpan(
        `cypher ${name}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { 'db.system.name': 'neo4j', 'db.namespace': database, 'db.query.summary': name },
        },
        parentContext,
      );
      return (error) => {
        if (error !== undefined) {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      };
    },
  };
}

/** Operation names are the client's text: a span keeps at most this much of one. */
const MAX_OPERATION_NAME = 200;

function boundedName(name: string): string {
  return name.length <= MAX_OPERATION_NAME ? name : `${name.slice(0, MAX_OPERATION_NAME - 1).toWellFormed()}…`;
}
