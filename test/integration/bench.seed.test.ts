// The bench's seed writes what the service writes: one thread played through the public API step by
// step (its runs, switches and rollbacks, every native rollback confirmed, its forks with their runs
// and merge-backs, its subagents imported with their runs), one seeded from the same usage, and the
// two compared shape by shape. The seed writes under the bench's tenant, 'local', so the service here
// does too, and the audit after this file checks both there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedThread, TENANT, usageSteps } from '../../bench/seed.js';
import type { ProviderDefinition } from '../../src/domain/providers.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';
import { completeRun, startRun } from '../support/lineage.js';

// The first size whose use rolls back a switch, superseding its handoff; it forks, merges back and
// spawns subagents too.
const SIZE = 600;
const ROLLBACK = `mutation($input: RollbackThreadInput!) { rollbackThread(input: $input) {
  providerThreads { providerThread { id } action } } }`;
const CONFIRM = `mutation($input: ProviderRollbackInput!) { confirmProviderRollback(input: $input) { id } }`;
const FORK = `mutation($input: ForkThreadInput!) { forkThread(input: $input) { id } }`;
const MERGE_BACK = `mutation($input: MergeBackInput!) { mergeBack(input: $input) { id } }`;
const IMPORT_SUBAGENT = `mutation($input: ImportSubagentThreadInput!) { importSubagentThread(input: $input) { id } }`;

let t: TestService;
beforeAll(async () => {
  t = await startTestService({}, { tenant: TENANT });
});
afterAll(async () => {
  await t?.close();
});

