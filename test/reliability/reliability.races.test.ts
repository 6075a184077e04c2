// Races against the real service over HTTP: many clients at once on one thread, one run or one
// idempotency key. Writes to a thread are serialized by its lock, so every race has one winner and
// refusals with documented codes, never an INTERNAL_SERVER_ERROR, and the graph stays consistent.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runAudit } from '../../src/graph/audit.js';
import { codeOf, startTestService, uniqueId, type GraphQLResponse, type TestService } from '../support/service.js';
import { COMPLETE_RUN, START_RUN, createThread, runTurns } from '../support/lineage.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

const OK = 'OK';
const CREATE_THREAD = `mutation($input: CreateThreadInput!) { createThread(input: $input) { id title createdAt headOrdinal } }`;
const ROLLBACK = `mutation($input: RollbackThreadInput!) {
  rollbackThread(input: $input) { thread { headOrdinal } rolledBackRuns { ordinal } providerThreads { providerThread { id } action } }
}`;
const THREAD_STATE = `query($id: ID!) {
  thread(id: $id) { headOrdinal runs(first: 100) { edges { node { id ordinal status assistantMessage facts { text } checkpoint { ref } } } } }
}`;

/** Fires every request at once and waits for all of them. */
function allAtOnce<T>(
  count: number,
  request: (index: number) => Promise<GraphQLResponse<T>>,
): Promise<GraphQLResponse<T>[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => request(index)));
}

/** How many responses carried each code (OK for a response without errors). */
function tally(responses: GraphQLResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    const code = response.errors?.length ? (codeOf(response) ?? 'NO_CODE') : OK;
    counts[code] = (counts[code] ?? 0) + 1;
  }
  return counts;
}

async function threadState(threadId: string) {
  const { thread } = await t.ok(THREAD_STATE, { id: threadId });
  return { headOrdinal: thread.headOrdinal as number, runs: thread.runs.edges.map((edge: any) => edge.node) as any[] };
}

async function expectAuditClean() {
  expect(await runAudit(t.driver, inject('neo4j').database, { tenant: t.tenant })).toEqual([]);
}

