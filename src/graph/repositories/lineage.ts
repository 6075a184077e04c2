import { z } from 'zod';
import { liveHistory, segmentHolding, type HistorySegment, type ThreadHistory } from '../../domain/history.js';
import type { ServedRuns } from '../../domain/coverage.js';
import { changeOfLists, contains } from '../../domain/ranges.js';
import {
  RUN_STATUSES,
  type HandoffRecord,
  type OrdinalRange,
  type ProviderThreadRecord,
  type RunRecord,
  type RunStatus,
  type ThreadRecord,
  type ThreadRelationship,
  type TransferRecord,
} from '../../domain/records.js';
import { rowsOverWindow, type Tx } from '../transactions.js';
import { handoffNode, providerThreadNode, runNode, servedProperties, threadNode, transferNode } from './mapping.js';
import { recountStandingCoverage } from './handoffs.js';

const threadRow = z.object({ thread: threadNode });
const transferRow = z.object({ transfer: transferNode });
const providerThreadRow = z.object({ providerThread: providerThreadNode });
const handoffRow = z.object({ handoff: handoffNode });

export interface SourceRun {
  id: string;
  ordinal: number;
  status: RunStatus;
  providerThreadId: string;
}

export interface SourcePointLookup {
  thread: ThreadRecord;
  run: SourceRun | null;
  checkpoint: { id: string; status: string } | null;
  providerThreadId: string | null;
  ordinal: number | null;
}

const sourceRun = z.object({
  id: z.string(),
  ordinal: z.number(),
  status: z.enum(RUN_STATUSES),
  providerThreadId: z.string(),
}) satisfies z.ZodType<SourceRun>;

const sourcePointRow = z.object({
  thread: threadNode,
  run: sourceRun.nullable(),
  checkpoint: z.object({ id: z.string(), status: z.string() }).nullable(),
  providerThreadId: z.string().nullable(),
  ordinal: z.number().nullable(),
}) satisfies z.ZodType<SourcePointLookup>;
const sourceRunRow = z.object({ run: sourceRun });

export async function lookUpSourcePoint(
  tx: Tx,
  threadId: string,
  point: { ordinal: number | null; checkpointId: string | null; providerThreadId: string | null },
): Promise<SourcePointLookup | null> {
  return tx.one('lineage/source-point', { threadId, ...point }, sourcePointRow);
}

/** Run `ordinal` of the thread's history, from the thread that holds it; null when it is not live in that history. */
export async function liveRunAt(tx: Tx, thread: ThreadHistory, ordinal: number): Promise<SourceRun | null> {
  if (!contains(liveHistory(thread), ordinal)) return null;
  const row = await tx.one(
    'lineage/run-at',
    { threadId: segmentHolding(thread, ordinal).threadId, ordinal },
    sourceRunRow,
  );
  return row?.run ?? null;
}

export interface NewChildThread {
  id: string;
  parentId: string;
  title: string | null;
  relationship: ThreadRelationship;
  source: {
    runId: string | null;
    runOrdinal: number | null;
    checkpointId: string | null;
    providerThreadId: string | null;
  };
  forkOrdinal: number;
  segments: HistorySegment[];
  /** The inherited ordinals that were not live when it was made. */
  rolledBack: OrdinalRange[];
  /** A fork's parent's rolled-back ranges, as read under its lock: those rolledBack starts with are copied in Neo4j, not sent. */
  parentRolledBack?: OrdinalRange[];
  transferId: string;
  transferKind: 'fork' | 'subagent_spawn';
  targetProvider: string | null;
  contextText: string | null;
  createdBy: 'user' | 'agent';
  /** A subagent an imported session ran: its transfer is written consumed, never delivered by a run. */
  imported: boolean;
}

export async function createChildThread(tx: Tx, child: NewChildThread): Promise<ThreadRecord> {
  const { rolledBack, parentRolledBack, ...fields } = child;
  const change = changeOfLists(parentRolledBack ?? [], rolledBack);
  const row = await tx.single(
    'lineage/create-child-thread',
    { ...fields, keptRanges: change.kept, rolledBackFrom: change.from, rolledBackTo: change.to },
    threadRow,
    'the created child thread',
  );
  return row.thread;
}

const childrenRow = z.object({ threadId: z.string(), children: z.array(threadNode) });

/** Each thread's children of one relationship, oldest first; with a window, those of its runs there, by ordinal. */
export async function childrenOf(
  tx: Tx,
  threadIds: readonly string[],
  relationship: ThreadRelationship,
  limit: number,
  window: OrdinalRange | null,
): Promise<Map<string, ThreadRecord[]>> {
  const rows = await rowsOverWindow(
    tx,
    { whole: 'lineage/children', window: 'lineage/children-in-window' },
    { threadIds, relationship, limit },
    window,
    childrenRow,
  );
  return new Map(rows.map((row) => [row.threadId, row.children]));
}

