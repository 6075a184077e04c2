// Rollback on the lineage graph: runs kept as ROLLED_BACK, handoffs withdrawn, provider threads
// rolled back natively or made divergent by capability, and what the next run then decides.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { plain } from '../../src/graph/values.js';
import { settingsFile, startTestService, type TestService } from '../support/service.js';
import { completeRun, coverage, createThread, expectCode, plan, runTurns, startRun } from '../support/lineage.js';

const ROLLBACK = `mutation($input: RollbackThreadInput!) { rollbackThread(input: $input) {
  thread { headOrdinal }
  rolledBackRanges { from to }
  rolledBackRunCount
  rolledBackRuns { ordinal status checkpoint { status } }
  supersededHandoffs { id status }
  providerThreads { providerThread { id status lastRunOrdinal } action nativeRollback { providerThreadId nativeThreadRef turnsToDrop toOrdinal } }
} }`;

let t: TestService;
let noRollback: TestService;
beforeAll(async () => {
  t = await startTestService();
  const file = settingsFile({
    providers: [{ id: 'claude', displayName: 'Claude without rollback', capabilities: { canRollbackThread: false } }],
  });
  noRollback = await startTestService({ THREADLINE_PROVIDERS_FILE: file });
});
afterAll(async () => {
  await t?.close();
  await noRollback?.close();
});

/** The design example: codex 1-5 on C1, claude 6-8 on L1, optionally codex 9 back on C1. */
async function designExample(service: TestService, withRunNine: boolean) {
  const threadId = await createThread(service);
  const c1 = (await runTurns(service, threadId, 'codex', 5, {}))!.providerThread.id;
  const first = await startRun(service, threadId, 'claude');
  await completeRun(service, first.run.id, { checkpoint: { ref: 'ref-6' } });
  const l1 = first.providerThread.id;
  await runTurns(service, threadId, 'claude', 2);
  const nine = withRunNine ? await runTurns(service, threadId, 'codex', 1) : null;
  return { threadId, c1, l1, h1: first.handoff.id as string, h2: nine?.handoff.id as string | undefined };
}

