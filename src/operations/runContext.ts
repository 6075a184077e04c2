// The leading context a run receives, composed from everything that crosses into it: the planner's
// switch handoff (or a fork's portable context, or operator-written manual context), a subagent's
// task, and pending merge-backs. One handoff carries all parts and is linked to every transfer it
// resolves. The switch part is written by the source the summary policy names: locally at once, or
// PENDING for a provider or a configured summarizer to write.
import { rangeEnds, type RunAt } from '../domain/history.js';
import { fallsBackToCheckpointSummary, type Plan } from '../domain/planner.js';
import { deliveryFor, type ProviderDefinition } from '../domain/providers.js';
import type { ForkResolution } from '../domain/forks.js';
import type { HandoffReceipt } from '../domain/receipt.js';
import type {
  HandoffRecord,
  HandoffStrategy,
  OrdinalRange,
  ProviderThreadRecord,
  RunRecord,
  ThreadRecord,
  TransferActor,
  TransferRecord,
} from '../domain/records.js';
import {
  LOCAL_SUMMARY_WRITER,
  summarySourceFor,
  summaryWriterFor,
  type SummaryPolicy,
  type SummaryWriter,
} from '../domain/summaryPolicy.js';
import { createHandoff, type NewTransfer } from '../graph/repositories/handoffs.js';
import type { SummaryMaterial } from '../graph/repositories/planning.js';
import { threadById } from '../graph/repositories/threads.js';
import type { Tx } from '../graph/transactions.js';
import { newId } from './context.js';
import { readSummaryMaterial, summarize } from './summaries.js';

export interface RunContextRequest {
  plan: Plan;
  run: RunRecord;
  thread: ThreadRecord;
  provider: ProviderDefinition;
  providerThread: ProviderThreadRecord;
  /** The head run's provider thread and provider: the source of a switch, "the provider being left". */
  sourceProviderThreadId: string | null;
  leavingProvider: ProviderDefinition | null;
  /** For a delta: the last run the target knew. */
  baseOrdinal: number | null;
  /** The delta's source, already read while planning. */
  reusableSource: SummaryMaterial | null;
  /** A fork's pending transfer and how it resolved, at the fork's first run. */
  fork: { transfer: TransferRecord; resolution: ForkResolution } | null;
  subagentSpawn: TransferRecord | null;
  mergeBacks: TransferRecord[];
  /** Operator-written context replacing the summary (startRun's manualContext). */
  manualContext: string | null;
  policy: SummaryPolicy;
  createdBy: TransferActor;
}

export interface RunContext {
  handoff: HandoffRecord | null;
  /** The strategy actually written, when it differs from the plan's (a checkpoint summary fallback). */
  strategy: HandoffStrategy | null;
  /** Sentences to add to the plan's reasons. */
  reasons: string[];
}

export interface Part {
  text: string;
  strategy: HandoffStrategy;
  range: OrdinalRange;
  /** The first and last live run of the range, which its COVERS edges point to. */
  coverageEnds: RunAt[];
  sourceProviderThreadIds: string[];
  transfer: NewTransfer;
  source: string;
  /** Who is asked to write it; null: written now. */
  writer: string | null;
  createdByProvider: string | null;
  document: string | null;
  inputDigest: string | null;
  /** The receipt of `text`; null for a part someone is still to write, and for context a user wrote. */
  receipt: HandoffReceipt | null;
}

/** What a run's leading context is made of, before anything is written: what startRun writes and previewRun shows. */
export interface ComposedContext {
  /** The part the handoff is made for (its range, strategy and transfer), then those riding on it. */
  lead: Part;
  rest: Part[];
  /** The text delivered: empty while a writer is asked for it (the handoff is PENDING). */
  text: string;
  /** The strategy actually written, when it differs from the plan's (a checkpoint summary fallback). */
  strategy: HandoffStrategy | null;
  reasons: string[];
}

/** What a run's context needs before the run and its provider thread exist. */
export type ComposeRequest = Omit<RunContextRequest, 'run' | 'providerThread'> & { threadId: string };

/** The run's leading context, composed from reads only: writeRunContext writes it, previewRun answers it. */
export async function composeRunContext(
  tx: Tx,
  request: ComposeRequest,
): Promise<ComposedContext | { lead: null; strategy: null; reasons: string[] }> {
  const { parts: merges, leadBudget: remaining } = await mergeBackParts(tx, request.provider, request.mergeBacks);
  const reasons: string[] = [];
  const main =
    manualPart(request) ??
    (await switchPart(tx, request, remaining, merges.length > 0, reasons)) ??
    subagentTaskPart(request, remaining);
  const [lead, ...rest] = main ? [main, ...merges] : merges;
  if (!lead) return { lead: null, strategy: null, reasons };
  const text = lead.writer ? '' : [lead.text, ...rest.map((part) => part.text)].join('\n\n');
  return { lead, rest, text, strategy: main === lead ? lead.strategy : null, reasons };
}

