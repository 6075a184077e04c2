// The planner's decision order, one case per step and per staleness signal, through GraphQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFile, startTestService, type TestService } from '../support/service.js';
import {
  completeRun,
  coverage,
  createThread,
  expectCode,
  plan,
  runTurns,
  startRun,
  PLAN_RUN,
  START_RUN,
} from '../support/lineage.js';

let t: TestService;
let limited: TestService;
beforeAll(async () => {
  t = await startTestService();
  // A provider with a tiny handoff budget, one without delta support, and one that takes no handoffs.
  const base = {
    acceptsSystemContext: false,
    acceptsDeveloperContext: false,
    acceptsSyntheticUserContext: false,
    canConsumeHandoffSummaries: true,
    canGenerateSummaries: false,
    supportsDeltaHandoff: true,
    supportsFullThreadHandoff: true,
    supportsModelSwitchInThread: false,
    maxRecommendedHandoffChars: 32000,
    canForkThread: false,
    canForkFromTurn: false,
    canRollbackThread: false,
    nativeThreadIds: 'weak',
  };
  const providersFile = settingsFile({
    providers: [
      { id: 'terse', displayName: 'Terse', capabilities: { ...base, maxRecommendedHandoffChars: 400 } },
      { id: 'fullonly', displayName: 'Full only', capabilities: { ...base, supportsDeltaHandoff: false } },
      { id: 'deaf', displayName: 'Deaf', capabilities: { ...base, canConsumeHandoffSummaries: false } },
    ],
  });
  limited = await startTestService({ THREADLINE_PROVIDERS_FILE: providersFile });
});
afterAll(async () => {
  await t?.close();
  await limited?.close();
});

describe('consecutive runs on one provider', () => {
  it('reuse the provider thread with no handoff node', async () => {
    const threadId = await createThread(t);
    const first = await runTurns(t, threadId, 'codex', 1);
    const second = await runTurns(t, threadId, 'codex', 1);
    expect(second.plan).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'REUSE', stalenessSignals: [] });
    expect(second.providerThread.id).toBe(first.providerThread.id);
    expect(second.handoff).toBeNull();
    expect(second.dispatch.context).toBeNull();
    const { records } = await t.driver.executeQuery(
      'MATCH (h:ContextHandoff {threadId: $threadId}) RETURN count(h) AS n',
      { threadId },
      { database: 'neo4j' },
    );
    expect(Number(records[0]!.get('n'))).toBe(0);
  });

  it('resume without a handoff when nothing happened since the provider last took part', async () => {
    const threadId = await createThread(t);
    const codex = await runTurns(t, threadId, 'codex', 1);
    const claude = await runTurns(t, threadId, 'claude', 1);
    const back = await runTurns(t, threadId, 'codex', 1);
    expect(back.plan.decision).toBe('DELTA_HANDOFF');
    expect((await plan(t, threadId, 'codex')).decision).toBe('NO_HANDOFF');
    // Claude missed run 3 only: a delta of one run.
    const claudePlan = await plan(t, threadId, 'claude');
    expect(claudePlan).toMatchObject({
      decision: 'DELTA_HANDOFF',
      providerThreadAction: 'RESUME',
      coveredRunOrdinals: { from: 3, to: 3 },
    });
    expect(claudePlan.providerThread.id).toBe(claude.providerThread.id);
    expect(codex.providerThread.id).toBe(back.providerThread.id);
  });
});

