// Forks, merge-back and subagents: one primitive (a relationship, a source point, a lazily resolved
// transfer), through GraphQL on the real graph.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { completeRun, coverage, createThread, expectCode, plan, runTurns, startRun } from '../support/lineage.js';

const FORK = `mutation($input: ForkThreadInput!) { forkThread(input: $input) {
  id headOrdinal providerThreads { id }
  lineage { parent { id } relationshipToParent root { id } sourcePoint { threadId runOrdinal runId checkpointId providerThreadId } }
  transfers { id kind status resolution sourceThreadId targetThreadId handoff { id } }
} }`;
const THREAD = `query($id: ID!) { thread(id: $id) { id headOrdinal
  transfers { id kind status resolution sourceThreadId targetThreadId sourcePoint { runOrdinal } basePoint { runOrdinal } handoff { id strategy } }
  forks { id } subagents { id } ancestors { id } } }`;

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

async function fork(input: Record<string, unknown>) {
  return (await t.ok(FORK, { input })).forkThread;
}

/** Codex 1-3 on C1 with a bound native id, claude 4-5. */
async function mixedThread() {
  const threadId = await createThread(t, 'source');
  const codex = await runTurns(t, threadId, 'codex', 3);
  await t.ok(
    `mutation { bindProviderThread(input: { providerThreadId: "${codex.providerThread.id}", nativeThreadRef: "codex-native" }) { id } }`,
  );
  const claude = await runTurns(t, threadId, 'claude', 2);
  return { threadId, c1: codex.providerThread.id as string, l1: claude.providerThread.id as string };
}

