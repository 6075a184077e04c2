// startRun's guarantees and the run life cycle: one running run, gapless ordinals under concurrency,
// idempotent retries, refusals with their codes, nothing half-written, batched reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, startTestService, type TestService } from '../support/service.js';
import {
  COMPLETE_RUN,
  START_RUN,
  completeRun,
  createThread,
  expectCode,
  runTurns,
  startRun,
} from '../support/lineage.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('one running run per thread', () => {
  it('refuses a second startRun with RUN_IN_PROGRESS until the first ends', async () => {
    const threadId = await createThread(t);
    const first = await startRun(t, threadId, 'codex');
    const refused = await expectCode(
      t.gql(START_RUN, { input: { threadId, provider: 'claude', userMessage: 'x' } }),
      'RUN_IN_PROGRESS',
    );
    expect(refused.errors![0]!.extensions!.runId).toBe(first.run.id);
    await t.ok(`mutation($input: FailRunInput!) { failRun(input: $input) { status error } }`, {
      input: { runId: first.run.id, error: 'provider crashed' },
    });
    const second = await startRun(t, threadId, 'claude');
    expect(second.run.ordinal).toBe(2);
    // The failed run is live: it is in Claude's handoff, with its failure.
    expect(second.handoff.coveredRunOrdinals).toEqual({ from: 1, to: 1 });
    expect(second.handoff.summaryText).toContain('provider crashed');
  });

  it('lets exactly one of 20 concurrent startRun calls win, and ordinals stay gapless', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 2);
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.gql(START_RUN, { input: { threadId, provider: i % 2 ? 'codex' : 'claude', userMessage: `racer ${i}` } }),
      ),
    );
    const winners = attempts.filter((result) => !result.errors);
    expect(winners).toHaveLength(1);
    expect(attempts.filter((result) => codeOf(result) === 'RUN_IN_PROGRESS')).toHaveLength(19);
    await completeRun(t, (winners[0]!.data as any).startRun.run.id);
    await runTurns(t, threadId, 'claude', 1);
    const runs = await t.ok(`query($id: ID!) { thread(id: $id) { headOrdinal runs { edges { node { ordinal } } } } }`, {
      id: threadId,
    });
    expect(runs.thread.runs.edges.map((edge: any) => edge.node.ordinal)).toEqual([1, 2, 3, 4]);
    expect(runs.thread.headOrdinal).toBe(4);
  });
});

describe('idempotencyKey', () => {
  it('returns the first payload on retry and creates nothing new; different input is a CONFLICT', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 1);
    const input = { threadId, provider: 'claude', userMessage: 'go on', idempotencyKey: 'key-1' };
    const first = (await t.ok(START_RUN, { input })).startRun;
    const retry = (await t.ok(START_RUN, { input })).startRun;
    expect(retry).toEqual(first);
    await expectCode(t.gql(START_RUN, { input: { ...input, userMessage: 'something else' } }), 'CONFLICT');
    await completeRun(t, first.run.id);
    expect((await t.ok(START_RUN, { input })).startRun.run.id).toBe(first.run.id);
    const { records } = await t.driver.executeQuery(
      'MATCH (r:Run {threadId: $threadId}) RETURN count(r) AS n',
      { threadId },
      { database: 'neo4j' },
    );
    expect(Number(records[0]!.get('n'))).toBe(2);
  });
});

