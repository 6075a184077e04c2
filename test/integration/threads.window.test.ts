// Thread.runs(last, before), Thread.handoffs(fromOrdinal, toOrdinal) and Thread.transfers(fromOrdinal,
// toOrdinal): a window of a thread read from its newest end, as the lineage viewer opens one.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { encodeCursor } from '../../src/api/cursors.js';
import { cypher, type QueryName } from '../../src/graph/queries.js';
import { startTestService, type TestService } from '../support/service.js';
import { completeRun, createThread, expectCode, runTurns, startRun } from '../support/lineage.js';

const RUNS = `query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
  thread(id: $id) { runs(first: $first, after: $after, last: $last, before: $before) {
    pageInfo { hasPreviousPage hasNextPage startCursor endCursor }
    edges { cursor node { ordinal } } } }
}`;
const WINDOW = `query($id: ID!, $from: Int, $to: Int) {
  thread(id: $id) {
    handoffs(fromOrdinal: $from, toOrdinal: $to) { id targetRunId coveredRunOrdinals { from to } }
    transfers(fromOrdinal: $from, toOrdinal: $to) { id kind status resolution sourceThreadId targetThreadId sourcePoint { runOrdinal } handoff { id } }
    forks(fromOrdinal: $from, toOrdinal: $to) { id }
    subagents(fromOrdinal: $from, toOrdinal: $to) { id }
  }
}`;

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

async function runsPage(id: string, args: Record<string, unknown>) {
  const runs = (await t.ok(RUNS, { id, ...args })).thread.runs;
  return { ...runs, ordinals: runs.edges.map((edge: { node: { ordinal: number } }) => edge.node.ordinal) as number[] };
}

async function window(id: string, from?: number, to?: number) {
  return (await t.ok(WINDOW, { id, from, to })).thread;
}

const r = (from: number, to: number) => ({ from, to });
const ids = (list: { id: string }[]) => list.map((item) => item.id).sort();

/** Codex 1-5, claude 6-8, codex 9-12: handoffs for runs 6 and 9. */
async function switchingThread() {
  const threadId = await createThread(t, 'window');
  await runTurns(t, threadId, 'codex', 5);
  await runTurns(t, threadId, 'claude', 3);
  await runTurns(t, threadId, 'codex', 4);
  return threadId;
}

