import type { ThreadChangeKind } from '../../domain/changes.js';
import type { Tx } from '../transactions.js';

/**
 * How many of its newest changes a thread's feed keeps. A subscriber that comes back further behind
 * than this gets the oldest kept change marked `resync`, and reads the thread again.
 */
const CHANGES_KEPT_PER_THREAD = 500;

/** Call inside the transaction that changes the thread, so the change and its record commit together. */
export async function recordChange(tx: Tx, threadId: string, kind: ThreadChangeKind): Promise<void> {
  await tx.rows('changes/record', { threadId, kind, kept: CHANGES_KEPT_PER_THREAD });
}
