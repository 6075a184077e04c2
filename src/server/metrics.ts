// Prometheus metrics for operators (THREADLINE_METRICS=on): GraphQL requests by operation and
// outcome with their latency, Neo4j transactions by outcome and the driver's retries, the pending
// handoff sweeper's work, open subscriptions, and the process's own metrics. Labels are bounded by the schema and the
// error codes, never by what a client sends.
import type { ApolloServerPlugin } from '@apollo/server';
import { Kind, type OperationDefinitionNode } from 'graphql';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { TransactionObserver } from '../graph/transactions.js';

export interface Metrics {
  registry: Registry;
  transactions: TransactionObserver;
  graphqlPlugin: ApolloServerPlugin;
  sweepEnded(outcome: 'ok' | 'failed', replaced: number): void;
  /** Where the subscription gauges read their values when scraped. */
  observeSubscriptions(read: () => { connections: number; subscriptions: number }): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'threadline_graphql_request_duration_seconds',
    help: 'GraphQL requests by operation (kind and first root field) and outcome (ok, or the first error code), with their latency.',
    labelNames: ['operation', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers: [registry],
  });
  const transactions = new Counter({
    name: 'threadline_graph_transactions_total',
    help: 'Neo4j transactions by mode (read, write) and outcome (committed, failed, unavailable).',
    labelNames: ['mode', 'outcome'],
    registers: [registry],
  });
  const retries = new Counter({
    name: 'threadline_graph_transaction_retries_total',
    help: "Times the driver ran a transaction's work again after a transient error, by mode.",
    labelNames: ['mode'],
    registers: [registry],
  });
  const sweeps = new Counter({
    name: 'threadline_pending_handoff_sweeps_total',
    help: 'Runs of the pending-handoff sweeper, by outcome.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const replaced = new Counter({
    name: 'threadline_pending_handoffs_replaced_total',
    help: 'Expired pending handoffs this instance replaced by local summaries.',
    registers: [registry],
  });
  let readSubscriptions = () => ({ connections: 0, subscriptions: 0 });
  new Gauge({
    name: 'threadline_subscription_connections',
    help: 'Open WebSocket connections for GraphQL subscriptions on this instance.',
    registers: [registry],
    collect() {
      this.set(readSubscriptions().connections);
    },
  });
  new Gauge({
    name: 'threadline_subscriptions',
    help: 'Subscriptions to thread changes this instance feeds.',
    registers: [registry],
    collect() {
      this.set(readSubscriptions().subscriptions);
    },
  });
  // Zero from the start, so that a rate over them exists before the first event.
  for (const outcome of ['ok', 'failed']) sweeps.inc({ outcome }, 0);
  for (const mode of ['read', 'write']) retries.inc({ mode }, 0);

  return {
    registry,
    transactions: {
      transactionEnded(mode, attempts, outcome) {
        transactions.inc({ mode, outcome });
        if (attempts > 1) retries.inc({ mode }, attempts - 1);
      },
    },
    graphqlPlugin: {
      requestDidStart() {
        const started = process.hrtime.bigint();
        return Promise.resolve({
          willSendResponse({ operation, response }) {
            // The answer's errors, as formatError gave them their contract codes.
            const body = response.body.kind === 'single' ? response.body.singleResult : null;
            const code = body?.errors?.[0]?.extensions?.code;
            requests.observe(
              { operation: operationLabel(operation), outcome: typeof code === 'string' ? code : 'ok' },
              Number(process.hrtime.bigint() - started) / 1e9,
            );
            return Promise.resolve();
          },
        });
      },
    },
    sweepEnded(outcome, count) {
      sweeps.inc({ outcome });
      if (count > 0) replaced.inc(count);
    },
    observeSubscriptions(read) {
      readSubscriptions = read;
    },
  };
}

/** `mutation startRun`: the operation's kind and its first root field; `unknown` when it did not parse or validate. */
export function operationLabel(operation: OperationDefinitionNode | undefined): string {
  const field = operation?.selectionSet.selections.find((selection) => selection.kind === Kind.FIELD);
  return operation && field?.kind === Kind.FIELD ? `${operation.operation} ${field.name.value}` : 'unknown';
}