describe('staleness signals, each alone', () => {
  it('TOO_MANY_RUNS_ELSEWHERE after more than 20 runs on other providers', async () => {
    const threadId = await createThread(t);
    const codex = await runTurns(t, threadId, 'codex', 1);
    await runTurns(t, threadId, 'claude', 20);
    expect((await plan(t, threadId, 'codex')).stalenessSignals).toEqual([]);
    await runTurns(t, threadId, 'claude', 1);
    const stale = await runTurns(t, threadId, 'codex', 1);
    expect(stale.plan).toMatchObject({
      decision: 'FULL_HANDOFF_NEW',
      providerThreadAction: 'CREATE',
      stalenessSignals: ['TOO_MANY_RUNS_ELSEWHERE'],
      coveredRunOrdinals: { from: 1, to: 22 },
    });
    expect(stale.plan.reasons.length).toBeGreaterThanOrEqual(2);
    expect(stale.providerThread.id).not.toBe(codex.providerThread.id);
    expect((await coverage(t, codex.providerThread.id)).status).toBe('STALE');
  });

  it('TOO_MANY_CHAINED_HANDOFFS once the thread already holds 3 standing handoffs', async () => {
    const threadId = await createThread(t);
    const codex = await runTurns(t, threadId, 'codex', 1);
    for (let i = 0; i < 3; i++) {
      await runTurns(t, threadId, 'claude', 1);
      const back = await runTurns(t, threadId, 'codex', 1);
      expect(back.providerThread.id).toBe(codex.providerThread.id);
    }
    await runTurns(t, threadId, 'claude', 1);
    const result = await plan(t, threadId, 'codex');
    expect(result).toMatchObject({ decision: 'FULL_HANDOFF_NEW', stalenessSignals: ['TOO_MANY_CHAINED_HANDOFFS'] });
  });

  it('INCOMPATIBLE_CONFIG on a runtime mode change', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 1, { runtimeMode: 'full-access' });
    expect((await plan(t, threadId, 'codex', { runtimeMode: 'full-access' })).decision).toBe('NO_HANDOFF');
    const changed = await plan(t, threadId, 'codex', { runtimeMode: 'read-only' });
    expect(changed).toMatchObject({
      decision: 'FULL_HANDOFF_NEW',
      providerThreadAction: 'CREATE',
      stalenessSignals: ['INCOMPATIBLE_CONFIG'],
    });
  });

  it('INCOMPATIBLE_CONFIG on a model change only where the provider cannot switch models in thread', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 1, { model: 'gpt-a' });
    expect((await plan(t, threadId, 'codex', { model: 'gpt-b' })).stalenessSignals).toEqual([]);
    const other = await createThread(limited);
    await runTurns(limited, other, 'terse', 1, { model: 'm1' });
    expect((await plan(limited, other, 'terse', { model: 'm2' })).stalenessSignals).toEqual(['INCOMPATIBLE_CONFIG']);
  });

  it('RESUME_FAILED after a reported resume failure', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 2);
    await runTurns(t, threadId, 'claude', 1);
    const back = await startRun(t, threadId, 'codex');
    const failed = back.providerThread.id;
    const data = await t.ok(
      `mutation($input: ReportResumeFailureInput!) { reportResumeFailure(input: $input) {
        run { id ordinal providerThread { id } contextHandoff { id } }
        plan { decision providerThreadAction stalenessSignals coveredRunOrdinals { from to } reasons }
        providerThread { id status }
        handoff { id strategy status coveredRunOrdinals { from to } supersedes { id status } }
        dispatch { providerThreadAction context } } }`,
      { input: { runId: back.run.id, error: 'thread not found' } },
    );
    const replanned = data.reportResumeFailure;
    expect(replanned.run).toMatchObject({ id: back.run.id, ordinal: 4 });
    expect(replanned.plan).toMatchObject({
      decision: 'FULL_HANDOFF_NEW',
      providerThreadAction: 'CREATE',
      stalenessSignals: ['RESUME_FAILED'],
      coveredRunOrdinals: { from: 1, to: 3 },
    });
    expect(replanned.providerThread.id).not.toBe(failed);
    expect(replanned.run.providerThread.id).toBe(replanned.providerThread.id);
    expect(replanned.handoff).toMatchObject({
      strategy: 'FULL_THREAD_SUMMARY',
      status: 'READY',
      coveredRunOrdinals: { from: 1, to: 3 },
      supersedes: { id: back.handoff.id, status: 'SUPERSEDED' },
    });
    expect(replanned.run.contextHandoff.id).toBe(replanned.handoff.id);
    expect(replanned.dispatch).toMatchObject({ providerThreadAction: 'CREATE' });
    const old = await coverage(t, failed);
    expect(old.status).toBe('RESUME_FAILED');
    expect(old.coverage.nativeRunOrdinals).toEqual([1, 2]);
    const { records } = await t.driver.executeQuery(
      'MATCH (tr:ContextTransfer {handoffId: $id}) RETURN tr.createdBy AS by',
      { id: replanned.handoff.id },
      { database: 'neo4j' },
    );
    expect(records[0]!.get('by')).toBe('system');
    await completeRun(t, back.run.id);
    // The failed thread stays failed; the next codex run reuses the replacement.
    const next = await runTurns(t, threadId, 'codex', 1);
    expect(next.plan).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'REUSE' });
    expect(next.providerThread.id).toBe(replanned.providerThread.id);
  });

  it('CLEAN_CONTEXT_REQUESTED', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 2);
    const clean = await runTurns(t, threadId, 'codex', 1, { cleanContext: true });
    expect(clean.plan).toMatchObject({
      decision: 'FULL_HANDOFF_NEW',
      providerThreadAction: 'CREATE',
      stalenessSignals: ['CLEAN_CONTEXT_REQUESTED'],
      coveredRunOrdinals: { from: 1, to: 2 },
    });
  });

  it('SUMMARY_EXCEEDS_POLICY when the delta would pass the provider limit', async () => {
    const threadId = await createThread(limited);
    await runTurns(limited, threadId, 'terse', 1);
    const codex = await startRun(limited, threadId, 'codex');
    const decisions = [1, 2, 3].map((n) => ({
      kind: 'DECISION',
      text: `decision ${n}: ${'keep the parser streaming '.repeat(8)}`,
    }));
    await completeRun(limited, codex.run.id, { facts: decisions });
    expect((await plan(limited, threadId, 'terse')).stalenessSignals).toEqual(['SUMMARY_EXCEEDS_POLICY']);
    const result = await runTurns(limited, threadId, 'terse', 1);
    expect(result.plan.decision).toBe('FULL_HANDOFF_NEW');
    expect(result.handoff.summaryText.length).toBeLessThanOrEqual(400);
  });
});

