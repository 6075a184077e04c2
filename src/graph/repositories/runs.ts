import type {
  CheckpointRecord,
  FileChangeRecord,
  ListedRunRecord,
  NewRunFact,
  ProviderThreadRecord,
  RunFactRecord,
  RunPlanRecord,
  RunRecord,
  RunStatus,
  RunTextField,
} from '../../domain/records.js';
import { leavingRun, servingRun } from '../../domain/coverage.js';
import type { Tx } from '../transactions.js';
import { planProperties, servedProperties, toCheckpoint, toListedRun, toProviderThread, toRun } from './mapping.js';
import { toLockedThread, type LockedThread } from './threads.js';

type Props = Record<string, unknown>;

/** A run as startRun creates it: what the request and the plan say, and the key a retry is matched by. */
export type NewRun = Pick<
  RunRecord,
  'id' | 'threadId' | 'ordinal' | 'provider' | 'model' | 'runtimeMode' | 'userMessage' | 'plan'
> & {
  idempotencyKey: string | null;
  idempotencyFingerprint: string | null;
};

/** Creates the run, served by `providerThread` (as read under the thread lock); returns both as updated. */
export async function createRun(
  tx: Tx,
  run: NewRun,
  providerThread: ProviderThreadRecord,
): Promise<{ run: RunRecord; providerThread: ProviderThreadRecord }> {
  const { plan, ...fields } = run;
  const row = await tx.single<{ run: Props; providerThread: Props }>(
    'runs/create',
    {
      run: { ...fields, ...planProperties(plan), dispatchEpoch: 1 },
      providerThreadId: providerThread.id,
      served: servedProperties(servingRun(providerThread.served, run.ordinal)),
    },
    'the created run',
  );
  return { run: toRun(row.run), providerThread: toProviderThread(row.providerThread) };
}

export async function runsByIds(tx: Tx, ids: readonly string[]): Promise<RunRecord[]> {
  const rows = await tx.rows<{ run: Props }>('runs/by-ids', { ids });
  return rows.map((row) => toRun(row.run));
}

/** Runs by id for the API, without their long texts. */
export async function listedRunsByIds(tx: Tx, ids: readonly string[]): Promise<ListedRunRecord[]> {
  const rows = await tx.rows<{ run: Props }>('runs/listed-by-ids', { ids });
  return rows.map((row) => toListedRun(row.run));
}

/** The first `limit` runs of the thread above `afterOrdinal` (and at most `toOrdinal`), oldest first, without their long texts. */
export async function runPage(
  tx: Tx,
  threadId: string,
  afterOrdinal: number,
  limit: number,
  toOrdinal = Number.MAX_SAFE_INTEGER,
): Promise<ListedRunRecord[]> {
  const rows = await tx.rows<{ run: Props }>('runs/page', { threadId, afterOrdinal, toOrdinal, limit });
  return rows.map((row) => toListedRun(row.run));
}

/** The newest `limit` runs below `beforeOrdinal`, newest first, without their long texts. */
export async function runPageBackward(
  tx: Tx,
  threadId: string,
  beforeOrdinal: number,
  limit: number,
): Promise<ListedRunRecord[]> {
  const rows = await tx.rows<{ run: Props }>('runs/page-backward', { threadId, beforeOrdinal, limit });
  return rows.map((row) => toListedRun(row.run));
}

/** One long text of one run, addressed by the caller's key. */
export interface RunTextRequest {
  key: string;
  runId: string;
  field: RunTextField;
}

/** The lengths of long texts, in characters (code points), without reading them out; absent keys: no such run. */
export async function runTextLengths(tx: Tx, requests: readonly RunTextRequest[]): Promise<Map<string, number | null>> {
  const rows = await tx.rows<{ key: string; length: number | null }>('runs/text-lengths', { requests });
  return new Map(rows.map((row) => [row.key, row.length]));
}

/** Long texts, each cut to its first `maxChars` characters (code points) by Neo4j; null: the whole text. */
export async function runTexts(
  tx: Tx,
  requests: readonly (RunTextRequest & { maxChars: number | null })[],
): Promise<Map<string, string | null>> {
  const rows = await tx.rows<{ key: string; text: string | null }>('runs/texts', { requests });
  return new Map(rows.map((row) => [row.key, row.text]));
}

export async function runByIdempotencyKey(
  tx: Tx,
  threadId: string,
  key: string,
): Promise<(RunRecord & { idempotencyFingerprint: string }) | null> {
  const row = await tx.one<{ run: Props }>('runs/by-idempotency-key', { threadId, key });
  return row ? { ...toRun(row.run), idempotencyFingerprint: String(row.run.idempotencyFingerprint) } : null;
}

/** The run, its thread and the provider thread serving it, with the thread's write lock held for the rest of the transaction. */
export async function lockRunForUpdate(tx: Tx, runId: string): Promise<LockedRun | null> {
  const row = await tx.one<{ run: Props; thread: Props; providerThread: Props | null }>('runs/lock-for-update', {
    runId,
  });
  if (!row) return null;
  return {
    run: toRun(row.run),
    thread: toLockedThread(row.thread),
    providerThread: row.providerThread && toProviderThread(row.providerThread),
  };
}

