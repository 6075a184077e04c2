import { z } from 'zod';
import { present } from '../../domain/errors.js';
import type {
  ContextDelivery,
  EndReason,
  HandoffRecord,
  HandoffStatus,
  HandoffStrategy,
  TransferActor,
  TransferKind,
  TransferRecord,
  TransferResolution,
  TransferStatus,
} from '../../domain/records.js';
import type { RunAt } from '../../domain/history.js';
import type { HandoffReceipt } from '../../domain/receipt.js';
import type { Tx } from '../transactions.js';
import { handoffNode, receiptProps, transferNode } from './mapping.js';

const handoffRow = z.object({ handoff: handoffNode });
const transferRow = z.object({ transfer: transferNode });
/** A row naming the provider thread a statement's handoffs were delivered to. */
const deliveredToRow = z.object({ providerThreadId: z.string() });

export interface NewHandoff {
  id: string;
  threadId: string;
  targetRunId: string;
  fromProviderThreadIds: string[];
  toProviderThreadId: string;
  coveredFrom: number;
  coveredTo: number;
  strategy: HandoffStrategy;
  summaryText: string;
  status: HandoffStatus;
  createdByProvider: string | null;
  delivery: ContextDelivery;
  source: string;
  targetProvider: string;
  /** Who is asked to write a PENDING handoff (a provider id or a summarizer's name). */
  writer: string | null;
  inputDocument: string | null;
  inputDigest: string | null;
  budgetChars: number | null;
  omissions: string[];
  receipt: HandoffReceipt | null;
}

export interface NewTransfer {
  id: string;
  kind: TransferKind;
  sourceThreadId: string;
  targetThreadId: string;
  sourceRunOrdinal: number | null;
  sourceProviderThreadId: string | null;
  baseRunOrdinal: number | null;
  sourceProvider: string | null;
  targetProvider: string | null;
  status: TransferStatus;
  resolution: TransferResolution | null;
  createdBy: TransferActor;
}

/**
 * Creates the handoff and the transfer it materializes (or resolves that transfer when it exists
 * already), COVERS edges to the first and last live run of its range (`coverageEnds`), and marks
 * `alsoResolves` consumed.
 */
export async function createHandoff(
  tx: Tx,
  handoff: NewHandoff,
  transfer: NewTransfer,
  coverageEnds: RunAt[],
  alsoResolves: string[] = [],
): Promise<HandoffRecord> {
  const { receipt, ...props } = handoff;
  const row = await tx.single(
    'handoffs/create',
    {
      handoff: { ...props, ...receiptProps(receipt) },
      transfer,
      coverageEnds,
      alsoResolves,
    },
    handoffRow,
    'the created handoff',
  );
  return row.handoff;
}

export async function resolveForkNatively(tx: Tx, transferId: string, targetProvider: string): Promise<void> {
  await tx.run('transfers/resolve-native', { transferId, targetProvider });
}

export async function supersedeHandoff(tx: Tx, oldId: string, newId: string, newTransferId: string): Promise<void> {
  const rows = await tx.rows('handoffs/supersede', { oldId, newId, newTransferId }, deliveredToRow);
  await recountStandingCoverage(
    tx,
    rows.map((row) => row.providerThreadId),
  );
}

export async function handoffsByIds(tx: Tx, ids: readonly string[]): Promise<HandoffRecord[]> {
  return (await tx.rows('handoffs/by-ids', { ids }, handoffRow)).map((row) => row.handoff);
}

const handoffsOfThreadRow = z.object({ threadId: z.string(), handoffs: z.array(handoffNode) });

export async function handoffsByThreads(tx: Tx, threadIds: readonly string[]): Promise<Map<string, HandoffRecord[]>> {
  const rows = await tx.rows('handoffs/by-threads', { threadIds }, handoffsOfThreadRow);
  return new Map(rows.map((row) => [row.threadId, row.handoffs]));
}

const transfersOfThreadRow = z.object({ threadId: z.string(), transfers: z.array(transferNode) });

export async function transfersByThreads(tx: Tx, threadIds: readonly string[]): Promise<Map<string, TransferRecord[]>> {
  const rows = await tx.rows('transfers/by-threads', { threadIds }, transfersOfThreadRow);
  return new Map(rows.map((row) => [row.threadId, row.transfers]));
}