describe('forkThread', () => {
  it('records lineage, a FORKED_FROM edge and a pending transfer, and nothing else', async () => {
    const { threadId, c1 } = await mixedThread();
    const forked = await fork({ sourceThreadId: threadId, fromOrdinal: 3, title: 'try another way' });
    expect(forked.headOrdinal).toBe(3);
    expect(forked.providerThreads).toEqual([]);
    expect(forked.lineage).toMatchObject({
      parent: { id: threadId },
      relationshipToParent: 'FORK',
      root: { id: threadId },
      sourcePoint: { threadId, runOrdinal: 3, providerThreadId: c1, checkpointId: null },
    });
    expect(forked.transfers).toEqual([
      {
        id: expect.any(String),
        kind: 'FORK',
        status: 'PENDING',
        resolution: null,
        sourceThreadId: threadId,
        targetThreadId: forked.id,
        handoff: null,
      },
    ]);
    const { records } = await t.driver.executeQuery(
      'MATCH (:Thread {id: $id})-[:FORKED_FROM]->(run:Run) RETURN run.id AS runId',
      { id: forked.id },
      { database: 'neo4j' },
    );
    expect(records.map((record) => record.get('runId'))).toEqual([forked.lineage.sourcePoint.runId]);
    const handoffs = await t.driver.executeQuery(
      'MATCH (h:ContextHandoff {threadId: $id}) RETURN count(h) AS n',
      { id: forked.id },
      { database: 'neo4j' },
    );
    expect(Number(handoffs.records[0]!.get('n'))).toBe(0);
    expect((await t.ok(THREAD, { id: threadId })).thread.forks).toEqual([{ id: forked.id }]);
  });

  it('resolves natively on the first run when the same provider can fork its thread', async () => {
    const { threadId, c1 } = await mixedThread();
    const forked = await fork({ sourceThreadId: threadId, fromOrdinal: 3 });
    const first = await startRun(t, forked.id, 'codex');
    expect(first.run.ordinal).toBe(4);
    expect(first.plan).toMatchObject({
      decision: 'NO_HANDOFF',
      providerThreadAction: 'NATIVE_FORK',
      providerThread: { id: c1 },
    });
    expect(first.handoff).toBeNull();
    const dispatch = (
      await t.ok(
        `query($id: ID!) { run(id: $id) { dispatch { providerThreadAction nativeThreadRef forkFromTurn context } providerThread { id forkedFrom { id } } } }`,
        { id: first.run.id },
      )
    ).run;
    expect(dispatch.dispatch).toEqual({
      providerThreadAction: 'NATIVE_FORK',
      nativeThreadRef: 'codex-native',
      forkFromTurn: 3,
      context: null,
    });
    expect(dispatch.providerThread.forkedFrom.id).toBe(c1);
    await completeRun(t, first.run.id);
    expect((await coverage(t, first.providerThread.id)).coverage).toMatchObject({
      nativeRunOrdinals: [1, 2, 3, 4],
      missingRunOrdinals: [],
      coveredThroughOrdinal: 4,
    });
    const transfers = (await t.ok(THREAD, { id: forked.id })).thread.transfers;
    expect(transfers).toMatchObject([{ kind: 'FORK', status: 'CONSUMED', resolution: 'NATIVE_FORK' }]);
    expect(await plan(t, forked.id, 'codex')).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'REUSE' });
  });

  it('resolves with portable context when another provider takes the fork', async () => {
    const { threadId } = await mixedThread();
    const forked = await fork({ sourceThreadId: threadId, fromOrdinal: 3 });
    const first = await startRun(t, forked.id, 'claude');
    expect(first.plan).toMatchObject({
      decision: 'FULL_HANDOFF_NEW',
      providerThreadAction: 'CREATE',
      handoffStrategy: 'FULL_THREAD_SUMMARY',
      coveredRunOrdinals: { from: 1, to: 3 },
    });
    expect(first.handoff.summaryText).toContain('Covers runs 1-3');
    expect(first.handoff.summaryText).not.toContain('- 4 ·');
    const transfers = (await t.ok(THREAD, { id: forked.id })).thread.transfers;
    expect(transfers).toMatchObject([
      {
        kind: 'FORK',
        status: 'CONSUMED',
        resolution: 'PORTABLE_CONTEXT',
        handoff: { id: first.handoff.id, strategy: 'FULL_THREAD_SUMMARY' },
      },
    ]);
    const { records } = await t.driver.executeQuery(
      'MATCH (:ContextHandoff {id: $id})-[:COVERS]->(run:Run) RETURN run.threadId AS thread, run.ordinal AS ordinal ORDER BY ordinal',
      { id: first.handoff.id },
      { database: 'neo4j' },
    );
    // The ends of the covered range, in the source thread that holds the inherited runs.
    expect(records.map((record) => [record.get('thread'), Number(record.get('ordinal'))])).toEqual([
      [threadId, 1],
      [threadId, 3],
    ]);
  });

  it('takes the latest stable run by default', async () => {
    const { threadId, l1 } = await mixedThread();
    const forked = await fork({ sourceThreadId: threadId });
    expect(forked.lineage.sourcePoint).toMatchObject({ runOrdinal: 5, providerThreadId: l1 });
  });

  it('forks from a checkpoint with a checkpoint summary', async () => {
    const threadId = await createThread(t);
    const run = await startRun(t, threadId, 'codex');
    await completeRun(t, run.run.id, {
      facts: [{ kind: 'GOAL', text: 'Make parsing fast' }],
      checkpoint: {
        ref: 'cp-ref-1',
        diffSummary: 'parser rewritten',
        files: [{ path: 'src/parse.ts', change: 'MODIFIED' }],
      },
    });
    await runTurns(t, threadId, 'codex', 1);
    const checkpointId = (await t.ok(`query($id: ID!) { run(id: $id) { checkpoint { id } } }`, { id: run.run.id })).run
      .checkpoint.id;
    const forked = await fork({ sourceThreadId: threadId, checkpointId });
    expect(forked.lineage.sourcePoint).toMatchObject({ runOrdinal: 1, checkpointId, providerThreadId: null });
    const first = await startRun(t, forked.id, 'codex');
    expect(first.plan).toMatchObject({
      providerThreadAction: 'CREATE',
      handoffStrategy: 'CHECKPOINT_SUMMARY',
      coveredRunOrdinals: { from: 1, to: 1 },
    });
    expect(first.handoff.summaryText).toContain('cp-ref-1');
    expect(first.handoff.summaryText).toContain('Make parsing fast');
    expect(first.handoff.summaryText).not.toContain('## Runs');
    expect((await t.ok(THREAD, { id: forked.id })).thread.transfers[0]).toMatchObject({
      status: 'CONSUMED',
      resolution: 'CHECKPOINT_CONTEXT',
    });
  });

  it('shows the checkpoint it inherited as its latest, even after the source rolls it back', async () => {
    const LATEST = `query($id: ID!) { thread(id: $id) { latestCheckpoint { ref } } }`;
    const latest = async (id: string) => (await t.ok(LATEST, { id })).thread.latestCheckpoint;
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 1);
    const run = await startRun(t, threadId, 'codex');
    await completeRun(t, run.run.id, { checkpoint: { ref: 'cp-inherited' } });
    const forked = await fork({ sourceThreadId: threadId });
    expect(await latest(forked.id)).toEqual({ ref: 'cp-inherited' });
    await t.ok(
      `mutation { rollbackThread(input: { threadId: "${threadId}", toOrdinal: 1 }) { thread { headOrdinal } } }`,
    );
    expect(await latest(threadId)).toBeNull();
    expect(await latest(forked.id)).toEqual({ ref: 'cp-inherited' });
    const own = await startRun(t, forked.id, 'codex');
    await completeRun(t, own.run.id, { checkpoint: { ref: 'cp-own' } });
    expect(await latest(forked.id)).toEqual({ ref: 'cp-own' });
  });

  it('chains forks of forks, and a later rollback of the source leaves what a fork inherited', async () => {
    const { threadId, c1 } = await mixedThread();
    const first = await fork({ sourceThreadId: threadId, fromOrdinal: 4 });
    await runTurns(t, first.id, 'claude', 2);
    const second = await fork({ sourceThreadId: first.id, fromOrdinal: 5 });
    expect(second.headOrdinal).toBe(5);
    expect(second.lineage).toMatchObject({ parent: { id: first.id }, root: { id: threadId } });
    expect((await t.ok(THREAD, { id: second.id })).thread.ancestors).toEqual([{ id: first.id }, { id: threadId }]);

    await t.ok(
      `mutation { rollbackThread(input: { threadId: "${threadId}", toOrdinal: 1 }) { thread { headOrdinal } } }`,
    );
    // The first fork's portable context still stands, and its provider thread still knows runs 1-6.
    const firstFork = (
      await t.ok(
        `query($id: ID!) { thread(id: $id) { handoffs { status } providerThreads { coverage { missingRunOrdinals } } } }`,
        { id: first.id },
      )
    ).thread;
    expect(firstFork.handoffs.map((handoff: any) => handoff.status)).toEqual(['READY']);
    expect(firstFork.providerThreads[0].coverage.missingRunOrdinals).toEqual([]);
    const run = await startRun(t, second.id, 'codex');
    expect(run.run.ordinal).toBe(6);
    expect(run.plan).toMatchObject({ decision: 'FULL_HANDOFF_NEW', coveredRunOrdinals: { from: 1, to: 5 } });
    for (const ordinal of [1, 2, 3, 4, 5]) expect(run.handoff.summaryText).toMatch(new RegExp(`^- ${ordinal} · `, 'm'));
    await completeRun(t, run.run.id);
    expect((await coverage(t, run.providerThread.id)).coverage).toMatchObject({
      nativeRunOrdinals: [6],
      missingRunOrdinals: [],
      coveredThroughOrdinal: 6,
    });
    // The source itself moved on: once Codex confirms its native rollback, run 1 is all there is.
    await t.ok(`mutation { confirmProviderRollback(input: { providerThreadId: "${c1}" }) { id } }`);
    expect(await plan(t, threadId, 'codex')).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'REUSE' });
  });

  it('refuses bad source points', async () => {
    const threadId = await createThread(t);
    await expectCode(t.gql(FORK, { input: { sourceThreadId: threadId } }), 'BAD_USER_INPUT');
    await runTurns(t, threadId, 'codex', 3);
    await t.ok(`mutation { rollbackThread(input: { threadId: "${threadId}", toOrdinal: 1 }) { thread { id } } }`);
    await expectCode(t.gql(FORK, { input: { sourceThreadId: threadId, fromOrdinal: 2 } }), 'BAD_USER_INPUT');
    await expectCode(
      t.gql(FORK, { input: { sourceThreadId: threadId, fromOrdinal: 1, checkpointId: 'x' } }),
      'BAD_USER_INPUT',
    );
    await expectCode(t.gql(FORK, { input: { sourceThreadId: threadId, checkpointId: 'cp_missing' } }), 'NOT_FOUND');
    await expectCode(t.gql(FORK, { input: { sourceThreadId: 'no-such-thread' } }), 'NOT_FOUND');
    const running = await startRun(t, threadId, 'codex');
    await expectCode(
      t.gql(FORK, { input: { sourceThreadId: threadId, fromOrdinal: running.run.ordinal } }),
      'CONFLICT',
    );
    expect((await fork({ sourceThreadId: threadId })).lineage.sourcePoint.runOrdinal).toBe(1);
  });

  it('refuses an inherited ordinal its source had rolled back before the fork was made', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'claude', 2);
    await t.ok(`mutation { rollbackThread(input: { threadId: "${threadId}", toOrdinal: 1 }) { thread { id } } }`);
    await runTurns(t, threadId, 'claude', 1);
    const first = await fork({ sourceThreadId: threadId });
    expect(first.headOrdinal).toBe(3);
    await expectCode(t.gql(FORK, { input: { sourceThreadId: first.id, fromOrdinal: 2 } }), 'BAD_USER_INPUT');
    expect((await fork({ sourceThreadId: first.id, fromOrdinal: 1 })).lineage.sourcePoint.runOrdinal).toBe(1);
  });

  it('is planned by planRun the way its first startRun takes it in', async () => {
    const { threadId } = await mixedThread();
    const forked = await fork({ sourceThreadId: threadId, fromOrdinal: 3 });
    const planned = await plan(t, forked.id, 'codex');
    expect(planned).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'NATIVE_FORK' });
    expect((await startRun(t, forked.id, 'codex')).plan).toMatchObject({
      decision: planned.decision,
      providerThreadAction: planned.providerThreadAction,
      providerThread: planned.providerThread,
    });
  });
});

