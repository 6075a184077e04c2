// The bench's seed writes what the service writes: one thread played through the public API step by
// step (its runs, switches and rollbacks, every native rollback confirmed), one seeded from the same
// usage, and the two compared shape by shape. The audit after this file checks the seeded one too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedThread, usageSteps } from '../../bench/seed.js';
import type { ProviderDefinition } from '../../src/domain/providers.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';
import { completeRun, startRun } from '../support/lineage.js';

// The first size whose use rolls back a switch, superseding its handoff.
const SIZE = 600;
const ROLLBACK = `mutation($input: RollbackThreadInput!) { rollbackThread(input: $input) {
  providerThreads { providerThread { id } action } } }`;
const CONFIRM = `mutation($input: ProviderRollbackInput!) { confirmProviderRollback(input: $input) { id } }`;

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

/** The thread as the seed would use it, through the API. */
async function playThroughApi(threadId: string, providers: [string, string]): Promise<void> {
  await t.ok(`mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`, {
    input: { id: threadId, title: `Bench ${SIZE}` },
  });
  const live: number[] = [];
  for (const step of usageSteps(SIZE, providers)) {
    if ('provider' in step) {
      const started = await startRun(t, threadId, step.provider);
      await completeRun(t, started.run.id);
      live.push(started.run.ordinal);
      continue;
    }
    live.splice(live.length - step.rollbackDepth);
    const rolledBack = await t.ok(ROLLBACK, { input: { threadId, toOrdinal: live[live.length - 1] } });
    for (const entry of rolledBack.rollbackThread.providerThreads)
      if (entry.action === 'ROLLED_BACK') await t.ok(CONFIRM, { input: { providerThreadId: entry.providerThread.id } });
  }
}

const SHAPE = `
MATCH (thread:Thread {tenant: 'local', id: $threadId})
CALL (thread) {
  MATCH (thread)-[:HAS_RUN]->(run:Run)-[:USES]->(pt:ProviderThread)
  WITH run, pt ORDER BY run.ordinal
  RETURN collect([run.ordinal, run.status, run.provider, run.planDecision, run.planAction, run.planStrategy,
                  run.planCoveredFrom, run.planCoveredTo, run.planSignals, pt.seq]) AS runs
}
CALL (thread) {
  MATCH (thread)-[:HAS_PROVIDER_THREAD]->(pt:ProviderThread)
  WITH pt ORDER BY pt.seq
  RETURN collect([pt.seq, pt.provider, pt.status, pt.servedFrom, pt.servedTo, pt.firstRunOrdinal, pt.lastRunOrdinal,
                  pt.standingHandoffCount, pt.handoffCoveredThrough]) AS providerThreads
}
CALL (thread) {
  MATCH (handoff:ContextHandoff {tenant: 'local', threadId: thread.id})-[:DELIVERED_TO]->(to:ProviderThread)
  MATCH (transfer:ContextTransfer)-[:MATERIALIZED_AS]->(handoff)
  CALL (handoff) { OPTIONAL MATCH (handoff)-[:DRAWN_FROM]->(from) WITH from ORDER BY from.seq RETURN collect(from.seq) AS from }
  CALL (handoff) { OPTIONAL MATCH (handoff)-[:COVERS]->(run) WITH run ORDER BY run.ordinal RETURN collect(run.ordinal) AS covers }
  CALL (transfer) {
    OPTIONAL MATCH (transfer)-[r]->(end) WHERE type(r) IN ['FROM_RUN', 'BASE_RUN', 'TO_THREAD', 'FROM_THREAD']
    WITH r, end ORDER BY type(r) RETURN collect([type(r), coalesce(end.ordinal, 0)]) AS ends
  }
  WITH handoff, to, from, covers, transfer, ends ORDER BY handoff.targetRunOrdinal
  RETURN collect([handoff.targetRunOrdinal, handoff.strategy, handoff.coveredFrom, handoff.coveredTo, handoff.status,
                  handoff.endedBecause, handoff.transferKind, to.seq, from, covers, transfer.kind, transfer.resolution,
                  transfer.sourceRunOrdinal, transfer.baseRunOrdinal, ends]) AS handoffs
}
RETURN [thread.headOrdinal, thread.lastOrdinal, thread.rolledBackFrom, thread.rolledBackTo, thread.providerThreadCount, thread.providers] AS thread,
       runs, providerThreads, handoffs`;

async function shape(threadId: string) {
  const { records } = await t.driver.executeQuery(SHAPE, { threadId }, { database: 'neo4j' });
  // Integers come back as driver integers: compare them as numbers.
  return JSON.parse(
    JSON.stringify(records[0]!.toObject(), (_key, value: unknown) =>
      value && typeof value === 'object' && 'low' in value && 'high' in value ? Number(value) : value,
    ),
  ) as { thread: unknown[]; runs: unknown[]; providerThreads: unknown[]; handoffs: unknown[][] };
}

describe('the bench seed', () => {
  it('writes the runs, provider threads, handoffs and rollbacks the API writes for the same use', async () => {
    const providers = t.config.providers as [ProviderDefinition, ProviderDefinition];
    const ids = providers.map((p) => p.id) as [string, string];
    const steps = usageSteps(SIZE, ids);
    expect(steps.filter((step) => 'rollbackDepth' in step).length).toBeGreaterThan(0);

    const api = uniqueId('seed-api');
    await playThroughApi(api, ids);
    const seeded = uniqueId('seed-bulk');
    const result = await seedThread(t.driver, 'neo4j', {
      threadId: seeded,
      size: SIZE,
      providers,
      planner: t.config.planner,
    });

    const [viaApi, viaSeed] = [await shape(api), await shape(seeded)];
    expect(viaSeed.thread).toEqual(viaApi.thread);
    expect(viaSeed.providerThreads).toEqual(viaApi.providerThreads);
    expect(viaSeed.runs).toEqual(viaApi.runs);
    expect(viaSeed.handoffs).toEqual(viaApi.handoffs);
    expect(viaSeed.handoffs).toHaveLength(result.handoffs);
    expect(viaSeed.handoffs.some((handoff) => handoff[4] === 'superseded')).toBe(true);
  }, 300_000);
});
