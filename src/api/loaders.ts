// Per-request batching: every field resolver that reads the graph goes through one of these, so a
// query over a thread with 50 runs costs a handful of round trips, not one per run.
import DataLoader from 'dataloader';
import type {
  CheckpointRecord,
  CoverageRecord,
  HandoffRecord,
  ListedRunRecord,
  ProviderThreadRecord,
  RunFactRecord,
  RunTextField,
  ThreadRecord,
  TransferRecord,
} from '../domain/records.js';
import { handoffsByIds, handoffsByThreads, transfersByThreads } from '../graph/repositories/handoffs.js';
import {
  coverageByKeys,
  coverageKeyText,
  providerThreadsByIds,
  type CoverageKey,
} from '../graph/repositories/providerThreads.js';
import {
  checkpointsByRuns,
  factChars,
  factCounts,
  factsByRuns,
  listedRunsByIds,
  runTextLengths,
  runTexts,
  type FactSlice,
} from '../graph/repositories/runs.js';
import { latestCheckpoints, threadsByIds } from '../graph/repositories/threads.js';
import type { Graph, Tx } from '../graph/transactions.js';
import type { AnswerBudget } from './answerBudget.js';

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

/** One long text of one run; maxChars null: the whole text. */
export interface RunTextKey {
  runId: string;
  field: RunTextField;
}

const textKey = (key: RunTextKey) => `${key.field} ${key.runId}`;

/**
 * A run's long texts are read only when asked for, cut in Neo4j to what was asked. Before a batch is
 * read, its characters (known from their lengths, which Neo4j counts without sending the texts) are
 * charged to the request's budget: a batch that would pass it is refused unread.
 */
function runTextLoaders(graph: Graph, budget: AnswerBudget) {
  const lengths = new DataLoader<RunTextKey, number | null, string>(
    async (keys) => {
      const requests = keys.map((key) => ({ key: textKey(key), runId: key.runId, field: key.field }));
      const found = await graph.read((tx) => runTextLengths(tx, requests));
      return requests.map((request) => found.get(request.key) ?? null);
    },
    { cacheKeyFn: textKey },
  );
  const texts = new DataLoader<RunTextKey & { maxChars: number | null }, string | null, string>(
    async (keys) => {
      let chars = 0;
      const read = await lengths.loadMany(keys);
      for (const [index, { maxChars }] of keys.entries()) {
        const length = read[index];
        if (length instanceof Error) throw length;
        chars += maxChars === null ? (length ?? 0) : Math.min(length ?? 0, maxChars);
      }
      budget.reading(chars);
      const requests = keys.map((key) => ({
        key: `${textKey(key)} ${key.maxChars}`,
        runId: key.runId,
        field: key.field,
        maxChars: key.maxChars,
      }));
      const found = await graph.read((tx) => runTexts(tx, requests));
      return requests.map((request) => found.get(request.key) ?? null);
    },
    { cacheKeyFn: (key) => `${textKey(key)} ${key.maxChars}` },
  );
  return { runTextLength: lengths, runText: texts };
}

/** A slice of one run's facts. */
export interface FactsKey extends FactSlice {
  runId: string;
}

const sliceKey = (slice: FactSlice) => `${slice.first} ${slice.offset} ${slice.maxChars}`;

/**
 * Facts by run and slice, one read per slice asked for. The characters a read would bring in are
 * counted by Neo4j first and charged to the request's budget: over it, the facts are not read.
 */
function factLoader(graph: Graph, budget: AnswerBudget) {
  return new DataLoader<FactsKey, (RunFactRecord & { textLength: number })[], string>(
    async (keys) => {
      const slices = new Map<string, { slice: FactSlice; runIds: Set<string> }>();
      for (const { runId, ...slice } of keys) {
        const group = slices.get(sliceKey(slice)) ?? { slice, runIds: new Set<string>() };
        group.runIds.add(runId);
        slices.set(sliceKey(slice), group);
      }
      const found = new Map<string, (RunFactRecord & { textLength: number })[]>();
      for (const [key, { slice, runIds }] of slices) {
        // Charged once, even when the driver retries the transaction.
        let charged = false;
        const facts = await graph.read(async (tx) => {
          const chars = await factChars(tx, [...runIds], slice);
          if (!charged) budget.reading(chars);
          charged = true;
          return factsByRuns(tx, [...runIds], slice);
        });
        for (const [runId, list] of facts) found.set(`${runId} ${key}`, list);
      }
      return keys.map(({ runId, ...slice }) => found.get(`${runId} ${sliceKey(slice)}`) ?? []);
    },
    { cacheKeyFn: ({ runId, ...slice }) => `${runId} ${sliceKey(slice)}` },
  );
}

export function createLoaders(graph: Graph, budget: AnswerBudget) {
  return {
    thread: byId<ThreadRecord>(graph, threadsByIds),
    run: byId<ListedRunRecord>(graph, listedRunsByIds),
    ...runTextLoaders(graph, budget),
    providerThread: byId<ProviderThreadRecord>(graph, providerThreadsByIds),
    handoff: byId<HandoffRecord>(graph, handoffsByIds),
    // Keyed by provider thread and window: a viewer's query asks every lane for the same window.
    coverage: new DataLoader<CoverageKey, CoverageRecord | null, string>(
      async (keys) => {
        const found = await graph.read((tx) => coverageByKeys(tx, keys));
        return keys.map((key) => found.get(coverageKeyText(key)) ?? null);
      },
      { cacheKeyFn: coverageKeyText },
    ),
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
    factsOfRun: factLoader(graph, budget),
    factCountOfRun: grouped<number>(graph, factCounts, 0),
    checkpointOfRun: grouped<CheckpointRecord | null>(graph, checkpointsByRuns, null),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
