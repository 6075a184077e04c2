import { z } from 'zod';
import { present } from '../../domain/errors.js';
import { coverageOf } from '../../domain/coverage.js';
import { liveHistory } from '../../domain/history.js';
import { fromLists } from '../../domain/ranges.js';
import type { CoverageRecord, OrdinalRange, ProviderThreadRecord } from '../../domain/records.js';
import { rowsOverWindow, type Tx } from '../transactions.js';
import { providerThreadNode } from './mapping.js';

const providerThreadRow = z.object({ providerThread: providerThreadNode });

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
  const row = await tx.single(
    'provider-threads/create',
    {
      ...fields,
      forkedFromId: forkedFrom?.id ?? null,
      inheritedThroughOrdinal: forkedFrom?.inheritedThroughOrdinal ?? null,
    },
    providerThreadRow,
    'the created provider thread',
  );
  return row.providerThread;
}

export async function providerThreadsByIds(tx: Tx, ids: readonly string[]): Promise<ProviderThreadRecord[]> {
  return (await tx.rows('provider-threads/by-ids', { ids }, providerThreadRow)).map((row) => row.providerThread);
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
  const rows = await rowsOverWindow(
    tx,
    { whole: 'provider-threads/page', window: 'provider-threads/window' },
    { threadId, afterSeq, first },
    window,
    providerThreadRow,
  );
  return rows.map((row) => row.providerThread);
}

export async function bindProviderThread(tx: Tx, id: string, nativeThreadRef: string): Promise<ProviderThreadRecord> {
  const row = await tx.single(
    'provider-threads/bind',
    { id, nativeThreadRef },
    providerThreadRow,
    'the bound provider thread',
  );
  return row.providerThread;
}

export async function markProviderThreadStale(tx: Tx, id: string): Promise<void> {
  await tx.run('provider-threads/mark-stale', { id });
}

const coverageRow = z.object({
  providerThreadId: z.string(),
  fromOrdinal: z.number().nullable(),
  toOrdinal: z.number().nullable(),
  inheritedThroughOrdinal: z.number().nullable(),
  servedFrom: z.array(z.number()),
  servedTo: z.array(z.number()),
  handoffIds: z.array(z.string()),
  handoffRanges: z.array(z.object({ from: z.number(), to: z.number() })),
  lastOrdinal: z.number().nullable(),
  rolledBack: z.array(z.object({ from: z.number(), to: z.number() })),
});

/** A provider thread's coverage of its app thread's whole history (window null) or of a window of it. */
export interface CoverageKey {
  providerThreadId: string;
  window: OrdinalRange | null;
}

export const coverageKeyText = ({ providerThreadId, window }: CoverageKey): string =>
  window ? `${providerThreadId} ${window.from}-${window.to}` : providerThreadId;

/** Coverage of each provider thread asked for, by coverageKeyText: one read for any number, as ranges. */
export async function coverageByKeys(tx: Tx, keys: readonly CoverageKey[]): Promise<Map<string, CoverageRecord>> {
  const rows = await tx.rows(
    'provider-threads/coverage',
    {
      keys: keys.map(({ providerThreadId, window }) => ({
        id: providerThreadId,
        from: window?.from ?? null,
        to: window?.to ?? null,
      })),
    },
    coverageRow,
  );
  return new Map(
    rows.map((row) => {
      const window =
        row.fromOrdinal === null || row.toOrdinal === null ? null : { from: row.fromOrdinal, to: row.toOrdinal };
      const history = liveHistory({ lastOrdinal: row.lastOrdinal ?? 0, rolledBack: row.rolledBack });
      const known = { ...row, served: fromLists(row.servedFrom, row.servedTo) };
      return [coverageKeyText({ providerThreadId: row.providerThreadId, window }), coverageOf(known, history, window)];
    }),
  );
}
