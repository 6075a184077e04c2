import { segmentsFor } from '../../domain/history.js';
import type { CheckpointRecord, OrdinalRange, ThreadRecord } from '../../domain/records.js';
import type { Tx } from '../transactions.js';
import { toCheckpoint, toThread } from './mapping.js';

type Props = Record<string, unknown>;

/** A thread as seen under its write lock: the record plus the counters startRun needs. */
export interface LockedThread extends ThreadRecord {
  lastOrdinal: number;
  runningRunId: string | null;
}

export async function createThread(tx: Tx, id: string, title: string | null): Promise<ThreadRecord> {
  const row = await tx.one<{ thread: Props }>('threads/create', { id, title });
  return toThread(row!.thread);
}

export async function threadsByIds(tx: Tx, ids: readonly string[]): Promise<ThreadRecord[]> {
  const rows = await tx.rows<{ thread: Props }>('threads/by-ids', { ids });
  return rows.map((row) => toThread(row.thread));
}

export async function threadPage(tx: Tx, after: { createdAt: string; id: string } | null, limit: number): Promise<ThreadRecord[]> {
  const rows = await tx.rows<{ thread: Props }>('threads/page', {
    afterCreatedAt: after?.createdAt ?? null,
    afterId: after?.id ?? null,
    limit: limit,
  });
  return rows.map((row) => toThread(row.thread));
}

export async function lockThread(tx: Tx, threadId: string): Promise<LockedThread | null> {
  const row = await tx.one<{ thread: Props }>('threads/lock', { threadId });
  return row && toLockedThread(row.thread);
}

export function toLockedThread(props: Props): LockedThread {
  return { ...toThread(props), lastOrdinal: Number(props.lastOrdinal), runningRunId: (props.runningRunId as string | undefined) ?? null };
}

/** The newest checkpoint in each thread's history up to its head, inherited ones included, by thread id. */
export async function latestCheckpoints(tx: Tx, threads: readonly ThreadRecord[]): Promise<Map<string, CheckpointRecord>> {
  const rows = await tx.rows<{ threadId: string; checkpoints: Props[] }>('threads/latest-checkpoint', {
    threads: threads.map((thread) => ({ threadId: thread.id, segments: segmentsFor(thread, { from: 1, to: thread.headOrdinal }) })),
  });
  const newest = new Map<string, CheckpointRecord>();
  for (const row of rows) {
    for (const checkpoint of row.checkpoints.map(toCheckpoint)) {
      if (checkpoint.runOrdinal > (newest.get(row.threadId)?.runOrdinal ?? 0)) newest.set(row.threadId, checkpoint);
    }
  }
  return newest;
}


/** The live ordinals within `range` of each thread's history (inherited runs as live at the fork), by thread id. */
export async function liveOrdinals(tx: Tx, threads: readonly { thread: ThreadRecord; range: OrdinalRange }[]): Promise<Map<string, number[]>> {
  const rows = await tx.rows<{ threadId: string; ordinals: number[] }>('threads/history-ordinals', {
    threads: threads.map(({ thread, range }) => ({ threadId: thread.id, segments: segmentsFor(thread, range) })),
  });
  return new Map(rows.map((row) => [row.threadId, row.ordinals]));
}