export async function writeRunContext(tx: Tx, request: RunContextRequest): Promise<RunContext> {
  const composed = await composeRunContext(tx, { ...request, threadId: request.run.threadId });
  if (!composed.lead) return { handoff: null, strategy: null, reasons: composed.reasons };
  const { lead, rest, text } = composed;
  const handoff = await createHandoff(
    tx,
    {
      id: newId('ho'),
      threadId: request.run.threadId,
      targetRunId: request.run.id,
      fromProviderThreadIds: lead.sourceProviderThreadIds.filter((id) => id !== request.providerThread.id),
      toProviderThreadId: request.providerThread.id,
      coveredFrom: lead.range.from,
      coveredTo: lead.range.to,
      strategy: lead.strategy,
      summaryText: text,
      status: lead.writer ? 'pending' : 'ready',
      createdByProvider: lead.createdByProvider,
      delivery: deliveryFor(request.provider.capabilities),
      source: lead.source,
      targetProvider: request.provider.id,
      writer: lead.writer,
      inputDocument: lead.document,
      inputDigest: lead.inputDigest,
      budgetChars: request.provider.capabilities.maxRecommendedHandoffChars,
      omissions: [],
      receipt: lead.writer ? null : lead.receipt,
    },
    lead.transfer,
    lead.coverageEnds,
    rest.map((part) => part.transfer.id),
  );
  return { handoff, strategy: composed.strategy, reasons: composed.reasons };
}

/** The planner's handoff: a switch, or a fork's portable context at its first run. */
async function switchPart(
  tx: Tx,
  request: ComposeRequest,
  budget: number | null,
  withMergeBacks: boolean,
  reasons: string[],
): Promise<Part | null> {
  const { plan, threadId, thread, provider } = request;
  if (!plan.handoffStrategy || !plan.coveredRunOrdinals) return null;
  const range = plan.coveredRunOrdinals;
  const isDelta = plan.handoffStrategy === 'delta_since_target_last_seen';
  const summaryRequest = {
    threadId,
    title: thread.title,
    range,
    strategy: plan.handoffStrategy,
    targetProvider: provider.id,
    budgetChars: budget,
  };
  const source =
    isDelta && request.reusableSource ? request.reusableSource : await readSummaryMaterial(tx, thread, summaryRequest);
  const summaryOf = (strategy: HandoffStrategy) => summarize(source, { ...summaryRequest, strategy });
  let strategy = plan.handoffStrategy;
  let summary = summaryOf(strategy);
  if (fallsBackToCheckpointSummary(strategy, summary.cut, source.latestCheckpoint !== null)) {
    strategy = 'checkpoint_summary';
    summary = summaryOf(strategy);
    reasons.push(
      `Even a fully condensed full-thread summary exceeds ${budget} characters, so a checkpoint summary is sent instead.`,
    );
  }
  const writer = writerFor(request, withMergeBacks, reasons);
  return {
    text: summary.text,
    strategy,
    range,
    coverageEnds: rangeEnds(thread, range),
    sourceProviderThreadIds: summary.sourceProviderThreadIds,
    transfer: planTransfer(request, range, isDelta),
    source: writer.label,
    writer: writer.name,
    createdByProvider: writer.createdByProvider,
    document: summary.document,
    inputDigest: summary.inputDigest,
    receipt: summary.receipt,
  };
}

/** Who writes the switch summary under the policy; local when the named writer cannot. */
function writerFor(request: ComposeRequest, withMergeBacks: boolean, reasons: string[]): SummaryWriter {
  const choice = summarySourceFor(request.policy, request.provider.id) ?? { kind: 'local' };
  if (choice.kind !== 'local' && withMergeBacks) {
    reasons.push('A merge-back rides on this handoff, so the local summarizer writes it in one piece.');
    return LOCAL_SUMMARY_WRITER;
  }
  const writer = summaryWriterFor(choice, { leaving: request.leavingProvider, entering: request.provider });
  if (writer.reason) reasons.push(writer.reason);
  return writer;
}

function planTransfer(request: ComposeRequest, range: OrdinalRange, isDelta: boolean): NewTransfer {
  const { threadId, provider } = request;
  const fork =
    request.fork?.resolution.kind === 'portable'
      ? { transfer: request.fork.transfer, resolution: request.fork.resolution }
      : null;
  if (fork)
    return { ...existingTransfer(fork.transfer), resolution: fork.resolution.resolution, targetProvider: provider.id };
  // Whatever a subagent's first run is given instead of its task, that context resolves the spawn.
  if (request.subagentSpawn) return spawnTransfer(request, request.subagentSpawn);
  return {
    id: newId('tr'),
    kind: 'provider_handoff',
    sourceThreadId: threadId,
    targetThreadId: threadId,
    sourceRunOrdinal: range.to,
    sourceProviderThreadId: request.sourceProviderThreadId,
    baseRunOrdinal: request.baseOrdinal,
    sourceProvider: null,
    targetProvider: provider.id,
    status: 'consumed',
    resolution: isDelta ? 'delta_context' : 'portable_context',
    createdBy: request.createdBy,
  };
}