const MERGE_BACK = `mutation($id: ID!) { mergeBack(input: { forkThreadId: $id }) { id kind status sourceThreadId targetThreadId sourcePoint { runOrdinal } basePoint { runOrdinal } } }`;

describe('mergeBack', () => {
  async function forkWithWork() {
    const threadId = await createThread(t, 'main line');
    await runTurns(t, threadId, 'codex', 2);
    const forked = await fork({ sourceThreadId: threadId });
    const run = await startRun(t, forked.id, 'codex');
    await completeRun(t, run.run.id, {
      assistantMessage: 'EXPERIMENT TRANSCRIPT LINE',
      facts: [
        { kind: 'DECISION', text: 'Use a trie for lookups' },
        { kind: 'COMMAND', text: 'npm run bench', key: 'bench', status: 'ok' },
        { kind: 'QUESTION', text: 'Is memory acceptable?', key: 'q1', status: 'open' },
      ],
    });
    return { threadId, forkId: forked.id as string };
  }

  it("is taken in by the source thread's next run, as a fork delta, not a transcript", async () => {
    const { threadId, forkId } = await forkWithWork();
    const transfer = (await t.ok(MERGE_BACK, { id: forkId })).mergeBack;
    expect(transfer).toMatchObject({
      kind: 'MERGE_BACK',
      status: 'PENDING',
      sourceThreadId: forkId,
      targetThreadId: threadId,
      sourcePoint: { runOrdinal: 3 },
      basePoint: { runOrdinal: 2 },
    });
    const next = await startRun(t, threadId, 'codex');
    expect(next.plan.decision).toBe('NO_HANDOFF');
    expect(next.handoff).toMatchObject({ strategy: 'FORK_DELTA_SUMMARY', coveredRunOrdinals: { from: 3, to: 3 } });
    expect(next.handoff.summaryText).toContain('Use a trie for lookups');
    expect(next.handoff.summaryText).toContain('npm run bench');
    expect(next.handoff.summaryText).toContain('Is memory acceptable?');
    expect(next.handoff.summaryText).not.toContain('EXPERIMENT TRANSCRIPT LINE');
    expect(next.dispatch.context).toBe(next.handoff.summaryText);
    const transfers = (await t.ok(THREAD, { id: threadId })).thread.transfers;
    expect(transfers.find((entry: any) => entry.kind === 'MERGE_BACK')).toMatchObject({
      status: 'CONSUMED',
      handoff: { id: next.handoff.id },
    });
    await completeRun(t, next.run.id);
    // Taken in once: the run after that has nothing to take in.
    expect((await runTurns(t, threadId, 'codex', 1)).handoff).toBeNull();
  });

  it('shares one handoff with a provider switch, linked to both transfers', async () => {
    const { threadId, forkId } = await forkWithWork();
    await t.ok(MERGE_BACK, { id: forkId });
    const next = await startRun(t, threadId, 'claude');
    expect(next.plan.decision).toBe('FULL_HANDOFF_NEW');
    expect(next.handoff.strategy).toBe('FULL_THREAD_SUMMARY');
    expect(next.handoff.summaryText).toContain('Covers runs 1-2');
    expect(next.handoff.summaryText).toContain('Use a trie for lookups');
    expect(next.handoff.summaryText.length).toBeLessThanOrEqual(32000);
    const { records } = await t.driver.executeQuery(
      'MATCH (tr:ContextTransfer)-[:MATERIALIZED_AS]->(:ContextHandoff {id: $id}) RETURN tr.kind AS kind, tr.status AS status ORDER BY kind',
      { id: next.handoff.id },
      { database: 'neo4j' },
    );
    expect(records.map((record) => [record.get('kind'), record.get('status')])).toEqual([
      ['merge_back', 'consumed'],
      ['provider_handoff', 'consumed'],
    ]);
  });

  it('survives a resume failure of the run that took it in: the replacement handoff carries it', async () => {
    const { threadId, forkId } = await forkWithWork();
    const transfer = (await t.ok(MERGE_BACK, { id: forkId })).mergeBack;
    const next = await startRun(t, threadId, 'codex');
    expect(next.handoff.strategy).toBe('FORK_DELTA_SUMMARY');
    const replaced = (
      await t.ok(
        `mutation($input: ReportResumeFailureInput!) { reportResumeFailure(input: $input) {
        handoff { id strategy coveredRunOrdinals { from to } summaryText supersedes { id status } } } }`,
        { input: { runId: next.run.id, error: 'thread not found' } },
      )
    ).reportResumeFailure.handoff;
    expect(replaced).toMatchObject({
      strategy: 'FULL_THREAD_SUMMARY',
      coveredRunOrdinals: { from: 1, to: 2 },
      supersedes: { id: next.handoff.id, status: 'SUPERSEDED' },
    });
    expect(replaced.summaryText).toContain('Covers runs 1-2');
    expect(replaced.summaryText).toContain('Use a trie for lookups');
    const transfers = (await t.ok(THREAD, { id: threadId })).thread.transfers;
    expect(transfers.find((entry: any) => entry.id === transfer.id)).toMatchObject({
      status: 'CONSUMED',
      handoff: { id: replaced.id },
    });
  });

  it('survives regenerating the handoff that carries it, which only the local summarizer may write', async () => {
    const { threadId, forkId } = await forkWithWork();
    const transfer = (await t.ok(MERGE_BACK, { id: forkId })).mergeBack;
    const next = await startRun(t, threadId, 'claude');
    const REGENERATE = `mutation($input: RegenerateHandoffInput!) { regenerateHandoff(input: $input) { id source summaryText supersedes { id } } }`;
    await expectCode(
      t.gql(REGENERATE, { input: { handoffId: next.handoff.id, source: 'entering' } }),
      'BAD_USER_INPUT',
    );
    const regenerated = (await t.ok(REGENERATE, { input: { handoffId: next.handoff.id } })).regenerateHandoff;
    expect(regenerated).toMatchObject({ source: 'local', supersedes: { id: next.handoff.id } });
    expect(regenerated.summaryText).toContain('Covers runs 1-2');
    expect(regenerated.summaryText).toContain('Use a trie for lookups');
    const transfers = (await t.ok(THREAD, { id: threadId })).thread.transfers;
    expect(transfers.find((entry: any) => entry.id === transfer.id)).toMatchObject({
      status: 'CONSUMED',
      handoff: { id: regenerated.id },
    });
  });

  it('supersedes an older pending merge-back of the same fork', async () => {
    const { threadId, forkId } = await forkWithWork();
    const older = (await t.ok(MERGE_BACK, { id: forkId })).mergeBack;
    await runTurns(t, forkId, 'codex', 1);
    const newer = (await t.ok(MERGE_BACK, { id: forkId })).mergeBack;
    expect(newer.sourcePoint.runOrdinal).toBe(4);
    const transfers = (await t.ok(THREAD, { id: threadId })).thread.transfers;
    expect(transfers.find((entry: any) => entry.id === older.id).status).toBe('SUPERSEDED');
    const next = await startRun(t, threadId, 'codex');
    expect(next.handoff.coveredRunOrdinals).toEqual({ from: 3, to: 4 });
    expect(
      (await t.ok(THREAD, { id: threadId })).thread.transfers.find((entry: any) => entry.id === older.id).status,
    ).toBe('SUPERSEDED');
    await expectCode(t.gql(MERGE_BACK, { id: threadId }), 'BAD_USER_INPUT');
  });
});