/** The thread as the seed would use it, through the API; returns the ids of its forks and subagents. */
async function playThroughApi(threadId: string, providers: [string, string]): Promise<string[]> {
  await t.ok(`mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }`, {
    input: { id: threadId, title: `Bench ${SIZE}` },
  });
  const live: number[] = [];
  const liveProviders: string[] = [];
  const children: string[] = [];
  const runs = async (thread: string, provider: string, count: number) => {
    for (let i = 0; i < count; i++) await completeRun(t, (await startRun(t, thread, provider)).run.id);
  };
  for (const step of usageSteps(SIZE, providers)) {
    if ('provider' in step) {
      const started = await startRun(t, threadId, step.provider);
      await completeRun(t, started.run.id);
      live.push(started.run.ordinal);
      liveProviders.push(step.provider);
      continue;
    }
    const source = live[live.length - 1]!;
    if ('forkRuns' in step) {
      const id = `${threadId}-fork-${children.length + 1}`;
      children.push(id);
      await t.ok(FORK, { input: { sourceThreadId: threadId, id, title: `Fork of run ${source}` } });
      await runs(id, providers[0], step.forkRuns);
      if (step.mergeBack) await t.ok(MERGE_BACK, { input: { forkThreadId: id } });
      continue;
    }
    if ('subagentRuns' in step) {
      const id = `${threadId}-subagent-${children.length + 1}`;
      children.push(id);
      await t.ok(IMPORT_SUBAGENT, {
        input: {
          parentThreadId: threadId,
          parentRunOrdinal: source,
          id,
          title: `Subagent of run ${source}`,
          task: `Run the parser tests for run ${source} and report what fails`,
        },
      });
      await runs(id, liveProviders[liveProviders.length - 1]!, step.subagentRuns);
      continue;
    }
    live.splice(live.length - step.rollbackDepth);
    liveProviders.splice(liveProviders.length - step.rollbackDepth);
    const rolledBack = await t.ok(ROLLBACK, { input: { threadId, toOrdinal: live[live.length - 1] } });
    for (const entry of rolledBack.rollbackThread.providerThreads)
      if (entry.action === 'ROLLED_BACK') await t.ok(CONFIRM, { input: { providerThreadId: entry.providerThread.id } });
  }
  return children;
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
                  handoff.endedBecause, handoff.transferKind, handoff.source, handoff.delivery, handoff.budgetChars, to.seq,
                  from, covers, transfer.kind, transfer.status, transfer.resolution, transfer.targetProvider,
                  transfer.sourceProvider, transfer.sourceRunOrdinal, transfer.baseRunOrdinal, ends]) AS handoffs
}
RETURN [thread.headOrdinal, thread.lastOrdinal, thread.rolledBackFrom, thread.rolledBackTo, thread.providerThreadCount, thread.providers,
        thread.title, thread.relationshipToParent, thread.forkOrdinal, thread.segmentTo, size(thread.segmentThreadIds),
        thread.segmentThreadIds = [thread.parentThreadId], size(thread.segmentAsOf), thread.sourceRunOrdinal,
        thread.rootThreadId = thread.parentThreadId] AS thread,
       runs, providerThreads, handoffs`;

/** A thread's children and the transfers between them: how each was made, from which run, and what was merged back. */
const LINEAGE = `
MATCH (thread:Thread {tenant: 'local', id: $threadId})
CALL (thread) {
  MATCH (child:Thread {tenant: 'local', parentThreadId: thread.id})
  MATCH (child)-[edge]->(source:Run) WHERE type(edge) IN ['FORKED_FROM', 'SPAWNED_BY']
  WITH child, edge, source ORDER BY source.ordinal, child.relationshipToParent
  RETURN collect([child.relationshipToParent, type(edge), source.ordinal, labels(child)]) AS children
}
CALL (thread) {
  MATCH (transfer:ContextTransfer {tenant: 'local'})-[:TO_THREAD|FROM_THREAD]->(thread)
  WHERE transfer.kind IN ['fork', 'subagent_spawn', 'merge_back']
  WITH DISTINCT transfer
  CALL (transfer) {
    MATCH (transfer)-[r]->(end)
    WITH r, end ORDER BY type(r), coalesce(end.ordinal, 0)
    RETURN collect([type(r), labels(end), coalesce(end.ordinal, 0)]) AS ends
  }
  WITH transfer, ends ORDER BY transfer.kind, transfer.sourceRunOrdinal, transfer.baseRunOrdinal
  RETURN collect([transfer.kind, transfer.status, transfer.resolution, transfer.createdBy, transfer.targetProvider,
                  transfer.sourceProvider, transfer.sourceRunOrdinal, transfer.baseRunOrdinal, transfer.contextText,
                  transfer.consumedAt IS NULL, transfer.handoffId IS NULL, ends]) AS transfers
}
RETURN children, transfers`;

/** The node labels and relationship types of a thread's lineage (facts and checkpoints aside: API runs record none). */
const CENSUS = `
UNWIND $threadIds AS id
CALL (id) {
  MATCH (n:Thread {tenant: 'local', id: id}) RETURN n
  UNION MATCH (n:Run {tenant: 'local', threadId: id}) RETURN n
  UNION MATCH (n:ProviderThread {tenant: 'local', threadId: id}) RETURN n
  UNION MATCH (n:ContextHandoff {tenant: 'local', threadId: id}) RETURN n
  UNION MATCH (n:ContextTransfer {tenant: 'local', sourceThreadId: id}) RETURN n
  UNION MATCH (n:ContextTransfer {tenant: 'local', targetThreadId: id}) RETURN n
}
WITH DISTINCT n
CALL (n) {
  OPTIONAL MATCH (n)-[r]->(m) WHERE NOT type(r) IN ['RECORDED', 'CAPTURED']
  RETURN collect(labels(n)[0] + ' -' + type(r) + '-> ' + labels(m)[0]) AS edges
}
UNWIND [labels(n)[0]] + edges AS entry
WITH entry, count(*) AS n ORDER BY entry
RETURN collect([entry, n]) AS census`;

async function read(query: string, params: Record<string, unknown>) {
  const { records } = await t.driver.executeQuery(query, params, { database: 'neo4j' });
  // Integers come back as driver integers: compare them as numbers.
  return JSON.parse(
    JSON.stringify(records[0]!.toObject(), (_key, value: unknown) =>
      value && typeof value === 'object' && 'low' in value && 'high' in value ? Number(value) : value,
    ),
  ) as Record<string, unknown[][]>;
}

const shape = (threadId: string) => read(SHAPE, { threadId });

describe('the bench seed', () => {
  it('writes the runs, provider threads, handoffs, rollbacks, forks, merge-backs and subagents the API writes for the same use', async () => {
    const providers = t.config.providers as [ProviderDefinition, ProviderDefinition];
    const ids = providers.map((p) => p.id) as [string, string];
    const steps = usageSteps(SIZE, ids);
    expect(steps.filter((step) => 'rollbackDepth' in step).length).toBeGreaterThan(0);

    const api = uniqueId('seed-api');
    const apiChildren = await playThroughApi(api, ids);
    const seeded = uniqueId('seed-bulk');
    const result = await seedThread(t.driver, 'neo4j', {
      threadId: seeded,
      size: SIZE,
      providers,
      planner: t.config.planner,
    });
    expect(Math.min(result.forks, result.mergeBacks, result.subagents)).toBeGreaterThan(0);
    expect(apiChildren).toHaveLength(result.forks + result.subagents);
    const seededChildren = apiChildren.map((id) => seeded + id.slice(api.length));

    const [viaApi, viaSeed] = [await shape(api), await shape(seeded)];
    expect(viaSeed.thread).toEqual(viaApi.thread);
    expect(viaSeed.providerThreads).toEqual(viaApi.providerThreads);
    expect(viaSeed.runs).toEqual(viaApi.runs);
    expect(viaSeed.handoffs).toEqual(viaApi.handoffs);
    expect(viaSeed.handoffs).toHaveLength(result.handoffs + result.mergeBacks);
    expect(viaSeed.handoffs!.some((handoff) => handoff[4] === 'superseded')).toBe(true);
    expect(viaSeed.handoffs!.some((handoff) => handoff[1] === 'fork_delta_summary')).toBe(true);
    for (const [index, child] of apiChildren.entries())
      expect(await shape(seededChildren[index]!), child).toEqual(await shape(child));
    expect(await read(LINEAGE, { threadId: seeded })).toEqual(await read(LINEAGE, { threadId: api }));
    const census = async (threadId: string, children: string[]) =>
      (await read(CENSUS, { threadIds: [threadId, ...children] })).census;
    const [apiCensus, seededCensus] = [await census(api, apiChildren), await census(seeded, seededChildren)];
    expect(seededCensus).toEqual(apiCensus);
    expect(Object.fromEntries(seededCensus!)).toMatchObject({
      'Thread -FORKED_FROM-> Run': result.forks,
      'Thread -SPAWNED_BY-> Run': result.subagents,
    });
  }, 600_000);
});