describe('rollbackThread', () => {
  it('rolls back to 5 after runs 1-8: runs 6-8 kept as ROLLED_BACK, Claude divergent, Codex untouched', async () => {
    const { threadId, c1, l1, h1 } = await designExample(t, false);
    const result = (await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 5 } })).rollbackThread;
    expect(result.thread.headOrdinal).toBe(5);
    expect(result).toMatchObject({ rolledBackRanges: [{ from: 6, to: 8 }], rolledBackRunCount: 3 });
    expect(result.rolledBackRuns).toEqual([
      { ordinal: 6, status: 'ROLLED_BACK', checkpoint: { status: 'stale' } },
      { ordinal: 7, status: 'ROLLED_BACK', checkpoint: null },
      { ordinal: 8, status: 'ROLLED_BACK', checkpoint: null },
    ]);
    expect(result.supersededHandoffs).toEqual([{ id: h1, status: 'SUPERSEDED' }]);
    // L1 served nothing at or below 5, so it cannot roll back to it: divergent.
    expect(result.providerThreads).toEqual([
      {
        providerThread: { id: l1, status: 'DIVERGENT', lastRunOrdinal: null },
        action: 'DIVERGENT',
        nativeRollback: null,
      },
    ]);

    expect(await plan(t, threadId, 'codex')).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'REUSE' });
    const claude = await plan(t, threadId, 'claude');
    expect(claude).toMatchObject({
      decision: 'FULL_HANDOFF_NEW',
      providerThreadAction: 'CREATE',
      stalenessSignals: ['ROLLED_BACK_OR_DIVERGENT'],
      coveredRunOrdinals: { from: 1, to: 5 },
    });
    const next = await runTurns(t, threadId, 'codex', 1);
    expect(next.run.ordinal).toBe(9);
    expect((await coverage(t, c1)).coverage).toMatchObject({
      nativeRunOrdinals: [1, 2, 3, 4, 5, 9],
      missingRunOrdinals: [],
    });
    const runs = await t.ok(
      `query($id: ID!) { thread(id: $id) { headOrdinal runs { edges { node { ordinal status } } } latestCheckpoint { ref } } }`,
      { id: threadId },
    );
    expect(runs.thread.runs.edges.map((edge: any) => edge.node.status)).toEqual([
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
      'ROLLED_BACK',
      'ROLLED_BACK',
      'ROLLED_BACK',
      'COMPLETED',
    ]);
    expect(runs.thread.latestCheckpoint).toBeNull();
  });

  it('asks for native rollbacks where providers can, and resumes after confirmation', async () => {
    const { threadId, c1, l1, h2 } = await designExample(t, true);
    await t.ok(
      `mutation { bindProviderThread(input: { providerThreadId: "${c1}", nativeThreadRef: "codex-c1" }) { id } }`,
    );
    const result = (await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 7 } })).rollbackThread;
    expect(result.rolledBackRuns.map((run: any) => run.ordinal)).toEqual([8, 9]);
    expect(result.supersededHandoffs.map((handoff: any) => handoff.id)).toEqual([h2]);
    const byId = Object.fromEntries(result.providerThreads.map((entry: any) => [entry.providerThread.id, entry]));
    expect(byId[c1]).toEqual({
      providerThread: { id: c1, status: 'ROLLED_BACK', lastRunOrdinal: 5 },
      action: 'ROLLED_BACK',
      nativeRollback: { providerThreadId: c1, nativeThreadRef: 'codex-c1', turnsToDrop: 1, toOrdinal: 7 },
    });
    expect(byId[l1]).toMatchObject({
      providerThread: { status: 'ROLLED_BACK', lastRunOrdinal: 7 },
      action: 'ROLLED_BACK',
      nativeRollback: { turnsToDrop: 1, toOrdinal: 7 },
    });

    // Until confirmed, the provider thread's state is unknown: the planner will not resume it.
    expect((await plan(t, threadId, 'codex')).stalenessSignals).toEqual(['ROLLED_BACK_OR_DIVERGENT']);
    const confirmed = (
      await t.ok(
        `mutation { confirmProviderRollback(input: { providerThreadId: "${c1}" }) { status coverage { coveredThroughOrdinal missingRunOrdinals } } }`,
      )
    ).confirmProviderRollback;
    expect(confirmed).toEqual({ status: 'IDLE', coverage: { coveredThroughOrdinal: 5, missingRunOrdinals: [6, 7] } });
    expect(await plan(t, threadId, 'codex')).toMatchObject({
      decision: 'DELTA_HANDOFF',
      providerThreadAction: 'RESUME',
      coveredRunOrdinals: { from: 6, to: 7 },
    });

    const l1Confirmed = (
      await t.ok(`mutation { confirmProviderRollback(input: { providerThreadId: "${l1}" }) { status } }`)
    ).confirmProviderRollback;
    expect(l1Confirmed.status).toBe('IDLE');
    expect(await plan(t, threadId, 'claude')).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'REUSE' });
    await expectCode(
      t.gql(`mutation { confirmProviderRollback(input: { providerThreadId: "${l1}" }) { status } }`),
      'CONFLICT',
    );
  });

  it('makes a provider thread divergent when its native rollback fails', async () => {
    const { threadId, c1 } = await designExample(t, true);
    await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 7 } });
    const failed = (
      await t.ok(
        `mutation { reportProviderRollbackFailure(input: { providerThreadId: "${c1}", error: "no such turn" }) { status } }`,
      )
    ).reportProviderRollbackFailure;
    expect(failed.status).toBe('DIVERGENT');
    expect(await plan(t, threadId, 'codex')).toMatchObject({
      decision: 'FULL_HANDOFF_NEW',
      stalenessSignals: ['ROLLED_BACK_OR_DIVERGENT'],
      coveredRunOrdinals: { from: 1, to: 7 },
    });
  });

  it('makes the threads of a provider without rollback divergent', async () => {
    const { threadId, l1 } = await designExample(noRollback, true);
    const result = (await noRollback.ok(ROLLBACK, { input: { threadId, toOrdinal: 7 } })).rollbackThread;
    const l1Entry = result.providerThreads.find((entry: any) => entry.providerThread.id === l1);
    expect(l1Entry).toMatchObject({
      action: 'DIVERGENT',
      nativeRollback: null,
      providerThread: { status: 'DIVERGENT' },
    });
    expect(result.providerThreads.find((entry: any) => entry.providerThread.id !== l1)).toMatchObject({
      action: 'ROLLED_BACK',
    });
  });

  it('hands over only live runs after a rollback: the range, the reasons and the text never claim a rolled-back run', async () => {
    const { threadId, c1 } = await designExample(t, true);
    await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 5 } });
    await t.ok(`mutation { confirmProviderRollback(input: { providerThreadId: "${c1}" }) { status } }`);
    await runTurns(t, threadId, 'claude', 1);
    const eleventh = await startRun(t, threadId, 'codex');
    expect(eleventh.run.ordinal).toBe(11);
    expect(eleventh.plan).toMatchObject({
      decision: 'DELTA_HANDOFF',
      providerThreadAction: 'RESUME',
      coveredRunOrdinals: { from: 10, to: 10 },
    });
    expect(eleventh.plan.reasons.join(' ')).toContain('a delta covering run 10,');
    const text: string = eleventh.handoff.summaryText;
    expect(text).toContain('Covers run 10');
    expect(text).toMatch(/^Providers: claude$/m);
    expect(text).not.toMatch(/6-10|earlier runs? not listed/);
    expect(eleventh.handoff.coveredRunOrdinals).toEqual({ from: 10, to: 10 });
  });

  it('answers a long rollback with its ranges, its count and a bounded page of runs', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 104);
    const first = (await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 2 } })).rollbackThread;
    expect(first).toMatchObject({ rolledBackRanges: [{ from: 3, to: 104 }], rolledBackRunCount: 102 });
    expect(first.rolledBackRuns.map((run: any) => run.ordinal)).toEqual(
      Array.from({ length: 100 }, (_, index) => index + 3),
    );
    // Confirmed, the provider thread serves on after the gap.
    const providerThreadId = first.providerThreads[0].providerThread.id;
    const confirm = `mutation { confirmProviderRollback(input: { providerThreadId: "${providerThreadId}" }) { status } }`;
    await t.ok(confirm);
    await runTurns(t, threadId, 'codex', 2);
    // A second rollback withdraws only what is live: the runs after the first one, not its gap.
    const second = (await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 1 } })).rollbackThread;
    expect(second).toMatchObject({
      rolledBackRanges: [
        { from: 2, to: 2 },
        { from: 105, to: 106 },
      ],
      rolledBackRunCount: 3,
    });
    expect(second.rolledBackRuns.map((run: any) => run.ordinal)).toEqual([2, 105, 106]);
    // The provider thread keeps run 1: once its native rollback is confirmed it serves on, knowing just that.
    expect(second.providerThreads.map((entry: any) => entry.nativeRollback)).toEqual([
      { providerThreadId, nativeThreadRef: null, turnsToDrop: 3, toOrdinal: 1 },
    ]);
    await t.ok(confirm);
    expect(await plan(t, threadId, 'codex')).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'REUSE' });
    const ranges = await t.ok(
      `query ($id: ID!) { providerThread(id: $id) { coverage { nativeRanges { from to } missingRunCount } } }`,
      { id: providerThreadId },
    );
    expect(ranges.providerThread.coverage).toEqual({ nativeRanges: [{ from: 1, to: 1 }], missingRunCount: 0 });
  });

  it('keeps the stored ranges a later rollback leaves alone, and a fork copies those below its point', async () => {
    // Rollback to 5 stores 6-8; runs 9 and 10 follow; rollback to 9 keeps 6-8 and adds 10.
    const threadId = await createThread(t);
    const codex = (await runTurns(t, threadId, 'codex', 8))!.providerThread.id;
    const confirm = `mutation { confirmProviderRollback(input: { providerThreadId: "${codex}" }) { status } }`;
    await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 5 } });
    await t.ok(confirm);
    await runTurns(t, threadId, 'codex', 2);
    await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 9 } });
    await t.ok(confirm);
    const forkId = (
      await t.ok(`mutation { forkThread(input: { sourceThreadId: "${threadId}", fromOrdinal: 9 }) { id } }`)
    ).forkThread.id;
    const stored = async (id: string) => {
      const { records } = await t.driver.executeQuery(
        'MATCH (thread:Thread {tenant: $tenant, id: $id}) RETURN thread.rolledBackFrom AS from, thread.rolledBackTo AS to',
        { tenant: t.tenant, id },
        { database: inject('neo4j').database },
      );
      return plain(records[0]!.toObject());
    };
    expect(await stored(threadId)).toEqual({ from: [6, 10], to: [8, 10] });
    expect(await stored(forkId)).toEqual({ from: [6], to: [8] });
    // The stored ranges agree with the runs: 6-8 and 10 rolled back, 9 live.
    const live = `query($id: ID!) { thread(id: $id) { runs(first: 20) { edges { node { ordinal status } } } } }`;
    const statuses = (await t.ok(live, { id: threadId })).thread.runs.edges.map((edge: any) => edge.node);
    expect(statuses.filter((run: any) => run.status === 'ROLLED_BACK').map((run: any) => run.ordinal)).toEqual([
      6, 7, 8, 10,
    ]);
  });

  it('rolls back to 0 and never reuses an ordinal', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 2);
    await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 0 } });
    expect(await plan(t, threadId, 'codex')).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'CREATE' });
    const next = await runTurns(t, threadId, 'codex', 1);
    expect(next.run.ordinal).toBe(3);
    expect(next.handoff).toBeNull();
  });

  it('refuses bad rollback points and running threads', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 3);
    for (const toOrdinal of [3, 4, -1])
      await expectCode(t.gql(ROLLBACK, { input: { threadId, toOrdinal } }), 'BAD_USER_INPUT');
    await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 1 } });
    await runTurns(t, threadId, 'codex', 1);
    await expectCode(t.gql(ROLLBACK, { input: { threadId, toOrdinal: 2 } }), 'BAD_USER_INPUT');
    await startRun(t, threadId, 'codex');
    await expectCode(t.gql(ROLLBACK, { input: { threadId, toOrdinal: 1 } }), 'RUN_IN_PROGRESS');
    await expectCode(t.gql(ROLLBACK, { input: { threadId: 'no-such-thread', toOrdinal: 0 } }), 'NOT_FOUND');
  });
});
