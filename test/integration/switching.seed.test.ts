// The acceptance case of docs/design.md, exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { completeRun, coverage, createThread, runTurns, startRun } from '../support/lineage.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('the design example: Codex 1-5, Claude 6-8, back to Codex at 9', () => {
  it('hands over 1-5 into a new Claude thread, then 6-8 into the resumed Codex thread', async () => {
    const threadId = await createThread(t);
    const first = await startRun(t, threadId, 'codex');
    expect(first.plan).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'CREATE', handoffStrategy: null });
    const c1 = first.providerThread.id;
    await completeRun(t, first.run.id);
    const fifth = await runTurns(t, threadId, 'codex', 4);
    expect(fifth.run.ordinal).toBe(5);
    expect(fifth.plan).toMatchObject({ decision: 'NO_HANDOFF', providerThreadAction: 'REUSE' });
    expect(fifth.providerThread.id).toBe(c1);

    const sixth = await startRun(t, threadId, 'claude');
    expect(sixth.plan).toMatchObject({
      decision: 'FULL_HANDOFF_NEW',
      providerThreadAction: 'CREATE',
      handoffStrategy: 'FULL_THREAD_SUMMARY',
      coveredRunOrdinals: { from: 1, to: 5 },
    });
    const l1 = sixth.providerThread.id;
    const h1 = sixth.handoff;
    expect(h1).toMatchObject({
      coveredRunOrdinals: { from: 1, to: 5 },
      fromProviderThreadIds: [c1],
      toProviderThreadId: l1,
      status: 'READY',
      createdByProvider: null,
      delivery: 'SYSTEM',
    });
    expect(sixth.run.contextHandoff.id).toBe(h1.id);
    expect(sixth.dispatch).toMatchObject({
      providerThreadAction: 'CREATE',
      nativeThreadRef: null,
      delivery: 'SYSTEM',
      context: h1.summaryText,
    });
    await completeRun(t, sixth.run.id);
    await runTurns(t, threadId, 'claude', 2);

    await t.ok(`mutation($input: BindProviderThreadInput!) { bindProviderThread(input: $input) { id } }`, {
      input: { providerThreadId: c1, nativeThreadRef: 'codex-native-1' },
    });
    const ninth = await startRun(t, threadId, 'codex');
    expect(ninth.run.ordinal).toBe(9);
    expect(ninth.plan).toMatchObject({
      decision: 'DELTA_HANDOFF',
      providerThreadAction: 'RESUME',
      handoffStrategy: 'DELTA_SINCE_TARGET_LAST_SEEN',
      coveredRunOrdinals: { from: 6, to: 8 },
    });
    expect(ninth.plan.providerThread.id).toBe(c1);
    const h2 = ninth.handoff;
    expect(h2).toMatchObject({
      coveredRunOrdinals: { from: 6, to: 8 },
      fromProviderThreadIds: [l1],
      toProviderThreadId: c1,
      delivery: 'DEVELOPER',
    });
    expect(ninth.dispatch).toMatchObject({
      providerThreadAction: 'RESUME',
      nativeThreadRef: 'codex-native-1',
      delivery: 'DEVELOPER',
      context: h2.summaryText,
    });
    await completeRun(t, ninth.run.id);

    expect((await coverage(t, c1)).coverage).toEqual({
      nativeRunOrdinals: [1, 2, 3, 4, 5, 9],
      handoffIds: [h2.id],
      coveredThroughOrdinal: 9,
      missingRunOrdinals: [],
    });
    expect((await coverage(t, l1)).coverage).toEqual({
      nativeRunOrdinals: [6, 7, 8],
      handoffIds: [h1.id],
      coveredThroughOrdinal: 8,
      missingRunOrdinals: [9],
    });
    const c1Thread = await coverage(t, c1);
    expect(c1Thread).toMatchObject({ firstRunOrdinal: 1, lastRunOrdinal: 9, handoffIds: [h2.id] });

    // The same as ranges: their size follows the switches, not the runs.
    const ranges = await t.ok(
      `query ($id: ID!) { providerThread(id: $id) { coverage { nativeRanges { from to } handoffRanges { from to } missingRanges { from to } nativeRunCount missingRunCount } } }`,
      { id: l1 },
    );
    expect(ranges.providerThread.coverage).toEqual({
      nativeRanges: [{ from: 6, to: 8 }],
      handoffRanges: [{ from: 1, to: 5 }],
      missingRanges: [{ from: 9, to: 9 }],
      nativeRunCount: 3,
      missingRunCount: 1,
    });

    // The graph itself says the same: COVERS edges to the ends of H2's range, USES edges, DELIVERED_TO and DRAWN_FROM.
    const { records } = await t.driver.executeQuery(
      `MATCH (h:ContextHandoff {id: $h2})-[:COVERS]->(r:Run) WITH h, collect(r.ordinal) AS covered
       MATCH (h)-[:DELIVERED_TO]->(to:ProviderThread), (h)-[:DRAWN_FROM]->(from:ProviderThread), (target:Run)-[:USES]->(h)
       RETURN covered, to.id AS to, from.id AS from, target.ordinal AS target`,
      { h2: h2.id },
      { database: 'neo4j' },
    );
    expect(records[0]!.get('covered').map(Number).sort()).toEqual([6, 8]);
    expect(records[0]!.get('to')).toBe(c1);
    expect(records[0]!.get('from')).toBe(l1);
    expect(Number(records[0]!.get('target'))).toBe(9);
  });
});