describe('the run life cycle', () => {
  it('stores the answer, facts and checkpoint, and refuses to complete twice', async () => {
    const threadId = await createThread(t);
    const started = await startRun(t, threadId, 'codex');
    await t.ok(COMPLETE_RUN, {
      input: {
        runId: started.run.id,
        assistantMessage: 'Added the parser.',
        facts: [
          { kind: 'DECISION', text: 'Use a streaming parser' },
          { kind: 'TEST', text: 'npm test: 3 failing', key: 'npm test', status: 'failed' },
        ],
        checkpoint: {
          ref: 'abc123',
          diffSummary: '2 files',
          files: [{ path: 'src/parser.ts', change: 'ADDED', additions: 40, deletions: 0 }],
        },
      },
    });
    const run = (
      await t.ok(
        `query($id: ID!) { run(id: $id) { status assistantMessage completedAt facts { kind text key status runOrdinal }
        checkpoint { ref diffSummary status runOrdinal files { path change additions deletions } } } }`,
        { id: started.run.id },
      )
    ).run;
    expect(run).toMatchObject({ status: 'COMPLETED', assistantMessage: 'Added the parser.' });
    expect(run.completedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(run.facts).toEqual([
      { kind: 'DECISION', text: 'Use a streaming parser', key: null, status: null, runOrdinal: 1 },
      { kind: 'TEST', text: 'npm test: 3 failing', key: 'npm test', status: 'failed', runOrdinal: 1 },
    ]);
    expect(run.checkpoint).toEqual({
      ref: 'abc123',
      diffSummary: '2 files',
      status: 'current',
      runOrdinal: 1,
      files: [{ path: 'src/parser.ts', change: 'ADDED', additions: 40, deletions: 0 }],
    });
    await expectCode(t.gql(COMPLETE_RUN, { input: { runId: started.run.id } }), 'CONFLICT');
    await expectCode(
      t.gql(`mutation($input: FailRunInput!) { failRun(input: $input) { id } }`, {
        input: { runId: started.run.id, error: 'x' },
      }),
      'CONFLICT',
    );
    const thread = (
      await t.ok(
        `query($id: ID!) { thread(id: $id) { latestCheckpoint { ref } providerThreads { status firstRunOrdinal lastRunOrdinal } } }`,
        { id: threadId },
      )
    ).thread;
    expect(thread).toEqual({
      latestCheckpoint: { ref: 'abc123' },
      providerThreads: [{ status: 'IDLE', firstRunOrdinal: 1, lastRunOrdinal: 1 }],
    });
  });

  it('marks an interrupted run INTERRUPTED', async () => {
    const threadId = await createThread(t);
    const started = await startRun(t, threadId, 'codex');
    const failed = await t.ok(`mutation($input: FailRunInput!) { failRun(input: $input) { status error } }`, {
      input: { runId: started.run.id, error: 'stopped by user', interrupted: true },
    });
    expect(failed.failRun).toEqual({ status: 'INTERRUPTED', error: 'stopped by user' });
  });
});

describe('bad input', () => {
  it('names the field and writes nothing', async () => {
    const threadId = await createThread(t);
    const empty = await expectCode(
      t.gql(START_RUN, { input: { threadId, provider: 'codex', userMessage: '   ' } }),
      'BAD_USER_INPUT',
    );
    expect(empty.errors![0]!.message).toMatch(/userMessage/);
    const unknown = await expectCode(
      t.gql(START_RUN, { input: { threadId, provider: 'gemini', userMessage: 'hi' } }),
      'BAD_USER_INPUT',
    );
    expect(unknown.errors![0]!.message).toMatch(/provider/);
    const long = await expectCode(
      t.gql(START_RUN, { input: { threadId, provider: 'codex', userMessage: 'x'.repeat(100_001) } }),
      'BAD_USER_INPUT',
    );
    expect(long.errors![0]!.message).toMatch(/userMessage.*100000/);
    await expectCode(
      t.gql(START_RUN, { input: { threadId: 'no-such-thread', provider: 'codex', userMessage: 'hi' } }),
      'NOT_FOUND',
    );
    await expectCode(t.gql(COMPLETE_RUN, { input: { runId: 'run_missing' } }), 'NOT_FOUND');
    await expectCode(
      t.gql(`mutation { bindProviderThread(input: { providerThreadId: "pt_missing", nativeThreadRef: "x" }) { id } }`),
      'NOT_FOUND',
    );
    await expectCode(
      t.gql(`mutation { reportResumeFailure(input: { runId: "run_missing", error: "x" }) { run { id } } }`),
      'NOT_FOUND',
    );
    const started = await startRun(t, threadId, 'codex');
    const tooMany = await expectCode(
      t.gql(COMPLETE_RUN, {
        input: { runId: started.run.id, facts: Array.from({ length: 501 }, () => ({ kind: 'NOTE', text: 'n' })) },
      }),
      'BAD_USER_INPUT',
    );
    expect(tooMany.errors![0]!.message).toMatch(/facts/);
    expect(
      (await t.ok(`query($id: ID!) { run(id: $id) { status facts { text } } }`, { id: started.run.id })).run,
    ).toEqual({ status: 'RUNNING', facts: [] });
    const { records } = await t.driver.executeQuery(
      'MATCH (r:Run {threadId: $threadId}) RETURN count(r) AS n',
      { threadId },
      { database: 'neo4j' },
    );
    expect(Number(records[0]!.get('n'))).toBe(1);
  });

  it('creates a thread once per id', async () => {
    const id = `same-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.ok(`mutation($id: ID) { createThread(input: { id: $id, title: "t" }) { id createdAt } }`, { id }),
      ),
    );
    expect(new Set(results.map((result) => result.createThread.createdAt)).size).toBe(1);
    const { records } = await t.driver.executeQuery(
      'MATCH (th:Thread {id: $id}) RETURN count(th) AS n',
      { id },
      { database: 'neo4j' },
    );
    expect(Number(records[0]!.get('n'))).toBe(1);
  });
});

describe('batched reads', () => {
  it('reads a thread of 50 runs with their provider threads and handoffs in a handful of round trips', async () => {
    const threadId = await createThread(t);
    for (let block = 0; block < 10; block++) await runTurns(t, threadId, block % 2 ? 'claude' : 'codex', 5);
    const before = t.sessionsOpened();
    const data = await t.ok(
      `query($id: ID!) { thread(id: $id) { runs(first: 50) { edges { node { ordinal
        providerThread { id provider coverage { coveredThroughOrdinal } } contextHandoff { id coveredRunOrdinals { from to } } facts { text } checkpoint { ref } } } } } }`,
      { id: threadId },
    );
    const roundTrips = t.sessionsOpened() - before;
    expect(data.thread.runs.edges).toHaveLength(50);
    expect(data.thread.runs.edges.filter((edge: any) => edge.node.contextHandoff)).toHaveLength(9);
    expect(roundTrips).toBeLessThanOrEqual(8);
  });
});
