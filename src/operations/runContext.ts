// The leading context a run receives, composed from everything that crosses into it: the planner's
// switch handoff (or a fork's portable context), a subagent's task, and pending merge-backs. One
// handoff carries all parts and is linked to every transfer it resolves.
import { segmentsFor, type HistorySegment } from '../domain/history.js';
import type { Plan } from '../domain/planner.js';
import { deliveryFor, type ProviderDefinition } from '../domain/providers.js';
import type { ForkResolution } from '../domain/forks.js';
import type { HandoffRecord, HandoffStrategy, OrdinalRange, ProviderThreadRecord, RunRecord, ThreadRecord, TransferActor, TransferRecord } from '../domain/records.js';
import { createHandoff, type NewTransfer } from '../graph/repositories/handoffs.js';
import type { SummarySource } from '../graph/repositories/planning.js';
import { threadsByIds } from '../graph/repositories/threads.js';
import type { Tx } from '../graph/transactions.js';
import { newId } from './context.js';
import { readSummarySource, summarize } from './summaries.js';

export interface RunContextRequest {
  plan: Plan;
  run: RunRecord;
  thread: ThreadRecord;
  provider: ProviderDefinition;
  providerThread: ProviderThreadRecord;
  /** The head run's provider thread, the source of a switch. */
  sourceProviderThreadId: string | null;
  /** For a delta: the last run the target knew. */
  baseOrdinal: number | null;
  /** The delta's source, already read while planning. */
  reusableSource: SummarySource | null;
  /** A fork's pending transfer and how it resolved, at the fork's first run. */
  fork: { transfer: TransferRecord; resolution: ForkResolution } | null;
  subagentSpawn: TransferRecord | null;
  mergeBacks: TransferRecord[];
  createdBy: TransferActor;
}

interface Part {
  text: string;
  strategy: HandoffStrategy;
  range: OrdinalRange;
  segments: HistorySegment[];
  sourceProviderThreadIds: string[];
  transfer: NewTransfer;
}

export async function writeRunContext(tx: Tx, request: RunContextRequest): Promise<HandoffRecord | null> {
  const budget = request.provider.capabilities.maxRecommendedHandoffChars;
  // Merge-backs get at most half the budget together; the switch handoff gets the rest.
  const mergeBudget = budget === null ? null : Math.floor(budget / 2 / Math.max(1, request.mergeBacks.length));
  const merges = await Promise.all(request.mergeBacks.map((transfer) => mergeBackPart(tx, request, transfer, mergeBudget)));
  const mergeText = merges.map((part) => part.text).join('\n\n');
  const remaining = budget === null ? null : budget - mergeText.length - (mergeText ? 2 : 0);
  const main = (await switchPart(tx, request, remaining)) ?? subagentTaskPart(request, remaining);
  const [lead, ...rest] = main ? [main, ...merges] : merges;
  if (!lead) return null;
  const text = [lead.text, ...rest.map((part) => part.text)].join('\n\n');
  return createHandoff(
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
      status: 'ready',
      createdByProvider: null,
      delivery: deliveryFor(request.provider.capabilities),
    },
    lead.transfer,
    lead.segments,
    rest.map((part) => part.transfer.id),
  );
}

/** The planner's handoff: a switch, or a fork's portable context at its first run. */
async function switchPart(tx: Tx, request: RunContextRequest, budget: number | null): Promise<Part | null> {
  const { plan, run, thread, provider } = request;
  if (!plan.handoffStrategy || !plan.coveredRunOrdinals) return null;
  const range = plan.coveredRunOrdinals;
  const isDelta = plan.handoffStrategy === 'delta_since_target_last_seen';
  const source = isDelta && request.reusableSource ? request.reusableSource : await readSummarySource(tx, thread, range, budget);
  const summary = summarize(source, { threadId: run.threadId, title: thread.title, range, strategy: plan.handoffStrategy, targetProvider: provider.id, budgetChars: budget });
  const fork = request.fork?.resolution.kind === 'portable' ? { transfer: request.fork.transfer, resolution: request.fork.resolution } : null;
  return {
    text: summary.text,
    strategy: plan.handoffStrategy,
    range,
    segments: segmentsFor(thread, range),
    sourceProviderThreadIds: summary.sourceProviderThreadIds,
    transfer: fork
      ? { ...existingTransfer(fork.transfer), resolution: fork.resolution.resolution, targetProvider: provider.id }
      : {
          id: newId('tr'),
          kind: 'provider_handoff',
          sourceThreadId: run.threadId,
          targetThreadId: run.threadId,
          sourceRunOrdinal: range.to,
          sourceProviderThreadId: request.sourceProviderThreadId,
          baseRunOrdinal: request.baseOrdinal,
          sourceProvider: null,
          targetProvider: provider.id,
          status: 'consumed',
          resolution: isDelta ? 'delta_context' : 'portable_context',
          createdBy: request.createdBy,
        },
  };
}

/** A subagent's first run: its task, as written, is the whole context. */
function subagentTaskPart(request: RunContextRequest, budget: number | null): Part | null {
  const spawn = request.subagentSpawn;
  if (!spawn) return null;
  const task = spawn.contextText ?? '';
  return {
    text: budget === null ? task : task.slice(0, Math.max(0, budget)),
    strategy: 'manual_context',
    range: { from: 0, to: 0 },
    segments: [],
    sourceProviderThreadIds: [],
    transfer: { ...existingTransfer(spawn), resolution: 'portable_context', targetProvider: request.provider.id },
  };
}

/** A fork's work since its fork point: decisions, files, commands and tests, conclusions, open issues. */
async function mergeBackPart(tx: Tx, request: RunContextRequest, transfer: TransferRecord, budget: number | null): Promise<Part> {
  const [fork] = await threadsByIds(tx, [transfer.sourceThreadId]);
  const range = { from: (transfer.basePoint?.runOrdinal ?? 0) + 1, to: transfer.sourcePoint.runOrdinal ?? 0 };
  const source = await readSummarySource(tx, fork!, range, budget);
  const summary = summarize(source, { threadId: fork!.id, title: fork!.title, range, strategy: 'fork_delta_summary', targetProvider: request.provider.id, budgetChars: budget });
  return {
    text: summary.text,
    strategy: 'fork_delta_summary',
    range,
    segments: segmentsFor(fork!, range),
    sourceProviderThreadIds: summary.sourceProviderThreadIds,
    transfer: { ...existingTransfer(transfer), resolution: 'delta_context', targetProvider: request.provider.id },
  };
}

function existingTransfer(transfer: TransferRecord): NewTransfer {
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