describe('Thread.runs backwards (last, before)', () => {
  it('pages from the newest run back to the first, each page oldest first, and agrees with paging forwards', async () => {
    const threadId = await switchingThread();
    const newest = await runsPage(threadId, { last: 5 });
    expect(newest.ordinals).toEqual([8, 9, 10, 11, 12]);
    expect(newest.pageInfo).toMatchObject({
      hasPreviousPage: true,
      hasNextPage: false,
      startCursor: newest.edges[0].cursor,
      endCursor: newest.edges[4].cursor,
    });

    const middle = await runsPage(threadId, { last: 5, before: newest.pageInfo.startCursor });
    expect(middle.ordinals).toEqual([3, 4, 5, 6, 7]);
    expect(middle.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });

    const oldest = await runsPage(threadId, { last: 5, before: middle.pageInfo.startCursor });
    expect(oldest.ordinals).toEqual([1, 2]);
    expect(oldest.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });

    const beforeFirst = await runsPage(threadId, { last: 5, before: oldest.pageInfo.startCursor });
    expect(beforeFirst.ordinals).toEqual([]);
    expect(beforeFirst.pageInfo).toEqual({
      hasPreviousPage: false,
      hasNextPage: true,
      startCursor: null,
      endCursor: null,
    });

    const forwards = await runsPage(threadId, { first: 500 });
    expect([...oldest.ordinals, ...middle.ordinals, ...newest.ordinals]).toEqual(forwards.ordinals);
    expect(forwards.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: false });
    // Cursors are positions: a forward page's cursor works backwards and the other way round.
    expect((await runsPage(threadId, { last: 2, before: forwards.edges[6].cursor })).ordinals).toEqual([5, 6]);
    const after = await runsPage(threadId, { first: 3, after: newest.edges[0].cursor });
    expect(after.ordinals).toEqual([9, 10, 11]);
    expect(after.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
  });

  it('clamps last like first, to 1..500, and defaults it to 50 when only before is passed', async () => {
    const threadId = await switchingThread();
    expect((await runsPage(threadId, { last: 0 })).ordinals).toEqual([12]);
    expect((await runsPage(threadId, { last: -7 })).ordinals).toEqual([12]);
    expect((await runsPage(threadId, { last: 100_000 })).ordinals).toHaveLength(12);
    expect((await runsPage(threadId, { before: encodeCursor({ ordinal: 10 }) })).ordinals).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    // Literals too, and the SDL's default for first does not count as passing it.
    const literal = await t.ok(`query($id: ID!) { thread(id: $id) { runs(last: 2) { edges { node { ordinal } } } } }`, {
      id: threadId,
    });
    expect(literal.thread.runs.edges.map((edge: { node: { ordinal: number } }) => edge.node.ordinal)).toEqual([11, 12]);
    const nullFirst = await t.ok(
      `query($id: ID!) { thread(id: $id) { runs(first: null, last: 1) { edges { node { ordinal } } } } }`,
      { id: threadId },
    );
    expect(nullFirst.thread.runs.edges).toHaveLength(1);
  });

  it('answers an empty page for a thread without runs, and for a fork only its own runs', async () => {
    const empty = await createThread(t, 'no runs');
    expect(await runsPage(empty, { last: 10 })).toMatchObject({
      ordinals: [],
      pageInfo: { hasPreviousPage: false, hasNextPage: false },
    });

    const threadId = await switchingThread();
    const forkId = (
      await t.ok(`mutation($input: ForkThreadInput!) { forkThread(input: $input) { id } }`, {
        input: { sourceThreadId: threadId, fromOrdinal: 10 },
      })
    ).forkThread.id;
    expect((await runsPage(forkId, { last: 10 })).ordinals).toEqual([]);
    await runTurns(t, forkId, 'claude', 3);
    const page = await runsPage(forkId, { last: 2 });
    expect(page.ordinals).toEqual([12, 13]);
    expect(page.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const rest = await runsPage(forkId, { last: 2, before: page.pageInfo.startCursor });
    expect(rest.ordinals).toEqual([11]);
    expect(rest.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
  });

  it('refuses first or after with last or before, and malformed cursors, as BAD_USER_INPUT', async () => {
    const threadId = await switchingThread();
    const cursor = encodeCursor({ ordinal: 5 });
    for (const args of [
      { first: 5, last: 5 },
      { first: 50, last: 5 },
      { after: cursor, last: 5 },
      { first: 5, before: cursor },
      { after: cursor, before: cursor },
    ]) {
      const result = await expectCode(t.gql(RUNS, { id: threadId, ...args }), 'BAD_USER_INPUT');
      expect(result.errors![0]!.message).toMatch(/forwards .* backwards/);
    }
    await expectCode(
      t.gql(`query($id: ID!) { thread(id: $id) { runs(first: 50, last: 5) { edges { cursor } } } }`, { id: threadId }),
      'BAD_USER_INPUT',
    );
    for (const before of [
      'garbage',
      encodeCursor({ ordinal: 'x' }),
      encodeCursor({ ordinal: 1.5 }),
      encodeCursor({ ordinal: 2 ** 60 }),
      encodeCursor([5]),
    ]) {
      const result = await expectCode(t.gql(RUNS, { id: threadId, last: 5, before }), 'BAD_USER_INPUT');
      expect(result.errors![0]!.message).toContain('before');
    }
  });
});

