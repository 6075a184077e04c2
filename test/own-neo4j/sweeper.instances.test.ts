// The pending-handoff sweeper of several instances on one Neo4j: every instance sweeps every tenant,
// so each expired handoff must be replaced once, by one of them, and the instances' logs together
// must count each replacement once. A sweeper with a short timeout expires every pending handoff of
// its database, so this file runs on a Neo4j of its own rather than the one the other files share.
// Each instance traces its sweeps to one OTLP receiver, whose spans must count the same replacements.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { runAudit } from '../../src/graph/audit.js';
import { chooseNeo4j, type ChosenNeo4j } from '../../src/graph/chooseNeo4j.js';
import { createDriver } from '../../src/graph/driver.js';
import { startService, type RunningService } from '../../src/server/app.js';
import { createLogger } from '../../src/server/logger.js';
import { TEST_NEO4J_SETTINGS } from '../support/neo4jSettings.js';
import { numberAttribute, startOtlpReceiver, type OtlpReceiver } from '../support/otlpReceiver.js';
import { settingsFile } from '../support/service.js';

const INSTANCES = 3;
const THREADS = 8;

let neo4j: ChosenNeo4j;
let receiver: OtlpReceiver;
const services: RunningService[] = [];
const logs: string[][] = [];
const drivers: ReturnType<typeof createDriver>[] = [];

async function gql<T = Record<string, any>>(
  service: RunningService,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const response = await fetch(service.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data!;
}

beforeAll(async () => {
  neo4j = await chooseNeo4j(
    { uri: null, user: 'neo4j', password: null, database: 'neo4j' },
    {
      start: 'throwaway',
      storePrefix: 'threadline-sweeper-test-',
      heap: '512m',
      pageCache: '128m',
      settings: TEST_NEO4J_SETTINGS,
      progress: () => undefined,
    },
  );
  // The provider being left writes every summary, so claude's first run gets a PENDING handoff that
  // nobody submits: it expires after 2 s, and each instance sweeps every second.
  const policyFile = settingsFile({ default: 'leaving', pendingTimeoutSeconds: 2 });
  receiver = await startOtlpReceiver();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    THREADLINE_SUMMARIES_FILE: policyFile,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.endpoint,
  });
  for (let index = 0; index < INSTANCES; index++) {
    const lines: string[] = [];
    const destination = new Writable({
      write: (chunk: Buffer, _encoding, done) => (lines.push(...chunk.toString().split('\n').filter(Boolean)), done()),
    });
    const driver = createDriver(neo4j.connection);
    drivers.push(driver);
    logs.push(lines);
    services.push(
      await startService(
        {
          ...config,
          neo4j: { ...config.neo4j, database: neo4j.connection.database },
          tracing: { endpoint: receiver.endpoint, serviceName: `sweeper-${index}` },
        },
        driver,
        createLogger('info', destination),
      ),
    );
  }
});

afterAll(async () => {
  await Promise.all(services.map((service) => service.close()));
  await Promise.all(drivers.map((driver) => driver.close()));
  await neo4j?.close();
  receiver?.close();
});

describe(`the pending-handoff sweepers of ${INSTANCES} instances on one Neo4j`, () => {
  it('replace each expired handoff once, and their logs and traces count each replacement once', async () => {
    const handoffs: string[] = [];
    for (let index = 0; index < THREADS; index++) {
      const service = services[index % INSTANCES]!;
      const threadId = (await gql(service, `mutation { createThread(input: {}) { id } }`)).createThread.id as string;
      const codex = (
        await gql(service, `mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }`, {
          input: { threadId, provider: 'codex', userMessage: 'first' },
        })
      ).startRun.run.id;
      await gql(service, `mutation($input: CompleteRunInput!) { completeRun(input: $input) { id } }`, {
        input: { runId: codex, assistantMessage: 'done' },
      });
      const started = (
        await gql(service, `mutation($input: StartRunInput!) { startRun(input: $input) { handoff { id status } } }`, {
          input: { threadId, provider: 'claude', userMessage: 'over to claude' },
        })
      ).startRun;
      expect(started.handoff.status).toBe('PENDING');
      handoffs.push(started.handoff.id);
    }

    const statusOf = async (id: string) =>
      (
        await gql(
          services[0]!,
          `query($id: ID!) { contextHandoff(id: $id) { status supersededBy { id status source createdByProvider } } }`,
          {
            id,
          },
        )
      ).contextHandoff;
    const deadline = Date.now() + 90_000;
    let states = await Promise.all(handoffs.map(statusOf));
    while (states.some((state) => state.status === 'PENDING') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      states = await Promise.all(handoffs.map(statusOf));
    }
    // Each one failed and is superseded by exactly one local handoff that stands.
    expect(
      states.map((state) => [
        state.status,
        state.supersededBy?.status,
        state.supersededBy?.source,
        state.supersededBy?.createdByProvider,
      ]),
    ).toEqual(Array(THREADS).fill(['FAILED', 'READY', 'local', null]));
    // One more sweep interval, so a sweep that was under way has logged.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const counted = logs.map((lines) =>
      lines
        .map((line) => JSON.parse(line) as { msg: string; count?: number })
        .filter((entry) => entry.msg === 'expired pending handoffs replaced by local summaries')
        .reduce((sum, entry) => sum + (entry.count ?? 0), 0),
    );
    expect(counted.reduce((sum, count) => sum + count, 0)).toBe(THREADS);

    // The traces say the same once the instances' batches are exported (every 5 s by default).
    const sweeps = () => receiver.spans().filter((span) => span.name === 'sweep pending handoffs');
    const traced = () => sweeps().reduce((sum, span) => sum + numberAttribute(span, 'threadline.handoffs_replaced'), 0);
    const traceDeadline = Date.now() + 30_000;
    while (traced() < THREADS && Date.now() < traceDeadline) await new Promise((resolve) => setTimeout(resolve, 500));
    expect(traced()).toBe(THREADS);
    expect(new Set(sweeps().map((span) => span.service))).toEqual(
      new Set(Array.from({ length: INSTANCES }, (_, index) => `sweeper-${index}`)),
    );
    // A sweep that replaced handoffs holds the statements it ran for them, in its own trace.
    const busy = sweeps().find((span) => numberAttribute(span, 'threadline.handoffs_replaced') > 0)!;
    const statements = receiver.spans().filter((span) => span.parentSpanId === busy.spanId);
    expect(statements.every((span) => span.traceId === busy.traceId && span.name.startsWith('cypher '))).toBe(true);
    expect(statements.length).toBeGreaterThan(2);
    expect(await runAudit(drivers[0]!, neo4j.connection.database)).toEqual([]);
  });
});