export interface RunOutcome {
  status: Extract<RunStatus, 'completed' | 'failed' | 'interrupted'>;
  assistantMessage: string | null;
  error: string | null;
  facts: NewRunFact[];
  checkpoint: { id: string; ref: string; diffSummary: string | null; files: FileChangeRecord[] } | null;
}

/** A run, its thread and the provider thread serving it, as read under the thread's write lock. */
export interface LockedRun {
  run: RunRecord;
  thread: LockedThread;
  providerThread: ProviderThreadRecord | null;
}

/**
 * Takes the thread's lock and ends run `runId` with `outcome` when it is running: the run as it was
 * when locked (null: no such run), and as ended (null: it was not running, nothing was written).
 */
export async function finishRun(
  tx: Tx,
  runId: string,
  outcome: RunOutcome,
): Promise<{ locked: LockedRun; finished: RunRecord | null } | null> {
  const checkpoint = outcome.checkpoint && {
    id: outcome.checkpoint.id,
    ref: outcome.checkpoint.ref,
    diffSummary: outcome.checkpoint.diffSummary,
    filesJson: JSON.stringify(outcome.checkpoint.files),
    fileCount: outcome.checkpoint.files.length,
  };
  const row = await tx.one<{ run: Props; thread: Props; providerThread: Props; finished: Props | null }>(
    'runs/finish',
    {
      runId,
      status: outcome.status,
      assistantMessage: outcome.assistantMessage,
      error: outcome.error,
      facts: outcome.facts,
      checkpoint,
    },
  );
  if (!row) return null;
  return {
    locked: {
      run: toRun(row.run),
      thread: toLockedThread(row.thread),
      providerThread: toProviderThread(row.providerThread),
    },
    finished: row.finished && toRun(row.finished),
  };
}

/** Resume failure: the running run leaves `from` for `to` (both as read under the thread lock). */
export async function moveRunToProviderThread(
  tx: Tx,
  run: RunRecord,
  from: ProviderThreadRecord,
  to: ProviderThreadRecord,
  error: string,
): Promise<RunRecord> {
  const row = await tx.single<{ run: Props }>(
    'runs/move-to-provider-thread',
    {
      runId: run.id,
      fromId: from.id,
      toId: to.id,
      error,
      fromServed: servedProperties(leavingRun(from.served, run.ordinal)),
      toServed: servedProperties(servingRun(to.served, run.ordinal)),
    },
    'the moved run',
  );
  return toRun(row.run);
}

export async function setRunPlan(tx: Tx, runId: string, plan: RunPlanRecord): Promise<RunRecord> {
  const row = await tx.single<{ run: Props }>(
    'runs/set-plan',
    { runId, plan: planProperties(plan) },
    'the replanned run',
  );
  return toRun(row.run);
}

/** Which facts of a run to read: `first` from `offset`, texts cut to `maxChars` characters (null: whole). */
export interface FactSlice {
  first: number;
  offset: number;
  maxChars: number | null;
}

/** The facts of each run in that slice, in the order they were sent, with each text's whole length. */
export async function factsByRuns(
  tx: Tx,
  runIds: readonly string[],
  slice: FactSlice,
): Promise<Map<string, (RunFactRecord & { textLength: number })[]>> {
  const rows = await tx.rows<{ runId: string; facts: (RunFactRecord & { textLength: number })[] }>(
    'runs/facts-by-runs',
    { runIds, ...slice },
  );
  return new Map(rows.map((row) => [row.runId, row.facts]));
}

/** The characters factsByRuns would read for the same slice (texts cut, keys, statuses), counted by Neo4j. */
export async function factChars(tx: Tx, runIds: readonly string[], slice: FactSlice): Promise<number> {
  return (await tx.one<{ chars: number | null }>('runs/fact-sizes', { runIds, ...slice }))?.chars ?? 0;
}

/** Appends a fact to the run after its facts; null when it already holds `maxFacts`. */
export async function appendFact(
  tx: Tx,
  runId: string,
  fact: NewRunFact,
  maxFacts: number,
): Promise<(RunFactRecord & { textLength: number }) | null> {
  return (
    (await tx.one<{ fact: RunFactRecord & { textLength: number } }>('runs/record-fact', { runId, fact, maxFacts }))
      ?.fact ?? null
  );
}

export async function factCounts(tx: Tx, runIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await tx.rows<{ runId: string; facts: number }>('runs/fact-counts', { runIds });
  return new Map(rows.map((row) => [row.runId, row.facts]));
}

export async function checkpointsByRuns(tx: Tx, runIds: readonly string[]): Promise<Map<string, CheckpointRecord>> {
  const rows = await tx.rows<{ runId: string; checkpoint: Props }>('runs/checkpoints-by-runs', { runIds });
  return new Map(rows.map((row) => [row.runId, toCheckpoint(row.checkpoint)]));
}

export async function appendPlanReason(tx: Tx, runId: string, reason: string): Promise<void> {
  await tx.rows('runs/append-reason', { runId, reason });
}
