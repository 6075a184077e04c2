import { z } from 'zod';
import { threadDeleted, present, notFound } from '../../domain/errors.js';
import { livePiecesFor } from '../../domain/history.js';
import type { CheckpointRecord, ThreadRecord } from '../../domain/records.js';
import type { Tx } from '../transactions.js';
import { checkpointNode, lockedThreadNode, threadNode } from './mapping.js';

const threadRow = z.object({ thread: threadNode });
const lockedThreadRow = z.object({ thread: lockedThreadNode });

/** A thread as seen under its write lock: the record plus its running run. */
export interface LockedThread extends ThreadRecord {
  runningRunId: string | null;
}

export async function createThread(
  tx: Tx,
  id: string,
  title: string | null,
  project: string | null,
): Promise<ThreadRecord> {
  return (await tx.single('threads/create', { id, title, project }, threadRow, 'the created thread')).thread;
}

export async function threadsByIds(tx: Tx, ids: readonly string[]): Promise<ThreadRecord[]> {
  return (await tx.rows('threads/by-ids', { ids }, threadRow)).map((row) => row.thread);
}

/** A thread the caller holds to exist; MissingRecordError otherwise. */
export async function threadById(tx: Tx, id: string): Promise<ThreadRecord> {
  return present((await threadsByIds(tx, [id]))[0], `thread ${id}`);
}

/** What Query.threads narrows to; null is no condition. `text` is lower case. */
export interface ThreadFilter {
  project: string | null;
  provider: string | null;
  text: string | null;
}

export async function threadPage(
  tx: Tx,
  filter: ThreadFilter,
  after: { createdAt: string; id: string } | null,
  limit: number,
): Promise<ThreadRecord[]> {
  const rows = await tx.rows(
    filter.project === null ? 'threads/page' : 'threads/page-of-project',
    { ...filter, afterCreatedAt: after?.createdAt ?? null, afterId: after?.id ?? null, limit: limit },
    threadRow,
  );
  return rows.map((row) => row.thread);
}

/**
 * The thread's lock, for an operation that changes it or its lineage: a thread that does not exist
 * is refused (NOT_FOUND), and a deleted one (THREAD_DELETED), so nothing is written to it once
 * deleteThread committed.
 */
export async function lockThread(tx: Tx, threadId: string): Promise<LockedThread> {
  return writableThread(await lockThreadAsItIs(tx, threadId), threadId);
}

/** A thread read under its lock, refused as lockThread refuses it: when it does not exist, or is deleted. */
export function writableThread<T extends ThreadRecord>(thread: T | null, threadId: string): T {
  if (!thread) throw notFound('Thread', threadId);
  if (thread.deletedAt) throw threadDeleted(threadId);
  return thread;
}

/** The thread's lock whether it is deleted or not: for deleteThread alone. */
export async function lockThreadAsItIs(tx: Tx, threadId: string): Promise<LockedThread | null> {
  return (await tx.one('threads/lock', { threadId }, lockedThreadRow))?.thread ?? null;
}

export async function renameThread(tx: Tx, threadId: string, title: string): Promise<ThreadRecord> {
  return (await tx.single('threads/rename', { threadId, title }, threadRow, 'the renamed thread')).thread;
}

export async function markThreadDeleted(tx: Tx, threadId: string): Promise<ThreadRecord> {
  return (await tx.single('threads/delete', { threadId }, threadRow, 'the deleted thread')).thread;
}

/**
 * The thread's lock first, for an operation that names something of a thread (a handoff, a provider
 * thread): `read` finds it, its thread is locked, and `read` reads it again under the lock. Every
 * operation on a thread takes the lock before it writes anything, so two of them on one thread wait
 * for each other instead of each holding what the other wants (a deadlock Neo4j would break by
 * failing one). Null when `read` finds nothing.
 */
export async function lockThreadOf<T extends { threadId: string }>(
  tx: Tx,
  read: () => Promise<T | undefined>,
): Promise<{ thread: LockedThread; record: T } | null> {
  const seen = await read();
  const thread = seen && (await lockThread(tx, seen.threadId));
  const record = thread && (await read());
  return thread && record ? { thread, record } : null;
}

const checkpointsRow = z.object({ threadId: z.string(), checkpoints: z.array(checkpointNode) });

/** The newest checkpoint in each thread's history up to its head, inherited ones included, by thread id. */
export async function latestCheckpoints(
  tx: Tx,
  threads: readonly ThreadRecord[],
): Promise<Map<string, CheckpointRecord>> {
  const rows = await tx.rows(
    'threads/latest-checkpoint',
    {
      threads: threads.map((thread) => ({
        threadId: thread.id,
        pieces: livePiecesFor(thread, { from: 1, to: thread.headOrdinal }),
      })),
    },
    checkpointsRow,
  );
  const newest = new Map<string, CheckpointRecord>();
  for (const row of rows) {
    for (const checkpoint of row.checkpoints) {
      if (checkpoint.runOrdinal > (newest.get(row.threadId)?.runOrdinal ?? 0)) newest.set(row.threadId, checkpoint);
    }
  }
  return newest;
}