describe('the other decisions', () => {
  it('FULL_HANDOFF_EXISTING when the missed runs came from more than 2 other provider threads', async () => {
    const threadId = await createThread(limited);
    const codex = await runTurns(limited, threadId, 'codex', 1);
    await runTurns(limited, threadId, 'claude', 1);
    await runTurns(limited, threadId, 'terse', 1);
    await runTurns(limited, threadId, 'fullonly', 1);
    const back = await runTurns(limited, threadId, 'codex', 1);
    expect(back.plan).toMatchObject({
      decision: 'FULL_HANDOFF_EXISTING',
      providerThreadAction: 'RESUME',
      handoffStrategy: 'FULL_THREAD_SUMMARY',
      coveredRunOrdinals: { from: 1, to: 4 },
    });
    expect(back.providerThread.id).toBe(codex.providerThread.id);
  });

  it('FULL_HANDOFF_EXISTING when the provider takes no deltas', async () => {
    const threadId = await createThread(limited);
    await runTurns(limited, threadId, 'fullonly', 1);
    await runTurns(limited, threadId, 'codex', 1);
    const back = await runTurns(limited, threadId, 'fullonly', 1);
    expect(back.plan).toMatchObject({ decision: 'FULL_HANDOFF_EXISTING', providerThreadAction: 'RESUME' });
    expect(back.handoff.delivery).toBe('PREAMBLE');
  });

  it('UNSUPPORTED: HANDOFF_UNSUPPORTED and nothing written', async () => {
    const threadId = await createThread(limited);
    await runTurns(limited, threadId, 'codex', 1);
    expect((await plan(limited, threadId, 'deaf')).decision).toBe('UNSUPPORTED');
    const before = await counts(limited, threadId);
    await expectCode(
      limited.gql(START_RUN, { input: { threadId, provider: 'deaf', userMessage: 'hi' } }),
      'HANDOFF_UNSUPPORTED',
    );
    expect(await counts(limited, threadId)).toEqual(before);
  });
});

describe('planRun', () => {
  it('writes nothing', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 3);
    await runTurns(t, threadId, 'claude', 1);
    const before = await counts(t, threadId);
    for (const provider of ['codex', 'claude']) await plan(t, threadId, provider);
    await plan(t, threadId, 'codex', { cleanContext: true });
    expect(await counts(t, threadId)).toEqual(before);
  });

  it('refuses an unknown provider and an unknown thread', async () => {
    const threadId = await createThread(t);
    const bad = await expectCode(t.gql(PLAN_RUN, { input: { threadId, provider: 'nope' } }), 'BAD_USER_INPUT');
    expect(bad.errors![0]!.message).toMatch(/provider/);
    await expectCode(t.gql(PLAN_RUN, { input: { threadId: 'missing-thread', provider: 'codex' } }), 'NOT_FOUND');
  });
});

/** Nodes and relationships of one thread's lineage (other test files write concurrently). */
async function counts(service: TestService, threadId: string): Promise<{ nodes: number; relationships: number }> {
  const { records } = await service.driver.executeQuery(
    `MATCH (n) WHERE $threadId IN [n.threadId, n.sourceThreadId, n.targetThreadId] OR (n:Thread AND n.id = $threadId)
     WITH collect(n) AS nodes
     CALL (nodes) { UNWIND nodes AS n MATCH (n)-[r]-() RETURN count(DISTINCT r) AS relationships }
     RETURN size(nodes) AS nodes, relationships`,
    { threadId },
    { database: 'neo4j' },
  );
  return { nodes: Number(records[0]!.get('nodes')), relationships: Number(records[0]!.get('relationships')) };
}