describe('subagents', () => {
  it("spawn from a running run, get the task, and report back into the parent's summaries", async () => {
    const threadId = await createThread(t, 'parent');
    await runTurns(t, threadId, 'codex', 1);
    const parentRun = await startRun(t, threadId, 'codex');
    const child = (
      await t.ok(
        `mutation($input: SpawnSubagentInput!) { spawnSubagent(input: $input) { id headOrdinal lineage { parent { id } relationshipToParent root { id } sourcePoint { runId runOrdinal } } } }`,
        {
          input: { parentRunId: parentRun.run.id, provider: 'claude', task: 'Find every caller of parse()' },
        },
      )
    ).spawnSubagent;
    expect(child).toMatchObject({
      headOrdinal: 0,
      lineage: {
        parent: { id: threadId },
        relationshipToParent: 'SUBAGENT',
        root: { id: threadId },
        sourcePoint: { runId: parentRun.run.id, runOrdinal: 2 },
      },
    });
    expect((await t.ok(THREAD, { id: threadId })).thread.subagents).toEqual([{ id: child.id }]);

    const childRun = await startRun(t, child.id, 'claude');
    expect(childRun.run.ordinal).toBe(1);
    expect(childRun.handoff).toMatchObject({ strategy: 'MANUAL_CONTEXT', summaryText: 'Find every caller of parse()' });
    expect(childRun.dispatch.context).toBe('Find every caller of parse()');
    await completeRun(t, childRun.run.id);

    const result = (
      await t.ok(
        `mutation { completeSubagent(input: { childThreadId: "${child.id}", result: "parse() has 3 callers: a.ts, b.ts, c.ts" }) { kind status handoff { strategy summaryText source status } } }`,
      )
    ).completeSubagent;
    expect(result).toEqual({
      kind: 'SUBAGENT_RESULT',
      status: 'CONSUMED',
      handoff: {
        strategy: 'MANUAL_CONTEXT',
        summaryText: 'parse() has 3 callers: a.ts, b.ts, c.ts',
        source: 'subagent',
        status: 'READY',
      },
    });
    const parent = (
      await t.ok(`query($id: ID!) { run(id: $id) { status facts { kind text } } }`, { id: parentRun.run.id })
    ).run;
    expect(parent).toEqual({
      status: 'RUNNING',
      facts: [{ kind: 'SUBAGENT_RESULT', text: 'parse() has 3 callers: a.ts, b.ts, c.ts' }],
    });
    await completeRun(t, parentRun.run.id, { facts: [{ kind: 'DECISION', text: 'Refactor callers' }] });
    const next = await runTurns(t, threadId, 'claude', 1);
    expect(next.handoff.summaryText).toContain('## Subagent results');
    expect(next.handoff.summaryText).toContain('parse() has 3 callers');
  });

  it('take operator-written context instead of the task on the first run, and the task only once', async () => {
    const threadId = await createThread(t, 'parent');
    const parentRun = await startRun(t, threadId, 'codex');
    const child = (
      await t.ok(
        `mutation { spawnSubagent(input: { parentRunId: "${parentRun.run.id}", provider: "claude", task: "Find every caller of parse()" }) { id } }`,
      )
    ).spawnSubagent;
    const first = await startRun(t, child.id, 'claude', { manualContext: 'Operator: only look in src/' });
    expect(first.handoff).toMatchObject({ strategy: 'MANUAL_CONTEXT', summaryText: 'Operator: only look in src/' });
    const transfers = (await t.ok(THREAD, { id: child.id })).thread.transfers;
    expect(transfers).toEqual([
      expect.objectContaining({
        kind: 'SUBAGENT_SPAWN',
        status: 'CONSUMED',
        handoff: expect.objectContaining({ id: first.handoff.id }),
      }),
    ]);
    await completeRun(t, first.run.id);
    expect((await startRun(t, child.id, 'claude')).handoff).toBeNull();
  });

  it('refuses a parent run that is not running and unknown providers', async () => {
    const threadId = await createThread(t);
    const done = await runTurns(t, threadId, 'codex', 1);
    const SPAWN = `mutation($input: SpawnSubagentInput!) { spawnSubagent(input: $input) { id } }`;
    await expectCode(t.gql(SPAWN, { input: { parentRunId: done.run.id, provider: 'claude', task: 'x' } }), 'CONFLICT');
    await expectCode(
      t.gql(SPAWN, { input: { parentRunId: done.run.id, provider: 'nope', task: 'x' } }),
      'BAD_USER_INPUT',
    );
    await expectCode(
      t.gql(SPAWN, { input: { parentRunId: 'run_missing', provider: 'claude', task: 'x' } }),
      'NOT_FOUND',
    );
    await expectCode(
      t.gql(`mutation { completeSubagent(input: { childThreadId: "${threadId}", result: "r" }) { id } }`),
      'BAD_USER_INPUT',
    );
  });
});

