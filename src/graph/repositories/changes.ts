import { z } from 'zod';
import { THREAD_CHANGE_KINDS, type ThreadChangeKind, type ThreadChangeRecord } from '../../domain/changes.js';
import type { Tx } from '../transactions.js';

/**
 * How many of its newest changes a thread's feed keeps. A subscriber that comes back further behind
 * than this gets the oldest kept change marked `resync`, and reads the thread again.
 */
const CHANGES_KEPT_PER_THREAD = 500;

/** The parameters of a statement that appends a change of `kind` to its thread's feed (INCLUDE changes/append). */
export function feedChange(kind: ThreadChangeKind): { changeKind: ThreadChangeKind; changesKept: number } {
  return { changeKind: kind, changesKept: CHANGES_KEPT_PER_THREAD };
}

/** Call inside the transaction that changes the thread, so the change and its record commit together. */
export async function recordChange(tx: Tx, threadId: string, kind: ThreadChangeKind): Promise<void> {
  await tx.run('changes/record', { threadId, ...feedChange(kind) });
}

const headRow = z.object({ sequence: z.number() });

/** The thread's newest change number, 0 before any; null when the tenant has no such thread. */
export async function changeHead(tx: Tx, threadId: string): Promise<number | null> {
  return (await tx.one('changes/head', { threadId }, headRow))?.sequence ?? null;
}

export interface Watch {
  tenant: string;
  threadId: string;
  after: number;
}

const changeRow = z.object({
  tenant: z.string(),
  threadId: z.string(),
  sequence: z.number(),
  kind: z.enum(THREAD_CHANGE_KINDS),
  at: z.string(),
}) satisfies z.ZodType<ThreadChangeRecord>;

/** The changes after each watch's sequence, oldest first per thread; the watches may span tenants. */
export async function changesSince(tx: Tx, watches: readonly Watch[]): Promise<ThreadChangeRecord[]> {
  return tx.rows('changes/since', { watches }, changeRow);
}
