// One round trip per plan: planRun reads everything it decides from (the neighbourhood, the delta's
// runs with their facts and checkpoints, the pending transfers) in the one planner/snapshot
// statement, and the delta it measures from those runs is the very source a summary read gives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measurableDeltaRange, rolledBackEndsRead } from '../../src/domain/planner.js';
import { loadPlanningSnapshot } from '../../src/graph/repositories/planning.js';
import { Graph } from '../../src/graph/transactions.js';
import { readSummaryMaterial, summaryMaterialWithin } from '../../src/operations/summaries.js';
import { completeRun, createThread, PLAN_RUN, startRun } from '../support/lineage.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlpReceiver.js';
import { startTestService, type TestService } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

let receiver: OtlpReceiver;
let t: TestService;
/** The same service traced: its planRun calls only, each a span with its statements as children. */
let traced: TestService | undefined;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  t = await startTestService();
  traced = await startTestService({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.endpoint });
});
afterAll(async () => {
  await t?.close();
  await traced?.close();
  receiver?.close();
});

const ROLLBACK = `mutation($input: RollbackThreadInput!) { rollbackThread(input: $input) { rolledBackRunCount } }`;
const FORK = `mutation($input: ForkThreadInput!) { forkThread(input: $input) { id } }`;

/** A turn with facts, and every other one a checkpoint: what a delta summary renders. */
async function turn(threadId: string, provider: string, n: number): Promise<void> {
  const started = await startRun(t, threadId, provider);
  await completeRun(t, started.run.id, {
    assistantMessage: `answer ${n}`,
    facts: [
      { kind: 'DECISION', text: `decision ${n}` },
      { kind: 'TEST', text: `npm test ${n}`, key: 'npm test', status: n % 2 ? 'passed' : 'failed' },
      { kind: 'FILE_CHANGE', text: `src/${n}.ts`, file: { path: `src/${n}.ts`, change: 'MODIFIED', additions: n } },
    ],
    ...(n % 2 ? { checkpoint: { ref: `ref-${n}`, diffSummary: `diff ${n}` } } : {}),
  });
}

/** A thread whose codex provider thread is owed a delta of claude runs 4..7, run 6 rolled back before run 7. */
async function owedADelta(): Promise<string> {
  const threadId = await createThread(t);
  for (let n = 1; n <= 3; n++) await turn(threadId, 'codex', n);
  for (let n = 4; n <= 6; n++) await turn(threadId, 'claude', n);
  await t.ok(ROLLBACK, { input: { threadId, toOrdinal: 5 } });
  await turn(threadId, 'claude', 7);
  return threadId;
}

const graph = () => new Graph(t.driver, 'neo4j', '').forTenant(fileTenant());

describe('planRun', () => {
  it('reads in one statement, with a delta to measure and with a pending fork', async () => {
    const threadId = await owedADelta();
    const fork = (await t.ok(FORK, { input: { sourceThreadId: threadId } })).forkThread.id as string;
    const delta = await traced!.ok(PLAN_RUN, { input: { threadId, provider: 'codex' } });
    expect(delta.planRun).toMatchObject({ decision: 'DELTA_HANDOFF', coveredRunOrdinals: { from: 4, to: 7 } });
    await traced!.ok(PLAN_RUN, { input: { threadId, provider: 'claude' } });
    const forked = await traced!.ok(PLAN_RUN, { input: { threadId: fork, provider: 'claude' } });
    expect(forked.planRun.decision).toBe('FULL_HANDOFF_NEW');
    // Stopping the service exports what its batch still holds.
    await traced!.close();
    traced = undefined;
    const plans = receiver.spans().filter((span) => span.name === 'query planRun');
    expect(plans).toHaveLength(3);
    for (const plan of plans)
      expect(
        receiver
          .spans()
          .filter((span) => span.parentSpanId === plan.spanId)
          .map((span) => span.name),
      ).toEqual(['cypher planner/snapshot']);
  });

  it('measures the delta from the very source a summary read gives', async () => {
    const threadId = await owedADelta();
    await graph().read(async (tx) => {
      const { maxRunsElsewhere } = t.config.planner;
      const ends = rolledBackEndsRead(t.config.planner);
      const loaded = (await loadPlanningSnapshot(tx, threadId, 'codex', maxRunsElsewhere + 1, ends))!;
      const range = measurableDeltaRange(loaded.snapshot, t.config.planner)!;
      expect(range).toEqual({ from: 4, to: 7 });
      const request = {
        threadId,
        title: loaded.thread.title,
        range,
        strategy: 'delta_since_target_last_seen' as const,
        targetProvider: 'codex',
        budgetChars: null,
      };
      const read = await readSummaryMaterial(tx, loaded.thread, request);
      expect(read.runs.map((run) => run.ordinal)).toEqual([7, 5, 4]);
      expect(read.facts).toHaveLength(9);
      expect(read.latestCheckpoint?.ref).toBe('ref-7');
      expect(summaryMaterialWithin(loaded.window, loaded.thread, request)).toEqual(read);
    });
  });
});