describe('Thread.handoffs and Thread.transfers over an ordinal window', () => {
  it('answers the handoffs made for the runs of the window; without a window, all of them', async () => {
    const threadId = await switchingThread();
    const all = (await window(threadId)).handoffs;
    expect(all.map((handoff: { coveredRunOrdinals: unknown }) => handoff.coveredRunOrdinals)).toEqual([
      { from: 1, to: 5 },
      { from: 6, to: 8 },
    ]);
    expect((await window(threadId, 6, 8)).handoffs).toEqual([all[0]]);
    expect((await window(threadId, 9, 12)).handoffs).toEqual([all[1]]);
    expect((await window(threadId, 7, 8)).handoffs).toEqual([]);
    expect((await window(threadId, 1, 5)).handoffs).toEqual([]);
    expect((await window(threadId, 1, 999)).handoffs).toEqual(all);
    expect((await window(threadId, 500, 600)).handoffs).toEqual([]);
  });

  it('refuses a half-open, reversed, non-positive or too wide window as BAD_USER_INPUT', async () => {
    const threadId = await switchingThread();
    for (const [from, to, argument] of [
      [5, undefined, 'toOrdinal'],
      [undefined, 5, 'fromOrdinal'],
      [0, 5, 'fromOrdinal'],
      [-3, 5, 'fromOrdinal'],
      [6, 5, 'toOrdinal'],
      [1, 1001, 'toOrdinal'],
    ] as const) {
      for (const list of ['handoffs', 'transfers']) {
        const result = await expectCode(
          t.gql(
            `query($id: ID!, $from: Int, $to: Int) { thread(id: $id) { ${list}(fromOrdinal: $from, toOrdinal: $to) { id } } }`,
            { id: threadId, from, to },
          ),
          'BAD_USER_INPUT',
        );
        expect(result.errors![0]!.message, `${list}(${from}, ${to})`).toMatch(new RegExp(`^${argument}:`));
      }
    }
    expect((await window(threadId, 1, 1000)).transfers).toHaveLength(2);
  });

  it('answers the transfers with a point in the window: switches, a native fork, a merge-back, a subagent', async () => {
    // Root: codex 1-5 (native id bound), claude 6-8, codex 9, then run 10 spawns a subagent whose
    // result comes back to it. A fork from run 4 forks codex natively at its run 5 and, once the
    // root's run 10 is over, merges back into the root, pending until the root's next run, 11.
    const root = await createThread(t, 'transfers root');
    const codex = await runTurns(t, root, 'codex', 5);
    await t.ok(`mutation($input: BindProviderThreadInput!) { bindProviderThread(input: $input) { id } }`, {
      input: { providerThreadId: codex.providerThread.id, nativeThreadRef: 'codex-native-window' },
    });
    await runTurns(t, root, 'claude', 3);
    await runTurns(t, root, 'codex', 1);
    const forkId = (
      await t.ok(`mutation($input: ForkThreadInput!) { forkThread(input: $input) { id } }`, {
        input: { sourceThreadId: root, fromOrdinal: 4 },
      })
    ).forkThread.id;
    const forkRun = await runTurns(t, forkId, 'codex', 1);
    expect(forkRun.plan.providerThreadAction).toBe('NATIVE_FORK');
    const parentRun = await startRun(t, root, 'codex');
    expect(parentRun.run.ordinal).toBe(10);
    const childId = (
      await t.ok(`mutation($input: SpawnSubagentInput!) { spawnSubagent(input: $input) { id } }`, {
        input: { parentRunId: parentRun.run.id, provider: 'claude', task: 'Look around.' },
      })
    ).spawnSubagent.id;
    await runTurns(t, childId, 'claude', 1);
    await t.ok(`mutation($input: CompleteSubagentInput!) { completeSubagent(input: $input) { id } }`, {
      input: { childThreadId: childId, result: 'Looked around.' },
    });
    await completeRun(t, parentRun.run.id);
    const mergeBack = (
      await t.ok(`mutation($id: ID!) { mergeBack(input: { forkThreadId: $id }) { id } }`, { id: forkId })
    ).mergeBack.id;

    const all = (await window(root)).transfers as {
      id: string;
      kind: string;
      status: string;
      resolution: string | null;
      sourceThreadId: string;
      targetThreadId: string;
      sourcePoint: { runOrdinal: number };
      handoff: { id: string } | null;
    }[];
    const byKind = (kind: string, sourcePointOrdinal?: number) =>
      all.find(
        (transfer) =>
          transfer.kind === kind &&
          (sourcePointOrdinal === undefined || transfer.sourcePoint.runOrdinal === sourcePointOrdinal),
      )!;
    const switchAt6 = byKind('PROVIDER_HANDOFF', 5);
    const switchAt9 = byKind('PROVIDER_HANDOFF', 8);
    const forkTransfer = byKind('FORK');
    const spawn = byKind('SUBAGENT_SPAWN');
    const result = byKind('SUBAGENT_RESULT');
    const merge = byKind('MERGE_BACK');
    expect(all).toHaveLength(6);
    expect(forkTransfer).toMatchObject({
      status: 'CONSUMED',
      resolution: 'NATIVE_FORK',
      handoff: null,
      targetThreadId: forkId,
    });
    expect(merge).toMatchObject({ id: mergeBack, status: 'PENDING', sourceThreadId: forkId, targetThreadId: root });

    // Out of the root from runs 4 and 5; into it at 6 (the switch's handoff); from 8 and into 9; from
    // and back into 10; the pending merge-back at 11, the ordinal of the root's next run.
    expect(ids((await window(root, 1, 5)).transfers)).toEqual(ids([switchAt6, forkTransfer]));
    expect(ids((await window(root, 6, 7)).transfers)).toEqual(ids([switchAt6]));
    expect(ids((await window(root, 8, 8)).transfers)).toEqual(ids([switchAt9]));
    expect(ids((await window(root, 9, 10)).transfers)).toEqual(ids([switchAt9, spawn, result]));
    expect(ids((await window(root, 11, 11)).transfers)).toEqual(ids([merge]));
    expect((await window(root, 12, 300)).transfers).toEqual([]);
    const whole = (await window(root, 1, 11)).transfers;
    expect(whole).toEqual(all);
    // Forks and subagents by the run they branched off: the fork from run 4, the subagent of run 10.
    const children = async (from: number, to: number) => {
      const read = await window(root, from, to);
      return { forks: ids(read.forks), subagents: ids(read.subagents) };
    };
    expect(await children(1, 5)).toEqual({ forks: [forkId], subagents: [] });
    expect(await children(4, 4)).toEqual({ forks: [forkId], subagents: [] });
    expect(await children(5, 9)).toEqual({ forks: [], subagents: [] });
    expect(await children(10, 11)).toEqual({ forks: [], subagents: [childId] });

    // The fork: its native fork at its first own run (5), and its merge-back from that run; nothing in
    // the ordinals it inherited.
    expect((await window(forkId, 1, 4)).transfers).toEqual([]);
    expect(ids((await window(forkId, 5, 5)).transfers)).toEqual(ids([forkTransfer, merge]));
    // The subagent: its task at its first run, which also returned the result.
    expect(ids((await window(childId, 1, 1)).transfers)).toEqual(ids([spawn, result]));

    // A fork before its first run: its pending transfer at the ordinal of that run.
    const idleFork = (
      await t.ok(`mutation($input: ForkThreadInput!) { forkThread(input: $input) { id } }`, {
        input: { sourceThreadId: root, fromOrdinal: 7 },
      })
    ).forkThread.id;
    const pendingFork = (await window(idleFork, 8, 8)).transfers;
    expect(pendingFork).toMatchObject([{ kind: 'FORK', status: 'PENDING', targetThreadId: idleFork }]);
    expect((await window(idleFork, 1, 7)).transfers).toEqual([]);
    expect(ids((await window(root, 7, 7)).transfers)).toEqual(ids(pendingFork));
    expect(ids((await window(root, 1, 11)).forks)).toEqual(ids([{ id: forkId }, { id: idleFork }]));
  });
});