/** Operator-written context, over the range the planner chose (nothing when it chose none). */
function manualPart(request: ComposeRequest): Part | null {
  if (request.manualContext === null) return null;
  const range = request.plan.coveredRunOrdinals ?? { from: 0, to: 0 };
  return userWrittenPart(request.manualContext, range, {
    coverageEnds: request.plan.coveredRunOrdinals ? rangeEnds(request.thread, range) : [],
    transfer: { ...planTransfer(request, range, false), createdBy: 'user' },
  });
}

/** A subagent's first run: its task, as written, is the whole context. */
function subagentTaskPart(request: ComposeRequest, budget: number | null): Part | null {
  const spawn = request.subagentSpawn;
  if (!spawn) return null;
  const task = spawn.contextText ?? '';
  const text = budget === null ? task : task.slice(0, Math.max(0, budget));
  return userWrittenPart(text, { from: 0, to: 0 }, { coverageEnds: [], transfer: spawnTransfer(request, spawn) });
}

/** Context a user (or the spawning run, for a subagent) wrote: delivered as written, with no summary behind it. */
function userWrittenPart(
  text: string,
  range: OrdinalRange,
  { coverageEnds, transfer }: Pick<Part, 'coverageEnds' | 'transfer'>,
): Part {
  return {
    text,
    strategy: 'manual_context',
    range,
    coverageEnds,
    sourceProviderThreadIds: [],
    transfer,
    source: 'user',
    writer: null,
    createdByProvider: null,
    document: null,
    inputDigest: null,
    receipt: null,
  };
}

function spawnTransfer(request: ComposeRequest, spawn: TransferRecord): NewTransfer {
  return { ...existingTransfer(spawn), resolution: 'portable_context', targetProvider: request.provider.id };
}

/**
 * The merge-backs a handoff delivers, each summarized within its share of half the target's
 * budget, their text joined, and the budget left for the part they ride on.
 */
export async function mergeBackParts(
  tx: Tx,
  provider: ProviderDefinition,
  transfers: TransferRecord[],
): Promise<{ parts: Part[]; text: string; leadBudget: number | null }> {
  const budget = provider.capabilities.maxRecommendedHandoffChars;
  const share = budget === null ? null : Math.floor(budget / 2 / Math.max(1, transfers.length));
  const parts = await Promise.all(transfers.map((transfer) => mergeBackPart(tx, provider, transfer, share)));
  const text = parts.map((part) => part.text).join('\n\n');
  return { parts, text, leadBudget: budget === null ? null : budget - text.length - (text ? 2 : 0) };
}

/** A fork's work since its fork point: decisions, files, commands and tests, conclusions, open issues. */
async function mergeBackPart(
  tx: Tx,
  provider: ProviderDefinition,
  transfer: TransferRecord,
  budget: number | null,
): Promise<Part> {
  const fork = await threadById(tx, transfer.sourceThreadId);
  const range = { from: (transfer.basePoint?.runOrdinal ?? 0) + 1, to: transfer.sourcePoint.runOrdinal ?? 0 };
  const summaryRequest = {
    threadId: fork.id,
    title: fork.title,
    range,
    strategy: 'fork_delta_summary' as const,
    targetProvider: provider.id,
    budgetChars: budget,
  };
  const summary = summarize(await readSummaryMaterial(tx, fork, summaryRequest), summaryRequest);
  return {
    text: summary.text,
    strategy: 'fork_delta_summary',
    range,
    coverageEnds: rangeEnds(fork, range),
    sourceProviderThreadIds: summary.sourceProviderThreadIds,
    transfer: { ...existingTransfer(transfer), resolution: 'delta_context', targetProvider: provider.id },
    source: 'local',
    writer: null,
    createdByProvider: null,
    document: summary.document,
    inputDigest: summary.inputDigest,
    receipt: summary.receipt,
  };
}

/** A transfer that exists already, as createHandoff resolves it (consumed by this handoff). */
export function existingTransfer(transfer: TransferRecord): NewTransfer {
  return {
    id: transfer.id,
    kind: transfer.kind,
    sourceThreadId: transfer.sourceThreadId,
    targetThreadId: transfer.targetThreadId,
    sourceRunOrdinal: transfer.sourcePoint.runOrdinal,
    sourceProviderThreadId: transfer.sourcePoint.providerThreadId,
    baseRunOrdinal: transfer.basePoint?.runOrdinal ?? null,
    sourceProvider: transfer.sourceProvider,
    targetProvider: transfer.targetProvider,
    status: 'consumed',
    resolution: transfer.resolution,
    createdBy: transfer.createdBy,
  };
}
