// Lock order across instances on one Neo4j. A rollback takes its thread's lock first, then writes the
// thread's handoffs and provider threads. An operation that wrote one of those first and took the
// thread's lock only to record its change would hold what the rollback wants while waiting for what
// the rollback holds: Neo4j reports a deadlock and the driver runs one of them again. Every
// operation takes the thread's lock first, so they wait for each other instead, and no transaction
// needs a retry. The driver's retries are what GET /metrics counts.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runAudit } from '../../src/graph/audit.js';
import { completeRun, createThread, runTurns, startRun } from '../support/lineage.js';
import { codeOf, settingsFile, startTestService, type GraphQLResponse, type TestService } from '../support/service.js';

const INSTANCES = 3;
const THREADS = 12;
const ROUNDS = 3;

const ROLLBACK = `mutation($threadId: ID!, $to: Int!) {
  rollbackThread(input: { threadId: $threadId, toOrdinal: $to }) { providerThreads { providerThread { id } } }
}`;
const SUBMIT = `mutation($id: ID!) {
  submitHandoffSummary(input: { handoffId: $id, summaryText: "What happened so far.", createdByProvider: "claude" }) { status }
}`;
const CONFIRM = `mutation($id: ID!) { confirmProviderRollback(input: { providerThreadId: $id }) { status } }`;
const REPORT_FAILURE = `mutation($id: ID!) { reportProviderRollbackFailure(input: { providerThreadId: $id, error: "no such turn" }) { status } }`;

let instances: TestService[] = [];
beforeAll(async () => {
  // Claude writes the summaries of switches into it: they stay PENDING until submitted.
  const summaries = settingsFile({ providers: { claude: 'entering' } });
  instances = await Promise.all(
    Array.from({ length: INSTANCES }, () =>
      startTestService({ THREADLINE_METRICS: 'on', THREADLINE_SUMMARIES_FILE: summaries }),
    ),
  );
});
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.close()));
});

/** The write transactions the driver ran again after a transient error, on every instance. */
async function writeRetries(): Promise<number> {
  const series = 'threadline_graph_transaction_retries_total{mode="write"} ';
  const texts = await Promise.all(
    instances.map(async (instance) => (await fetch(new URL('/metrics', instance.service.url))).text()),
  );
  return texts
    .map((text) => text.split('\n').find((line) => line.startsWith(series)))
    .reduce((sum, line) => sum + Number(line!.slice(series.length)), 0);
}

/** A thread whose run 2 (Claude, completed) has a PENDING handoff: rolling back to 1 supersedes it. */
async function withPendingHandoff(t: TestService): Promise<{ threadId: string; handoffId: string }> {
  const threadId = await createThread(t);
  await runTurns(t, threadId, 'codex', 1);
  const second = await startRun(t, threadId, 'claude');
  expect(second.handoff.status).toBe('PENDING');
  await completeRun(t, second.run.id);
  return { threadId, handoffId: second.handoff.id };
}

/** A thread rolled back from 3 to 2, its provider thread awaiting its native rollback: rolling back to 1 changes it again. */
async function awaitingNativeRollback(t: TestService): Promise<{ threadId: string; providerThreadId: string }> {
  const threadId = await createThread(t);
  await runTurns(t, threadId, 'codex', 3);
  const rolledBack = (await t.ok(ROLLBACK, { threadId, to: 2 })).rollbackThread;
  return { threadId, providerThreadId: rolledBack.providerThreads[0].providerThread.id };
}

const outcome = (response: GraphQLResponse) => (response.errors ? (codeOf(response) ?? 'NO_CODE') : 'OK');

describe(`${INSTANCES} instances on one Neo4j`, () => {
  it('submitHandoffSummary, confirmProviderRollback and reportProviderRollbackFailure racing rollbackThread need no retry', async () => {
    const outcomes = new Set<string>();
    let retried = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const on = (index: number) => instances[(round + index) % INSTANCES]!;
      const prepared = await Promise.all(
        Array.from({ length: THREADS }, async (_, index) => ({
          pending: await withPendingHandoff(on(index)),
          awaiting: await awaitingNativeRollback(on(index)),
        })),
      );
      const before = await writeRetries();
      await Promise.all(
        prepared.flatMap(({ pending, awaiting }, index) => [
          Promise.all([
            on(index).gql(SUBMIT, { id: pending.handoffId }),
            on(index + 1).gql(ROLLBACK, { threadId: pending.threadId, to: 1 }),
          ]).then(([submitted, rolledBack]) =>
            outcomes.add(`submit ${outcome(submitted)}, rollback ${outcome(rolledBack)}`),
          ),
          Promise.all([
            on(index + 2).gql(index % 2 ? CONFIRM : REPORT_FAILURE, { id: awaiting.providerThreadId }),
            on(index + 1).gql(ROLLBACK, { threadId: awaiting.threadId, to: 1 }),
          ]).then(([settled, rolledBack]) =>
            outcomes.add(`settle ${outcome(settled)}, rollback ${outcome(rolledBack)}`),
          ),
        ]),
      );
      retried += (await writeRetries()) - before;
    }
    // Whichever came first, the other waited for it and then did its part, or found nothing left to do.
    expect(
      [...outcomes].filter(
        (seen) => !['submit OK, rollback OK', 'submit CONFLICT, rollback OK', 'settle OK, rollback OK'].includes(seen),
      ),
    ).toEqual([]);
    expect(retried).toBe(0);
    expect(await runAudit(instances[0]!.driver, inject('neo4j').database, { tenant: instances[0]!.tenant })).toEqual(
      [],
    );
  }, 180_000);
});