const PROVIDER_THREADS = `query($id: ID!, $first: Int, $after: ID, $from: Int, $to: Int) {
  thread(id: $id) { providerThreadCount
    providerThreads(first: $first, after: $after, fromOrdinal: $from, toOrdinal: $to) { id provider seq coverage { coveredThroughOrdinal } } }
}`;

describe('Thread.providerThreads: pages, and the window of some runs', () => {
  const seqs = async (id: string, args: Record<string, unknown>) =>
    ((await t.ok(PROVIDER_THREADS, { id, ...args })).thread.providerThreads as { seq: number }[]).map((pt) => pt.seq);

  it('pages in creation order; over a window, only those that served its runs or got a handoff for one', async () => {
    // Codex #1 serves 1-5 and 9-12 (a handoff for run 9), claude #2 serves 6-8 (a handoff for run 6);
    // codex again with a clean context makes #3 at run 13.
    const threadId = await switchingThread();
    await completeRun(t, (await startRun(t, threadId, 'codex', { cleanContext: true })).run.id);
    const all = (await t.ok(PROVIDER_THREADS, { id: threadId })).thread;
    expect(all.providerThreadCount).toBe(3);
    expect(all.providerThreads.map((pt: { provider: string; seq: number }) => [pt.seq, pt.provider])).toEqual([
      [1, 'codex'],
      [2, 'claude'],
      [3, 'codex'],
    ]);
    expect(await seqs(threadId, { first: 2 })).toEqual([1, 2]);
    expect(await seqs(threadId, { first: 2, after: all.providerThreads[1].id })).toEqual([3]);
    expect(await seqs(threadId, { first: 0 })).toEqual([1]);
    expect(await seqs(threadId, { from: 6, to: 8 })).toEqual([2]);
    expect(await seqs(threadId, { from: 9, to: 12 })).toEqual([1]);
    expect(await seqs(threadId, { from: 5, to: 6 })).toEqual([1, 2]);
    expect(await seqs(threadId, { from: 13, to: 13 })).toEqual([3]);
    expect(await seqs(threadId, { from: 5, to: 13, after: all.providerThreads[0].id })).toEqual([2, 3]);
    expect(await seqs(threadId, { from: 100, to: 200 })).toEqual([]);
  });

  it('refuses an after of another thread and a bad window as BAD_USER_INPUT', async () => {
    const [one, other] = [await switchingThread(), await switchingThread()];
    const foreign = (await t.ok(PROVIDER_THREADS, { id: other })).thread.providerThreads[0].id;
    await expectCode(t.gql(PROVIDER_THREADS, { id: one, after: foreign }), 'BAD_USER_INPUT');
    await expectCode(t.gql(PROVIDER_THREADS, { id: one, after: 'pt_missing' }), 'BAD_USER_INPUT');
    await expectCode(t.gql(PROVIDER_THREADS, { id: one, from: 5 }), 'BAD_USER_INPUT');
    await expectCode(t.gql(PROVIDER_THREADS, { id: one, from: 1, to: 1001 }), 'BAD_USER_INPUT');
  });
});

