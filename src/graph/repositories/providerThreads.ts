import { coverageOf, type KnownRuns } from '../../domain/coverage.js';
import type { CoverageRecord, ProviderThreadRecord } from '../../domain/records.js';
import { liveOrdinals, threadsByIds } from './threads.js';
import type { Tx } from '../transactions.js';
import { toProviderThread } from './mapping.js';

type Props = Record<string, unknown>;

export interface NewProviderThread {
  id: string;
  threadId: string;
  provider: string;
  model: string | null;
  runtimeMode: string | null;
  /** A native fork: the provider thread it continues, and the fork point it knows through. */
  forkedFrom?: { id: string; inheritedThroughOrdinal: number };
}

export async function createProviderThread(tx: Tx, providerThread: NewProviderThread): Promise<ProviderThreadRecord> {
  const { forkedFrom, ...fields } = providerThread;
  const row = await tx.one<{ providerThread: Props }>('provider-threads/create', {
    ...fields,
    forkedFromId: forkedFrom?.id ?? null,
    inheritedThroughOrdinal: forkedFrom?.inheritedThroughOrdinal ?? null,
  });
  return toProviderThread(row!.providerThread);
}

export async function providerThreadsByIds(tx: Tx, ids: readonly string[]): Promise<ProviderThreadRecord[]> {
  const rows = await tx.rows<{ providerThread: Props }>('provider-threads/by-ids', { ids });
  return rows.map((row) => toProviderThread(row.providerThread));
}

export async function providerThreadsByThreads(tx: Tx, threadIds: readonly string[]): Promise<Map<string, ProviderThreadRecord[]>> {
  const rows = await tx.rows<{ threadId: string; providerThreads: Props[] }>('provider-threads/by-threads', { threadIds });
  return new Map(rows.map((row) => [row.threadId, row.providerThreads.map(toProviderThread)]));
}

export async function bindProviderThread(tx: Tx, id: string, nativeThreadRef: string): Promise<ProviderThreadRecord | null> {
  const row = await tx.one<{ providerThread: Props }>('provider-threads/bind', { id, nativeThreadRef });
  return row ? toProviderThread(row.providerThread) : null;
}

export async function markProviderThreadStale(tx: Tx, id: string): Promise<void> {
  await tx.rows('provider-threads/mark-stale', { id });
}

/** Coverage of each provider thread against its app thread's history: three reads for any number. */
export async function coverageByIds(tx: Tx, ids: readonly string[]): Promise<CoverageRecord[]> {
  const known = await tx.rows<KnownRuns & { threadId: string }>('provider-threads/coverage', { ids });
  const threads = await threadsByIds(tx, [...new Set(known.map((row) => row.threadId))]);
  const ordinalsOf = await liveOrdinals(tx, threads.map((thread) => ({ thread, range: { from: 1, to: thread.headOrdinal } })));
  return known.map((row) => coverageOf(row, ordinalsOf.get(row.threadId) ?? []));
}