describe('Thread.history', () => {
  const HISTORY = `query($id: ID!, $first: Int, $after: String, $liveOnly: Boolean) { thread(id: $id) {
    history(first: $first, after: $after, liveOnly: $liveOnly) { edges { cursor inherited live node { threadId ordinal status } } pageInfo { hasNextPage hasPreviousPage endCursor } } } }`;
  const page = async (id: string, variables: Record<string, unknown> = {}) =>
    (await t.ok(HISTORY, { id, ...variables })).thread.history;
  const rows = (history: any) =>
    history.edges.map(
      (edge: any) =>
        `${edge.node.ordinal} ${edge.inherited ? 'inherited' : 'own'} ${edge.live ? 'live' : 'not-live'} ${edge.node.status}`,
    );

  it("pages a fork's whole history, inherited runs marked, liveness as the fork sees it", async () => {
    const threadId = await createThread(t, 'source');
    await runTurns(t, threadId, 'codex', 3);
    const forked = await fork({ sourceThreadId: threadId, fromOrdinal: 2 });
    await runTurns(t, forked.id, 'claude', 2);
    // The source rolls back run 2 after the fork: the fork's inherited run 2 stays live for it.
    await t.ok(
      `mutation { rollbackThread(input: { threadId: "${threadId}", toOrdinal: 1 }) { thread { headOrdinal } } }`,
    );
    const first = await page(forked.id, { first: 3 });
    expect(rows(first)).toEqual(['1 inherited live COMPLETED', '2 inherited live ROLLED_BACK', '3 own live COMPLETED']);
    expect(first.edges.slice(0, 2).map((edge: any) => edge.node.threadId)).toEqual([threadId, threadId]);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const rest = await page(forked.id, { first: 3, after: first.pageInfo.endCursor });
    expect(rows(rest)).toEqual(['4 own live COMPLETED']);
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    // The source's own history: run 2 and 3 are rolled back there.
    expect(rows(await page(threadId))).toEqual([
      '1 own live COMPLETED',
      '2 own not-live ROLLED_BACK',
      '3 own not-live ROLLED_BACK',
    ]);
    expect(rows(await page(threadId, { liveOnly: true }))).toEqual(['1 own live COMPLETED']);
  });

  it('leaves out, with liveOnly, what the source had rolled back before the fork', async () => {
    const threadId = await createThread(t, 'source');
    await runTurns(t, threadId, 'codex', 3);
    await t.ok(
      `mutation { rollbackThread(input: { threadId: "${threadId}", toOrdinal: 1 }) { thread { headOrdinal } } }`,
    );
    await runTurns(t, threadId, 'codex', 1);
    const forked = await fork({ sourceThreadId: threadId, fromOrdinal: 4 });
    expect(rows(await page(forked.id))).toEqual([
      '1 inherited live COMPLETED',
      '2 inherited not-live ROLLED_BACK',
      '3 inherited not-live ROLLED_BACK',
      '4 inherited live COMPLETED',
    ]);
    const live = await page(forked.id, { liveOnly: true, first: 1 });
    expect(rows(live)).toEqual(['1 inherited live COMPLETED']);
    expect(rows(await page(forked.id, { liveOnly: true, after: live.pageInfo.endCursor }))).toEqual([
      '4 inherited live COMPLETED',
    ]);
  });
});