const COVERAGE = `query($id: ID!, $from: Int, $to: Int) {
  providerThread(id: $id) { handoffIds coverage(fromOrdinal: $from, toOrdinal: $to) {
    nativeRanges { from to } handoffRanges { from to } missingRanges { from to }
    nativeRunCount missingRunCount coveredThroughOrdinal handoffIds nativeRunOrdinals missingRunOrdinals } }
}`;

describe('ProviderThread.coverage over a window of ordinals', () => {
  it('cuts every range, count, ordinal list and handoff to the window, and agrees with the whole history there', async () => {
    // Codex #1 serves 1-5 and 9-12 (by a handoff for run 9 it knows 6-8), claude #2 serves 6-8 (by a
    // handoff for run 6 it knows 1-5); runs 11 and 12 are rolled back, and codex goes on at run 13.
    const threadId = await switchingThread();
    await t.ok(`mutation($input: RollbackThreadInput!) { rollbackThread(input: $input) { rolledBackRunCount } }`, {
      input: { threadId, toOrdinal: 10 },
    });
    const [codex, claude] = (await t.ok(PROVIDER_THREADS, { id: threadId })).thread.providerThreads;
    await t.ok(`mutation($id: ID!) { confirmProviderRollback(input: { providerThreadId: $id }) { status } }`, {
      id: codex.id,
    });
    await runTurns(t, threadId, 'codex', 1);
    const coverage = async (id: string, from?: number, to?: number) =>
      (await t.ok(COVERAGE, { id, from, to })).providerThread;

    const whole = await coverage(codex.id);
    expect(whole.coverage).toMatchObject({
      nativeRanges: [r(1, 5), r(9, 10), r(13, 13)],
      handoffRanges: [r(6, 8)],
      missingRanges: [],
      coveredThroughOrdinal: 13,
    });
    const late = (await coverage(codex.id, 7, 13)).coverage;
    expect(late).toEqual({
      nativeRanges: [r(9, 10), r(13, 13)],
      handoffRanges: [r(7, 8)],
      missingRanges: [],
      nativeRunCount: 3,
      missingRunCount: 0,
      coveredThroughOrdinal: 13,
      handoffIds: whole.coverage.handoffIds,
      nativeRunOrdinals: [9, 10, 13],
      missingRunOrdinals: [],
    });
    // Before the switch back, the codex thread knew nothing of claude's runs: the window says so alone.
    const early = (await coverage(codex.id, 3, 4)).coverage;
    expect(early).toMatchObject({ nativeRanges: [r(3, 4)], handoffIds: [], coveredThroughOrdinal: 4 });

    const claudeLate = (await coverage(claude.id, 9, 13)).coverage;
    expect(claudeLate).toMatchObject({
      nativeRanges: [],
      handoffRanges: [],
      missingRanges: [r(9, 10), r(13, 13)],
      missingRunCount: 3,
      handoffIds: [],
      coveredThroughOrdinal: 0,
    });
    // ProviderThread.handoffIds is the whole history's, whatever window its coverage is read for.
    expect((await coverage(claude.id, 9, 13)).handoffIds).toEqual((await coverage(claude.id)).coverage.handoffIds);
    expect((await coverage(claude.id)).handoffIds).toHaveLength(1);
  });

  it('refuses a window with one bound, below 1, reversed or wider than 1000 ordinals as BAD_USER_INPUT', async () => {
    const threadId = await switchingThread();
    const [codex] = (await t.ok(PROVIDER_THREADS, { id: threadId })).thread.providerThreads;
    for (const [from, to] of [
      [5, undefined],
      [undefined, 5],
      [0, 5],
      [6, 5],
      [1, 1000 + 1],
    ])
      await expectCode(t.gql(COVERAGE, { id: codex.id, from, to }), 'BAD_USER_INPUT');
  });
});