describe('races', () => {
  it('50 concurrent startRun on one thread: one run starts, 49 get RUN_IN_PROGRESS', async () => {
    const threadId = await createThread(t);
    const responses = await allAtOnce(50, (index) =>
      t.gql(START_RUN, { input: { threadId, provider: 'codex', userMessage: `attempt ${index}` } }),
    );

    expect(tally(responses)).toEqual({ [OK]: 1, RUN_IN_PROGRESS: 49 });
    const winner = responses.find((response) => !response.errors)!.data!.startRun.run;
    for (const refused of responses.filter((response) => response.errors))
      expect(refused.errors![0]!.extensions!.runId).toBe(winner.id);
    const state = await threadState(threadId);
    expect(state.headOrdinal).toBe(1);
    expect(state.runs.map((run) => [run.id, run.ordinal, run.status])).toEqual([[winner.id, 1, 'RUNNING']]);
    await expectAuditClean();
  });

  it('50 concurrent createThread with one client id: one thread, returned unchanged to all 50', async () => {
    const id = uniqueId('contested');
    const responses = await allAtOnce(50, (index) => t.gql(CREATE_THREAD, { input: { id, title: `title ${index}` } }));

    expect(tally(responses)).toEqual({ [OK]: 50 });
    const threads = responses.map((response) => response.data!.createThread);
    const first = threads[0]!;
    expect(first.title).toMatch(/^title \d+$/);
    for (const thread of threads)
      expect(thread).toEqual({ id, title: first.title, createdAt: first.createdAt, headOrdinal: 0 });
    const { records } = await t.driver.executeQuery(
      'MATCH (thread:Thread {tenant: $tenant, id: $id}) RETURN count(thread) AS threads',
      { tenant: t.tenant, id },
      { database: inject('neo4j').database },
    );
    expect(records[0]!.get('threads').toNumber()).toBe(1);
    await expectAuditClean();
  });

  it('rollbackThread racing startRun: either the rollback lands first and the run follows it, or the run starts and the rollback gets RUN_IN_PROGRESS', async () => {
    const threadIds = await Promise.all(Array.from({ length: 8 }, () => createThread(t)));
    for (const threadId of threadIds) await runTurns(t, threadId, 'codex', 3);

    const outcomes = await Promise.all(
      threadIds.map(async (threadId) => {
        const [rollback, start] = await Promise.all([
          t.gql(ROLLBACK, { input: { threadId, toOrdinal: 1 } }),
          t.gql(START_RUN, { input: { threadId, provider: 'codex', userMessage: 'after the race' } }),
        ]);
        return { threadId, rollback, start };
      }),
    );

    for (const { threadId, rollback, start } of outcomes) {
      expect(codeOf(start), JSON.stringify(start.errors)).toBeUndefined();
      const run = start.data!.startRun.run;
      const plan = start.data!.startRun.plan;
      expect(run.ordinal).toBe(4);
      const state = await threadState(threadId);
      expect(state.headOrdinal).toBe(4);
      if (rollback.errors) {
        expect(codeOf(rollback)).toBe('RUN_IN_PROGRESS');
        expect(state.runs.map((r) => r.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'RUNNING']);
        expect(plan.providerThreadAction).toBe('REUSE');
      } else {
        expect(rollback.data!.rollbackThread.rolledBackRuns.map((r: { ordinal: number }) => r.ordinal)).toEqual([2, 3]);
        expect(state.runs.map((r) => r.status)).toEqual(['COMPLETED', 'ROLLED_BACK', 'ROLLED_BACK', 'RUNNING']);
        expect(rollback.data!.rollbackThread.providerThreads.map((entry: { action: string }) => entry.action)).toEqual([
          'ROLLED_BACK',
        ]);
        // Planned after the rollback: Codex's provider thread awaits its native rollback, so a new one gets run 1 only.
        expect(plan).toMatchObject({
          decision: 'FULL_HANDOFF_NEW',
          providerThreadAction: 'CREATE',
          coveredRunOrdinals: { from: 1, to: 1 },
        });
        expect(plan.stalenessSignals).toContain('ROLLED_BACK_OR_DIVERGENT');
      }
    }
    await expectAuditClean();
  });

  it('duplicate concurrent completeRun: applied once, the other nine get CONFLICT', async () => {
    const threadId = await createThread(t);
    const { run } = (await t.ok(START_RUN, { input: { threadId, provider: 'claude', userMessage: 'finish me' } }))
      .startRun;
    const responses = await allAtOnce(10, (index) =>
      t.gql(COMPLETE_RUN, {
        input: {
          runId: run.id,
          assistantMessage: `answer ${index}`,
          facts: [{ kind: 'DECISION', text: `decision ${index}` }],
          checkpoint: { ref: `ref-${index}` },
        },
      }),
    );

    expect(tally(responses)).toEqual({ [OK]: 1, CONFLICT: 9 });
    for (const refused of responses.filter((response) => response.errors))
      expect(refused.errors![0]!.extensions!.status).toBe('completed');
    const winner = responses.findIndex((response) => !response.errors);
    const [completed] = (await threadState(threadId)).runs;
    expect(completed).toEqual({
      id: run.id,
      ordinal: 1,
      status: 'COMPLETED',
      assistantMessage: `answer ${winner}`,
      facts: [{ text: `decision ${winner}` }],
      checkpoint: { ref: `ref-${winner}` },
    });
    await expectAuditClean();
  });

  it('the same idempotencyKey from 20 clients at once: one run, all 20 see its id', async () => {
    const threadId = await createThread(t);
    const input = { threadId, provider: 'codex', userMessage: 'exactly once', idempotencyKey: uniqueId('key') };
    const responses = await allAtOnce(20, () => t.gql(START_RUN, { input }));

    expect(tally(responses)).toEqual({ [OK]: 20 });
    const runIds = new Set(responses.map((response) => response.data!.startRun.run.id));
    expect(runIds.size).toBe(1);
    const state = await threadState(threadId);
    expect(state.runs.map((run) => [run.id, run.ordinal])).toEqual([[[...runIds][0], 1]]);
    await expectAuditClean();
  });
  it('10 concurrent regenerateHandoff of one handoff: one replacement, the other nine get CONFLICT', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 2);
    const { handoff } = (await t.ok(START_RUN, { input: { threadId, provider: 'claude', userMessage: 'switch' } }))
      .startRun;
    const REGENERATE = `mutation($input: RegenerateHandoffInput!) { regenerateHandoff(input: $input) { id } }`;
    const responses = await allAtOnce(10, () =>
      t.gql(REGENERATE, { input: { handoffId: handoff.id, source: 'local' } }),
    );

    expect(tally(responses)).toEqual({ [OK]: 1, CONFLICT: 9 });
    await expectAuditClean();
  });

  it('completeSubagent after its parent run was rolled back: CONFLICT, nothing recorded on the rolled-back run', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 1);
    const parent = (await t.ok(START_RUN, { input: { threadId, provider: 'codex', userMessage: 'parent' } })).startRun
      .run;
    const SPAWN = `mutation($input: SpawnSubagentInput!) { spawnSubagent(input: $input) { id } }`;
    const child = (await t.ok(SPAWN, { input: { parentRunId: parent.id, provider: 'claude', task: 'do it' } }))
      .spawnSubagent;
    await t.ok(COMPLETE_RUN, { input: { runId: parent.id, assistantMessage: 'done' } });
    await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 1 } });
    const COMPLETE_SUBAGENT = `mutation($input: CompleteSubagentInput!) { completeSubagent(input: $input) { id } }`;
    const result = await t.gql(COMPLETE_SUBAGENT, { input: { childThreadId: child.id, result: 'the result' } });

    expect(codeOf(result)).toBe('CONFLICT');
    const state = await threadState(threadId);
    expect(state.runs.find((run) => run.id === parent.id)).toMatchObject({ status: 'ROLLED_BACK', facts: [] });
    await expectAuditClean();
  });

  it('10 concurrent forkThread with one new client id: one fork, nine CONFLICT; an id in use is CONFLICT too', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 2);
    const FORK = `mutation($input: ForkThreadInput!) { forkThread(input: $input) { id } }`;
    expect(codeOf(await t.gql(FORK, { input: { sourceThreadId: threadId, id: threadId } }))).toBe('CONFLICT');
    const id = uniqueId('fork');
    const responses = await allAtOnce(10, () => t.gql(FORK, { input: { sourceThreadId: threadId, id } }));

    expect(tally(responses)).toEqual({ [OK]: 1, CONFLICT: 9 });
    await expectAuditClean();
  });

  it('confirmProviderRollback racing reportProviderRollbackFailure: exactly one of each pair is acknowledged', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const threadId = await createThread(t);
        await runTurns(t, threadId, 'codex', 3);
        const rollback = (await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 1 } })).rollbackThread;
        const id = rollback.providerThreads[0].providerThread.id;
        const [confirmed, failed] = await Promise.all([
          t.gql(`mutation($id: ID!) { confirmProviderRollback(input: { providerThreadId: $id }) { status } }`, { id }),
          t.gql(
            `mutation($id: ID!) { reportProviderRollbackFailure(input: { providerThreadId: $id, error: "boom" }) { status } }`,
            { id },
          ),
        ]);
        const { providerThread } = await t.ok(`query($id: ID!) { providerThread(id: $id) { status } }`, { id });
        return {
          acknowledged: tally([confirmed, failed]),
          status: providerThread.status,
          confirmedWon: !confirmed.errors,
        };
      }),
    );
    for (const outcome of outcomes) {
      expect(outcome.acknowledged).toEqual({ [OK]: 1, CONFLICT: 1 });
      // The one acknowledged is the one that holds.
      expect(outcome.status).toBe(outcome.confirmedWon ? 'IDLE' : 'DIVERGENT');
    }
    await expectAuditClean();
  });
});
