import type { HistorySegment } from '../../domain/history.js';
import type { HandoffRecord, ProviderThreadRecord, RunRecord, RunStatus, ThreadRecord, ThreadRelationship, TransferRecord } from '../../domain/records.js';
import type { Tx } from '../transactions.js';
import { toHandoff, toProviderThread, toRun, toThread, toTransfer } from './mapping.js';

type Props = Record<string, unknown>;

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

export async function lookUpSourcePoint(
  tx: Tx,
  threadId: string,
  point: { ordinal: number | null; checkpointId: string | null; providerThreadId: string | null },
): Promise<SourcePointLookup | null> {
  const row = await tx.one<{ thread: Props; run: SourceRun | null; checkpoint: SourcePointLookup['checkpoint']; providerThreadId: string | null; ordinal: number | null }>(
    'lineage/source-point',
    { threadId, ...point },
  );
  return row && { ...row, thread: toThread(row.thread) };
}

/** Run `ordinal` of the segment's thread, or null when it was not live as of the segment. */
export async function liveRunAt(tx: Tx, segment: Pick<HistorySegment, 'threadId' | 'asOf'>, ordinal: number): Promise<SourceRun | null> {
  return (await tx.one<{ run: SourceRun }>('lineage/live-run-at', { threadId: segment.threadId, asOf: segment.asOf, ordinal }))?.run ?? null;
}

export interface NewChildThread {
  id: string;
  parentId: string;
  title: string | null;
  relationship: ThreadRelationship;
  source: { runId: string | null; runOrdinal: number | null; checkpointId: string | null; providerThreadId: string | null };
  forkOrdinal: number;
  segments: HistorySegment[];
  transferId: string;
  transferKind: 'fork' | 'subagent_spawn';
  targetProvider: string | null;
  contextText: string | null;
  createdBy: 'user' | 'agent';
}

export async function createChildThread(tx: Tx, child: NewChildThread): Promise<ThreadRecord> {
  const row = await tx.one<{ thread: Props }>('lineage/create-child-thread', { ...child });
  return toThread(row!.thread);
}

export async function childrenOf(tx: Tx, threadIds: readonly string[], relationship: ThreadRelationship, limit: number): Promise<Map<string, ThreadRecord[]>> {
  const rows = await tx.rows<{ threadId: string; children: Props[] }>('lineage/children', { threadIds, relationship, limit });
  return new Map(rows.map((row) => [row.threadId, row.children.map(toThread)]));
}

export async function createMergeBack(tx: Tx, forkId: string, ordinal: number, transferId: string): Promise<TransferRecord> {
  const row = await tx.one<{ transfer: Props }>('lineage/create-merge-back', { forkId, ordinal, transferId });
  await tx.rows('lineage/supersede-merge-backs', { transferId });
  return toTransfer(row!.transfer);
}

export async function rollBackRuns(tx: Tx, threadId: string, toOrdinal: number): Promise<RunRecord[]> {
  return (await tx.rows<{ run: Props }>('lineage/roll-back-runs', { threadId, toOrdinal })).map((row) => toRun(row.run));
}

export async function supersedeRolledBackHandoffs(tx: Tx, threadId: string, runIds: string[]): Promise<HandoffRecord[]> {
  return (await tx.rows<{ handoff: Props }>('lineage/supersede-rolled-back-handoffs', { threadId, runIds })).map((row) => toHandoff(row.handoff));
}

export async function withdrawMergeBacks(tx: Tx, threadId: string, toOrdinal: number): Promise<void> {
  await tx.rows('lineage/withdraw-merge-backs', { threadId, toOrdinal });
}

export interface AffectedProviderThread {
  providerThread: ProviderThreadRecord;
  turnsToDrop: number;
  keepsEarlierRuns: boolean;
}

export async function providerThreadsAffectedByRollback(
  tx: Tx,
  threadId: string,
  toOrdinal: number,
  runIds: string[],
  handoffIds: string[],
): Promise<AffectedProviderThread[]> {
  const rows = await tx.rows<{ providerThread: Props; turnsToDrop: number; keepsEarlierRuns: boolean }>('lineage/affected-provider-threads', {
    threadId,
    toOrdinal,
    runIds,
    handoffIds,
  });
  return rows.map((row) => ({ ...row, providerThread: toProviderThread(row.providerThread) }));
}

export async function setRollbackStatuses(tx: Tx, updates: { id: string; status: 'rolled_back' | 'divergent' }[]): Promise<ProviderThreadRecord[]> {
  return (await tx.rows<{ providerThread: Props }>('lineage/set-rollback-status', { updates })).map((row) => toProviderThread(row.providerThread));
}

export async function settleProviderRollback(
  tx: Tx,
  id: string,
  status: 'idle' | 'divergent',
  error: string | null,
): Promise<{ providerThread: ProviderThreadRecord; settles: boolean } | null> {
  const row = await tx.one<{ providerThread: Props; settles: boolean }>('lineage/settle-provider-rollback', { id, status, error });
  return row && { providerThread: toProviderThread(row.providerThread), settles: row.settles };
}

export async function recordSubagentResult(tx: Tx, childId: string, result: string, delivery: string, ids: { transferId: string; handoffId: string }): Promise<TransferRecord> {
  const row = await tx.one<{ transfer: Props }>('lineage/record-subagent-result', { childId, result, delivery, ...ids });
  return toTransfer(row!.transfer);
}
