import { z } from 'zod';
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
import {
  checkpointNode,
  dispatchCheckProviderThread,
  dispatchCheckRun,
  factShape,
  idempotentRunNode,
  listedRunProperties,
  listedRunRecord,
  lockedThreadNode,
  planProperties,
  providerThreadNode,
  runNode,
  servedProperties,
} from './mapping.js';
import type { LockedThread } from './threads.js';
import { feedChange } from './changes.js';

const runRow = z.object({ run: runNode });
const listedRunRow = z.object({ run: listedRunProperties });
/** A fact as read back, with its whole text's length (its text may be cut). */
const factWithLength = z.object({ ...factShape, textLength: z.number() });

/** A run as startRun creates it: what the request and the plan say, and the key a retry is matched by. */
export type NewRun = Pick<
  RunRecord,
  'id' | 'threadId' | 'ordinal' | 'provider' | 'model' | 'runtimeMode' | 'userMessage' | 'plan'
> & {
  idempotencyKey: string | null;
  idempotencyFingerprint: string | null;
};

const createdRunRow = z.object({ run: runNode, providerThread: providerThreadNode });

/**
 * Creates the run, served by `providerThread` (as read under the thread lock), and records run_started
 * in the thread's change feed; returns both as updated.
 */
export async function createRun(
  tx: Tx,
  run: NewRun,
  providerThread: ProviderThreadRecord,
): Promise<{ run: RunRecord; providerThread: ProviderThreadRecord }> {
  const { plan, ...fields } = run;
  return tx.single(
    'runs/create',
    {
      run: { ...fields, ...planProperties(plan), dispatchEpoch: 1 },
      providerThreadId: providerThread.id,
      served: servedProperties(servingRun(providerThread.served, run.ordinal)),
      ...feedChange('run_started'),
    },
    createdRunRow,
    'the created run',
  );
}

export async function runsByIds(tx: Tx, ids: readonly string[]): Promise<RunRecord[]> {
  return (await tx.rows('runs/by-ids', { ids }, runRow)).map((row) => row.run);
}

/** Runs by id for the API, without their long texts. */
export async function listedRunsByIds(tx: Tx, ids: readonly string[]): Promise<ListedRunRecord[]> {
  return (await tx.rows('runs/listed-by-ids', { ids }, listedRunRow)).map((row) => listedRunRecord(row.run));
}

/** The first `limit` runs of the thread above `afterOrdinal` (and at most `toOrdinal`), oldest first, without their long texts. */
export async function runPage(
  tx: Tx,
  threadId: string,
  afterOrdinal: number,
  limit: number,
  toOrdinal = Number.MAX_SAFE_INTEGER,
): Promise<ListedRunRecord[]> {
  const rows = await tx.rows('runs/page', { threadId, afterOrdinal, toOrdinal, limit }, listedRunRow);
  return rows.map((row) => listedRunRecord(row.run));
}

/** The newest `limit` runs below `beforeOrdinal`, newest first, without their long texts. */
export async function runPageBackward(
  tx: Tx,
  threadId: string,
  beforeOrdinal: number,
  limit: number,
): Promise<ListedRunRecord[]> {
  const rows = await tx.rows('runs/page-backward', { threadId, beforeOrdinal, limit }, listedRunRow);
  return rows.map((row) => listedRunRecord(row.run));
}

/** One long text of one run, addressed by the caller's key. */
export interface RunTextRequest {
  key: string;
  runId: string;
  field: RunTextField;
}

const textLengthRow = z.object({ key: z.string(), length: z.number().nullable() });

/** The lengths of long texts, in characters (code points), without reading them out; absent keys: no such run. */
export async function runTextLengths(tx: Tx, requests: readonly RunTextRequest[]): Promise<Map<string, number | null>> {
  const rows = await tx.rows('runs/text-lengths', { requests }, textLengthRow);
  return new Map(rows.map((row) => [row.key, row.length]));
}

const textRow = z.object({ key: z.string(), text: z.string().nullable() });

/** Long texts, each cut to its first `maxChars` characters (code points) by Neo4j; null: the whole text. */
export async function runTexts(
  tx: Tx,
  requests: readonly (RunTextRequest & { maxChars: number | null })[],
): Promise<Map<string, string | null>> {
  const rows = await tx.rows('runs/texts', { requests }, textRow);
  return new Map(rows.map((row) => [row.key, row.text]));
}

const idempotentRunRow = z.object({ run: idempotentRunNode });

export async function runByIdempotencyKey(
  tx: Tx,
  threadId: string,
  key: string,
): Promise<(RunRecord & { idempotencyFingerprint: string }) | null> {
  return (await tx.one('runs/by-idempotency-key', { threadId, key }, idempotentRunRow))?.run ?? null;
}

const lockedRunRow = z.object({
  run: runNode,
  thread: lockedThreadNode,
  providerThread: providerThreadNode.nullable(),
});

