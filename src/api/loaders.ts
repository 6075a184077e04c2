// Per-request batching: every field resolver that reads the graph goes through one of these, so a
// query over a thread with 50 runs costs a handful of round trips, not one per run.
import DataLoader from 'dataloader';
import type {
  CheckpointRecord,
  CoverageRecord,
  HandoffRecord,
  ProviderThreadRecord,
  RunFactRecord,
  RunRecord,
  ThreadRecord,
  TransferRecord,
} from '../domain/records.js';
import { handoffsByIds, handoffsByThreads, transfersByThreads } from '../graph/repositories/handoffs.js';
import { coverageByIds, providerThreadsByIds, providerThreadsByThreads } from '../graph/repositories/providerThreads.js';
import { checkpointsByRuns, factsByRuns, runsByIds } from '../graph/repositories/runs.js';
import { latestCheckpoints, threadsByIds } from '../graph/repositories/threads.js';
import type { Graph, Tx } from '../graph/transactions.js';

function byId<T extends { id: string }>(graph: Graph, fetch: (tx: Tx, ids: readonly string[]) => Promise<T[]>) {
  return new DataLoader<string, T | null>(async (ids) => {
    const found = new Map((await graph.read((tx) => fetch(tx, ids))).map((item) => [item.id, item]));
    return ids.map((id) => found.get(id) ?? null);
  });
}

function grouped<T>(graph: Graph, fetch: (tx: Tx, ids: readonly string[]) => Promise<Map<string, T>>, empty: T) {
  return new DataLoader<string, T>(async (ids) => {
    const found = await graph.read((tx) => fetch(tx, ids));
    return ids.map((id) => found.get(id) ?? empty);
  });
}

export function createLoaders(graph: Graph) {
  return {
    thread: byId<ThreadRecord>(graph, threadsByIds),
    run: byId<RunRecord>(graph, runsByIds),
    providerThread: byId<ProviderThreadRecord>(graph, providerThreadsByIds),
    handoff: byId<HandoffRecord>(graph, handoffsByIds),
    coverage: byId<CoverageRecord & { id: string }>(graph, async (tx, ids) =>
      (await coverageByIds(tx, ids)).map((coverage) => ({ ...coverage, id: coverage.providerThreadId })),
    ),
    providerThreadsOfThread: grouped<ProviderThreadRecord[]>(graph, providerThreadsByThreads, []),
    handoffsOfThread: grouped<HandoffRecord[]>(graph, handoffsByThreads, []),
    transfersOfThread: grouped<TransferRecord[]>(graph, transfersByThreads, []),
    // Keyed by the thread record, which the resolver already holds: its history segments say where to look.
    latestCheckpointOfThread: new DataLoader<ThreadRecord, CheckpointRecord | null, string>(
      async (threads) => {
        const found = await graph.read((tx) => latestCheckpoints(tx, threads));
        return threads.map((thread) => found.get(thread.id) ?? null);
      },
      { cacheKeyFn: (thread) => thread.id },
    ),
    factsOfRun: grouped<RunFactRecord[]>(graph, factsByRuns, []),
    checkpointOfRun: grouped<CheckpointRecord | null>(graph, checkpointsByRuns, null),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