/** An ordinal window of a thread: at most `limit` handoffs made for runs `from..to`, in the order of those runs. */
export async function handoffWindow(
  tx: Tx,
  threadId: string,
  fromOrdinal: number,
  toOrdinal: number,
  limit: number,
): Promise<HandoffRecord[]> {
  const rows = await tx.rows('handoffs/window', { threadId, fromOrdinal, toOrdinal, limit }, handoffRow);
  return rows.map((row) => row.handoff);
}

/** An ordinal window of a thread: at most `limit` transfers with a point in `from..to` (see transfers/window.cypher), oldest first. */
export async function transferWindow(
  tx: Tx,
  threadId: string,
  fromOrdinal: number,
  toOrdinal: number,
  limit: number,
): Promise<TransferRecord[]> {
  const rows = await tx.rows('transfers/window', { threadId, fromOrdinal, toOrdinal, limit }, transferRow);
  return rows.map((row) => row.transfer);
}

export async function submitHandoff(
  tx: Tx,
  id: string,
  summaryText: string,
  createdByProvider: string | null,
  omissions: string[],
  receipt: HandoffReceipt,
): Promise<HandoffRecord | null> {
  const row = await tx.one(
    'handoffs/submit',
    { id, summaryText, createdByProvider, omissions, receipt: receiptProps(receipt) },
    handoffRow,
  );
  return row?.handoff ?? null;
}

export async function failHandoff(
  tx: Tx,
  id: string,
  reason: string,
  endedBecause: Extract<EndReason, 'expired' | 'summarizer_failed'>,
): Promise<HandoffRecord | null> {
  const row = await tx.one('handoffs/fail', { id, reason, endedBecause }, handoffRow);
  if (!row) return null;
  const failed = row.handoff;
  await recountStandingCoverage(tx, [failed.toProviderThreadId]);
  return failed;
}

/** False when `oldId` no longer stands: another writer replaced it first. */
export async function replaceHandoff(tx: Tx, oldId: string, newId: string, endedBecause: EndReason): Promise<boolean> {
  const row = await tx.one('handoffs/replace', { oldId, newId, endedBecause }, deliveredToRow);
  if (row) await recountStandingCoverage(tx, [row.providerThreadId]);
  return row !== null;
}

/**
 * After handoffs delivered to these provider threads ended: their stored standing coverage, which
 * the planner reads instead of their handoffs, counted again (handoffs/create only adds to it).
 */
export async function recountStandingCoverage(tx: Tx, providerThreadIds: readonly string[]): Promise<void> {
  if (providerThreadIds.length > 0)
    await tx.run('provider-threads/recount-standing-handoffs', { ids: [...new Set(providerThreadIds)] });
}

const expiredRow = z.object({ tenant: z.string(), id: z.string() });

export async function expiredPendingHandoffs(
  tx: Tx,
  tenants: readonly string[],
  now: Date,
  timeoutSeconds: number,
): Promise<{ tenant: string; id: string }[]> {
  return tx.rows('handoffs/expired-pending', { tenants, now: now.toISOString(), timeoutSeconds }, expiredRow);
}

export async function mergeBacksCarriedBy(tx: Tx, handoffId: string): Promise<TransferRecord[]> {
  return (await tx.rows('transfers/merge-backs-carried-by', { handoffId }, transferRow)).map((row) => row.transfer);
}

/** A handoff the caller holds to exist; MissingRecordError otherwise. */
export async function handoffById(tx: Tx, id: string): Promise<HandoffRecord> {
  return present((await handoffsByIds(tx, [id]))[0], `handoff ${id}`);
}

/** A transfer the caller holds to exist; MissingRecordError otherwise. */
export async function transferById(tx: Tx, id: string): Promise<TransferRecord> {
  return present((await transfersByIds(tx, [id]))[0], `transfer ${id}`);
}

export async function transfersByIds(tx: Tx, ids: readonly string[]): Promise<TransferRecord[]> {
  return (await tx.rows('transfers/by-ids', { ids }, transferRow)).map((row) => row.transfer);
}
