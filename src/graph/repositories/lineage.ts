import { liveHistory, segmentHolding, type HistorySegment, type ThreadHistory } from '../../domain/history.js';
import type { ServedRuns } from '../../domain/coverage.js';
import { contains, toLists } from '../../domain/ranges.js';
import type {
  HandoffRecord,
  OrdinalRange,
  ProviderThreadRecord,
  RunRecord,
  RunStatus,
  ThreadRecord,
  ThreadRelationship,
  TransferRecord,
} from '../../domain/records.js';
import type { Tx } from '../transactions.js';
import { servedProperties, toHandoff, toProviderThread, toRun, toThread, toTransfer } from './mapping.js';
import { recountStandingCoverage } from './handoffs.js';

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
  const row = await tx.one<{
    thread: Props;
    run: SourceRun | null;
    checkpoint: SourcePointLookup['checkpoint'];
    providerThreadId: string | null;
    ordinal: number | null;
  }>('lineage/source-point', { threadId, ...point });
  return row && { ...row, thread: toThread(row.thread) };
}

/** Run `ordinal` of the thread's history, from the thread that holds it; null when it is not live in that history. */
export async function liveRunAt(tx: Tx, thread: ThreadHistory, ordinal: number): Promise<SourceRun | null> {
  if (!contains(liveHistory(thread), ordinal)) return null;
  return (
    (
      await tx.one<{ run: SourceRun }>('lineage/run-at', {
        threadId: segmentHolding(thread, ordinal).threadId,
        ordinal,
      })
    )?.run ?? null
  );
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
  transferId: string;
  transferKind: 'fork' | 'subagent_spawn';
  targetProvider: string | null;
  contextText: string | null;
  createdBy: 'user' | 'agent';
  /** A subagent an imported session ran: its transfer is written consumed, never delivered by a run. */
  imported: boolean;
}

export async function createChildThread(tx: Tx, child: NewChildThread): Promise<ThreadRecord> {
  const { rolledBack, ...fields } = child;
  const lists = toLists(rolledBack);
  const row = await tx.single<{ thread: Props }>(
    'lineage/create-child-thread',
    {
      ...fields,
      rolledBackFrom: lists.from,
      rolledBackTo: lists.to,
    },
    'the created child thread',
  );
  return toThread(row.thread);
}

export async function childrenOf(
  tx: Tx,
  threadIds: readonly string[],
  relationship: ThreadRelationship,
  limit: number,
): Promise<Map<string, ThreadRecord[]>> {
  const rows = await tx.rows<{ threadId: string; children: Props[] }>('lineage/children', {
    threadIds,
    relationship,
    limit,
  });
  return new Map(rows.map((row) => [row.threadId, row.children.map(toThread)]));
}

export async function createMergeBack(
  tx: Tx,
  forkId: string,
  ordinal: number,
  transferId: string,
): Promise<TransferRecord> {
  const row = await tx.single<{ transfer: Props }>(
    'lineage/create-merge-back',
    { forkId, ordinal, transferId },
    'the created merge-back',
  );
  await tx.rows('lineage/supersede-merge-backs', { transferId });
  return toTransfer(row.transfer);
}

/** Rollback step 1: marks the `withdrawn` runs rolled back; their count, and the runs at `pageOrdinals`. */
export async function rollBackRuns(
  tx: Tx,
  threadId: string,
  toOrdinal: number,
  ranges: { withdrawn: OrdinalRange[]; rolledBack: OrdinalRange[]; pageOrdinals: number[] },
): Promise<{ rolledBackRunCount: number; page: RunRecord[] }> {
  const lists = toLists(ranges.rolledBack);
  const row = await tx.single<{ rolledBackRunCount: number; page: Props[] }>(
    'lineage/roll-back-runs',
    {
      threadId,
      toOrdinal,
      withdrawn: ranges.withdrawn,
      rolledBackFrom: lists.from,
      rolledBackTo: lists.to,
      pageOrdinals: ranges.pageOrdinals,
    },
    'the rolled-back runs',
  );
  return {
    rolledBackRunCount: row.rolledBackRunCount,
    page: row.page.map(toRun).sort((a, b) => a.ordinal - b.ordinal),
  };
}

export async function supersedeRolledBackHandoffs(
  tx: Tx,
  threadId: string,
  toOrdinal: number,
): Promise<HandoffRecord[]> {
  const superseded = (
    await tx.rows<{ handoff: Props }>('lineage/supersede-rolled-back-handoffs', { threadId, toOrdinal })
  ).map((row) => toHandoff(row.handoff));
  await recountStandingCoverage(
    tx,
    superseded.map((handoff) => handoff.toProviderThreadId),
  );
  return superseded;
}

export async function withdrawMergeBacks(tx: Tx, threadId: string, toOrdinal: number): Promise<void> {
  await tx.rows('lineage/withdraw-merge-backs', { threadId, toOrdinal });
}

/** The provider threads that served a run above `toOrdinal` or received a withdrawn handoff. */
export async function providerThreadsAffectedByRollback(
  tx: Tx,
  threadId: string,
  toOrdinal: number,
  handoffTargetIds: string[],
): Promise<ProviderThreadRecord[]> {
  const rows = await tx.rows<{ providerThread: Props }>('lineage/affected-provider-threads', {
    threadId,
    toOrdinal,
    handoffTargetIds,
  });
  return rows.map((row) => toProviderThread(row.providerThread));
}

export async function setRollbackStatuses(
  tx: Tx,
  updates: { id: string; status: 'rolled_back' | 'divergent'; reason: string; served: ServedRuns }[],
): Promise<ProviderThreadRecord[]> {
  const rows = await tx.rows<{ providerThread: Props }>('lineage/set-rollback-status', {
    updates: updates.map((update) => ({
      id: update.id,
      status: update.status,
      reason: update.reason,
      served: servedProperties(update.served),
    })),
  });
  return rows.map((row) => toProviderThread(row.providerThread));
}

export async function settleProviderRollback(
  tx: Tx,
  id: string,
  status: 'idle' | 'divergent',
  error: string | null,
): Promise<{ providerThread: ProviderThreadRecord; settles: boolean }> {
  const row = await tx.single<{ providerThread: Props; settles: boolean }>(
    'lineage/settle-provider-rollback',
    { id, status, error },
    'the settled provider thread',
  );
  return { providerThread: toProviderThread(row.providerThread), settles: row.settles };
}

export async function recordSubagentResult(
  tx: Tx,
  childId: string,
  result: string,
  delivery: string,
  ids: { transferId: string; handoffId: string },
): Promise<TransferRecord> {
  const row = await tx.single<{ transfer: Props }>(
    'lineage/record-subagent-result',
    {
      childId,
      result,
      delivery,
      ...ids,
    },
    'the recorded subagent result',
  );
  return toTransfer(row.transfer);
}