describe('the window statements', () => {
  // The range seek must be served in index order, so that the LIMIT stops the read: no Sort or Top
  // under a Limit (a sort above it orders the few rows kept), and no scan of a label.
  it.each<QueryName>([
    'runs/page-backward',
    'handoffs/window',
    'transfers/window',
    'provider-threads/page',
    'lineage/children-in-window',
  ])('cypher/%s.cypher seeks an index and stops at its LIMIT', async (name) => {
    const { summary } = await t.driver.executeQuery(
      `EXPLAIN ${cypher(name)}`,
      {},
      { database: inject('neo4j').database },
    );
    const limits: string[][] = [];
    const all: string[] = [];
    const walk = (plan: PlanNode, underLimit: string[] | null) => {
      all.push(plan.operatorType);
      underLimit?.push(plan.operatorType);
      let below = underLimit;
      if (/^Limit@/.test(plan.operatorType)) limits.push((below = []));
      for (const child of plan.children) walk(child, below);
    };
    walk(summary.plan as unknown as PlanNode, null);
    expect(all.filter((operator) => /NodeByLabelScan|AllNodesScan/.test(operator))).toEqual([]);
    expect(limits.length).toBeGreaterThan(0);
    for (const operators of limits) {
      expect(operators.filter((operator) => /^(Sort|Top|PartialSort|PartialTop)@/.test(operator))).toEqual([]);
      expect(operators.some((operator) => /IndexSeek|IndexSeekByRange/.test(operator))).toBe(true);
    }
  });
});

interface PlanNode {
  operatorType: string;
  children: PlanNode[];
}
