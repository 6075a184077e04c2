import { present } from '../../domain/errors.js';
import { coverageOf } from '../../domain/coverage.js';
import { liveHistory } from '../../domain/history.js';
import { fromLists } from '../../domain/ranges.js';
import type { CoverageRecord, OrdinalRange, ProviderThreadRecord } from '../../domain/records.js';
import { threadsByIds } from './threads.js';
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
  const row = await tx.single<{ providerThread: Props }>(
    'provider-threads/create',
    {
      ...fields,
      forkedFromId: forkedFrom?.id ?? null,
      inheritedThroughOrdinal: forkedFrom?.inheritedThroughOrdinal ?? null,
    },
    'the created provider thread',
  );
  return toProviderThread(row.providerThread);
}

export async function providerThreadsByIds(tx: Tx, ids: readonly string[]): Promise<ProviderThreadRecord[]> {
  const rows = await tx.rows<{ providerThread: Props }>('provider-threads/by-ids', { ids });
  return rows.map((row) => toProviderThread(row.providerThread));
}

/** A provider thread the caller holds to exist; MissingRecordError otherwise. */
export async function providerThreadById(tx: Tx, id: string): Promise<ProviderThreadRecord> {
  return present((await providerThreadsByIds(tx, [id]))[0], `provider thread ${id}`);
}

/**
 * A page of a thread's provider threads in creation order, after seq `afterSeq`, at most `first`; with
 * an ordinal window, only those that served a run of it or received a handoff made for one.
 */
export async function providerThreadPage(
  tx: Tx,
  threadId: string,
  page: { afterSeq: number; first: number; window: { from: number; to: number } | null },
): Promise<ProviderThreadRecord[]> {
  const { afterSeq, first, window } = page;
  const rows = window
    ? await tx.rows<{ providerThread: Props }>('provider-threads/window', {
        threadId,
        afterSeq,
        first,
        fromOrdinal: window.from,
        toOrdinal: window.to,
      })
    : await tx.rows<{ providerThread: Props }>('provider-threads/page', { threadId, afterSeq, first });
  return rows.map((row) => toProviderThread(row.providerThread));
}

export async function bindProviderThread(tx: Tx, id: string, nativeThreadRef: string): Promise<ProviderThreadRecord> {
  const row = await tx.single<{ providerThread: Props }>(
    'provider-threads/bind',
    { id, nativeThreadRef },
    'the bound provider thread',
  );
  return toProviderThread(row.providerThread);
}

export async function markProviderThreadStale(tx: Tx, id: string): Promise<void> {
  await tx.rows('provider-threads/mark-stale', { id });
}

/** Coverage of each provider thread against its app thread's live history: two reads for any number, as ranges. */
export async function coverageByIds(tx: Tx, ids: readonly string[]): Promise<CoverageRecord[]> {
  const known = await tx.rows<{
    providerThreadId: string;
    threadId: string;
    inheritedThroughOrdinal: number | null;
    servedFrom: number[];
    servedTo: number[];
    handoffIds: string[];
    handoffRanges: OrdinalRange[];
  }>('provider-threads/coverage', { ids });
  const threads = new Map(
    (await threadsByIds(tx, [...new Set(known.map((row) => row.threadId))])).map((thread) => [thread.id, thread]),
  );
  return known.map((row) => {
    const thread = threads.get(row.threadId);
    return coverageOf({ ...row, served: fromLists(row.servedFrom, row.servedTo) }, thread ? liveHistory(thread) : []);
  });
}