/** The run, its thread and the provider thread serving it, with the thread's write lock held for the rest of the transaction. */
export async function lockRunForUpdate(tx: Tx, runId: string): Promise<LockedRun | null> {
  return tx.one('runs/lock-for-update', { runId }, lockedRunRow);
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

const finishedRunRow = z.object({
  run: dispatchCheckRun,
  providerThread: dispatchCheckProviderThread,
  finished: runNode.nullable(),
});

/**
 * Takes the thread's lock and ends run `runId` with `outcome` when it is running, recording run_completed
 * or run_failed in the thread's change feed: what the checks read of the run and its provider thread as
 * they were when locked (null: no such run), and the run as ended (null: it was not running, nothing
 * was written).
 */
export async function finishRun(
  tx: Tx,
  runId: string,
  outcome: RunOutcome,
): Promise<{ locked: Omit<z.output<typeof finishedRunRow>, 'finished'>; finished: RunRecord | null } | null> {
  const checkpoint = outcome.checkpoint && {
    id: outcome.checkpoint.id,
    ref: outcome.checkpoint.ref,
    diffSummary: outcome.checkpoint.diffSummary,
    filesJson: JSON.stringify(outcome.checkpoint.files),
    fileCount: outcome.checkpoint.files.length,
  };
  const row = await tx.one(
    'runs/finish',
    {
      runId,
      status: outcome.status,
      assistantMessage: outcome.assistantMessage,
      error: outcome.error,
      facts: outcome.facts,
      checkpoint,
      ...feedChange(outcome.status === 'completed' ? 'run_completed' : 'run_failed'),
    },
    finishedRunRow,
  );
  if (!row) return null;
  const { finished, ...locked } = row;
  return { locked, finished };
}

/** Resume failure: the running run leaves `from` for `to` (both as read under the thread lock). */
export async function moveRunToProviderThread(
  tx: Tx,
  run: RunRecord,
  from: ProviderThreadRecord,
  to: ProviderThreadRecord,
  error: string,
): Promise<RunRecord> {
  const row = await tx.single(
    'runs/move-to-provider-thread',
    {
      runId: run.id,
      fromId: from.id,
      toId: to.id,
      error,
      fromServed: servedProperties(leavingRun(from.served, run.ordinal)),
      toServed: servedProperties(servingRun(to.served, run.ordinal)),
    },
    runRow,
    'the moved run',
  );
  return row.run;
}

export async function setRunPlan(tx: Tx, runId: string, plan: RunPlanRecord): Promise<RunRecord> {
  const row = await tx.single('runs/set-plan', { runId, plan: planProperties(plan) }, runRow, 'the replanned run');
  return row.run;
}

/** Which facts of a run to read: `first` from `offset`, texts cut to `maxChars` characters (null: whole). */
export interface FactSlice {
  first: number;
  offset: number;
  maxChars: number | null;
}

const factsRow = z.object({ runId: z.string(), facts: z.array(factWithLength) });

/** The facts of each run in that slice, in the order they were sent, with each text's whole length. */
export async function factsByRuns(
  tx: Tx,
  runIds: readonly string[],
  slice: FactSlice,
): Promise<Map<string, (RunFactRecord & { textLength: number })[]>> {
  const rows = await tx.rows('runs/facts-by-runs', { runIds, ...slice }, factsRow);
  return new Map(rows.map((row) => [row.runId, row.facts]));
}

const charsRow = z.object({ chars: z.number().nullable() });

/** The characters factsByRuns would read for the same slice (texts cut, keys, statuses), counted by Neo4j. */
export async function factChars(tx: Tx, runIds: readonly string[], slice: FactSlice): Promise<number> {
  return (await tx.one('runs/fact-sizes', { runIds, ...slice }, charsRow))?.chars ?? 0;
}

const recordedFactRow = z.object({ fact: factWithLength });

/** Appends a fact to the run after its facts; null when it already holds `maxFacts`. */
export async function appendFact(
  tx: Tx,
  runId: string,
  fact: NewRunFact,
  maxFacts: number,
): Promise<(RunFactRecord & { textLength: number }) | null> {
  return (await tx.one('runs/record-fact', { runId, fact, maxFacts }, recordedFactRow))?.fact ?? null;
}

const factCountRow = z.object({ runId: z.string(), facts: z.number() });

export async function factCounts(tx: Tx, runIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await tx.rows('runs/fact-counts', { runIds }, factCountRow);
  return new Map(rows.map((row) => [row.runId, row.facts]));
}

const checkpointRow = z.object({ runId: z.string(), checkpoint: checkpointNode });

export async function checkpointsByRuns(tx: Tx, runIds: readonly string[]): Promise<Map<string, CheckpointRecord>> {
  const rows = await tx.rows('runs/checkpoints-by-runs', { runIds }, checkpointRow);
  return new Map(rows.map((row) => [row.runId, row.checkpoint]));
}

export async function appendPlanReason(tx: Tx, runId: string, reason: string): Promise<void> {
  await tx.run('runs/append-reason', { runId, reason });
}