export async function createMergeBack(
  tx: Tx,
  forkId: string,
  ordinal: number,
  transferId: string,
): Promise<TransferRecord> {
  const row = await tx.single(
    'lineage/create-merge-back',
    { forkId, ordinal, transferId },
    transferRow,
    'the created merge-back',
  );
  await tx.run('lineage/supersede-merge-backs', { transferId });
  return row.transfer;
}

const rolledBackRow = z.object({ rolledBackRunCount: z.number(), page: z.array(runNode) });

/**
 * Rollback step 1: marks the `withdrawn` runs rolled back and stores the thread's rolled-back ranges,
 * `rolledBack` where they were `rolledBackBefore` (as read under the thread's lock); their count, and
 * the runs at `pageOrdinals`.
 */
export async function rollBackRuns(
  tx: Tx,
  threadId: string,
  toOrdinal: number,
  ranges: {
    withdrawn: OrdinalRange[];
    rolledBackBefore: OrdinalRange[];
    rolledBack: OrdinalRange[];
    pageOrdinals: number[];
  },
): Promise<{ rolledBackRunCount: number; page: RunRecord[] }> {
  const change = changeOfLists(ranges.rolledBackBefore, ranges.rolledBack);
  const row = await tx.single(
    'lineage/roll-back-runs',
    {
      threadId,
      toOrdinal,
      withdrawn: ranges.withdrawn,
      keptRanges: change.kept,
      rolledBackFrom: change.from,
      rolledBackTo: change.to,
      pageOrdinals: ranges.pageOrdinals,
    },
    rolledBackRow,
    'the rolled-back runs',
  );
  return {
    rolledBackRunCount: row.rolledBackRunCount,
    page: row.page.sort((a, b) => a.ordinal - b.ordinal),
  };
}

export async function supersedeRolledBackHandoffs(
  tx: Tx,
  threadId: string,
  toOrdinal: number,
): Promise<HandoffRecord[]> {
  const superseded = (await tx.rows('lineage/supersede-rolled-back-handoffs', { threadId, toOrdinal }, handoffRow)).map(
    (row) => row.handoff,
  );
  await recountStandingCoverage(
    tx,
    superseded.map((handoff) => handoff.toProviderThreadId),
  );
  return superseded;
}

export async function withdrawMergeBacks(tx: Tx, threadId: string, toOrdinal: number): Promise<void> {
  await tx.run('lineage/withdraw-merge-backs', { threadId, toOrdinal });
}

/** The provider threads that served a run above `toOrdinal` or received a withdrawn handoff. */
export async function providerThreadsAffectedByRollback(
  tx: Tx,
  threadId: string,
  toOrdinal: number,
  handoffTargetIds: string[],
): Promise<ProviderThreadRecord[]> {
  const rows = await tx.rows(
    'lineage/affected-provider-threads',
    { threadId, toOrdinal, handoffTargetIds },
    providerThreadRow,
  );
  return rows.map((row) => row.providerThread);
}

export async function setRollbackStatuses(
  tx: Tx,
  updates: { id: string; status: 'rolled_back' | 'divergent'; reason: string; served: ServedRuns }[],
): Promise<ProviderThreadRecord[]> {
  const rows = await tx.rows(
    'lineage/set-rollback-status',
    {
      updates: updates.map((update) => ({
        id: update.id,
        status: update.status,
        reason: update.reason,
        served: servedProperties(update.served),
      })),
    },
    providerThreadRow,
  );
  return rows.map((row) => row.providerThread);
}

const settledRow = z.object({ providerThread: providerThreadNode, settles: z.boolean() });

export async function settleProviderRollback(
  tx: Tx,
  id: string,
  status: 'idle' | 'divergent',
  error: string | null,
): Promise<{ providerThread: ProviderThreadRecord; settles: boolean }> {
  return tx.single(
    'lineage/settle-provider-rollback',
    { id, status, error },
    settledRow,
    'the settled provider thread',
  );
}

export async function recordSubagentResult(
  tx: Tx,
  childId: string,
  result: string,
  delivery: string,
  ids: { transferId: string; handoffId: string },
): Promise<TransferRecord> {
  const row = await tx.single(
    'lineage/record-subagent-result',
    { childId, result, delivery, ...ids },
    transferRow,
    'the recorded subagent result',
  );
  return row.transfer;
}
