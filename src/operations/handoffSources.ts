// Handoffs written by someone other than the local summarizer: a provider (the one being left or
// entered) through submitHandoffSummary, or a configured chat-completions summarizer. Whatever they
// write is checked for dropped facts; whatever fails or never arrives is replaced by a local summary,
// so a run is never stuck. Regeneration writes a new handoff; nothing is edited in place.
import { ThreadlineError, badInput, notFound, present } from '../domain/errors.js';
import { rangeEnds } from '../domain/history.js';
import { appendOmissions, findOmissions } from '../domain/omissions.js';
import { deliveryFor, type ProviderDefinition } from '../domain/providers.js';
import type { HandoffRecord, TransferRecord } from '../domain/records.js';
import {
  LOCAL_SUMMARY_WRITER,
  summarySourceFor,
  summaryWriterFor,
  type SummarySource,
  type SummaryWriter,
} from '../domain/summaryPolicy.js';
import {
  createHandoff,
  expiredPendingHandoffs,
  failHandoff,
  handoffsByIds,
  mergeBacksCarriedBy,
  replaceHandoff,
  submitHandoff,
  transferById,
  transfersByIds,
} from '../graph/repositories/handoffs.js';
import { recordChange } from '../graph/repositories/changes.js';
import { providerThreadsByIds } from '../graph/repositories/providerThreads.js';
import { appendPlanReason } from '../graph/repositories/runs.js';
import { lockThreadOf, type LockedThread } from '../graph/repositories/threads.js';
import type { Graph, Tx } from '../graph/transactions.js';
import { SummarizerError } from '../summarizers/chatCompletions.js';
import { newId, type OperationContext } from './context.js';
import { existingTransfer, mergeBackParts } from './runContext.js';
import { readSummaryMaterial, receiptOf, summarize } from './summaries.js';

const REGENERABLE = new Set(['delta_since_target_last_seen', 'full_thread_summary', 'checkpoint_summary']);

/** A provider's text for a PENDING handoff: checked against the budget and for omissions, then READY. */
export async function submitHandoffSummary(
  context: OperationContext,
  handoffId: string,
  summaryText: string,
  createdByProvider: string,
): Promise<HandoffRecord> {
  return context.graph.write(async (tx) => {
    const { thread, handoff } = await lockedHandoff(tx, handoffId);
    if (handoff.status !== 'pending')
      throw new ThreadlineError('CONFLICT', `Handoff ${handoffId} is ${handoff.status}, not waiting for a summary.`);
    if (handoff.budgetChars !== null && summaryText.length > handoff.budgetChars) {
      throw badInput(
        'summaryText',
        `must fit the target's budget of ${handoff.budgetChars} characters (got ${summaryText.length})`,
      );
    }
    const submitted = await completeWithText(tx, thread, handoff, summaryText, createdByProvider);
    if (!submitted)
      throw new ThreadlineError('CONFLICT', `Handoff ${handoffId} was replaced before its summary arrived.`);
    return submitted;
  });
}

/**
 * Calls the configured summarizer for a PENDING handoff, then makes it READY, or FAILED and replaced
 * locally. It runs after the transaction that created the handoff committed, so it never throws: when
 * the write that follows fails, the handoff stays PENDING, and the sweep of expired handoffs replaces
 * it with a local summary as it does for a summary that never arrives. The caller answers what it
 * committed.
 */
export async function writeWithConfiguredSummarizer(context: OperationContext, handoff: HandoffRecord): Promise<void> {
  await summarizeAndWrite(context, handoff).catch(() => undefined);
}

async function summarizeAndWrite(context: OperationContext, handoff: HandoffRecord): Promise<void> {
  const request = present(handoff.summaryRequest, `summary request of handoff ${handoff.id}`);
  const name = request.writer;
  const summarizer = context.summaries.summarizers.get(name);
  let text: string;
  try {
    if (!summarizer) throw new SummarizerError(name, 'invalid_response', `summarizer ${name} is not configured`);
    text = await summarizer.summarize({
      document: request.document,
      budgetChars: handoff.budgetChars,
      targetProvider: request.targetProvider,
      strategy: handoff.strategy,
    });
    if (handoff.budgetChars !== null && text.length > handoff.budgetChars) {
      throw new SummarizerError(
        name,
        'invalid_response',
        `the summary has ${text.length} characters, over the budget of ${handoff.budgetChars}`,
      );
    }
  } catch (error) {
    const reason =
      error instanceof SummarizerError ? `${error.reason}: ${error.message}` : `error: ${(error as Error).message}`;
    await failAndReplaceWithLocal(
      context.graph,
      context,
      handoff.id,
      `summarizer ${name} failed (${reason})`,
      'summarizer_failed',
    );
    return;
  }
  // A summary that arrives after the handoff expired (or was regenerated or withdrawn) is dropped:
  // what replaced it stands, and the start or regeneration that asked for it did happen.
  await context.graph.write(async (tx) => {
    const locked = await lockedHandoff(tx, handoff.id);
    return completeWithText(tx, locked.thread, locked.handoff, text, name);
  });
}

/** A new handoff with the same coverage, target run and provider thread, from `source` (default: the policy's). */
export async function regenerateHandoff(
  context: OperationContext,
  handoffId: string,
  source: string | null,
): Promise<HandoffRecord> {
  const created = await context.graph.write(async (tx) => {
    // Regenerations of one handoff, and a rollback withdrawing it, serialize on its thread's lock.
    const { thread, handoff: old } = await lockedHandoff(tx, handoffId);
    if (old.status !== 'ready' && old.status !== 'pending')
      throw new ThreadlineError(
        'CONFLICT',
        `Handoff ${handoffId} is ${old.status}; only a standing handoff can be regenerated.`,
      );
    const target = await targetProviderOf(tx, context, old);
    const mergeBacks = await mergeBacksCarriedBy(tx, old.id);
    const choice = regenerationSource(context, target, source, mergeBacks.length > 0);
    // Who writes it is decided as at a run's start: a provider that cannot write summaries leaves it local.
    const writer = summaryWriterFor(choice, {
      leaving: choice.kind === 'leaving' ? await leavingProviderOf(tx, context, old) : null,
      entering: target,
    });
    const handoff = await writeReplacement(tx, thread, old, target, writer, mergeBacks);
    if (!(await replaceHandoff(tx, old.id, handoff.id, 'regenerated')))
      throw new ThreadlineError('CONFLICT', `Handoff ${handoffId} was replaced meanwhile; regenerate its replacement.`);
    // Why the local summarizer wrote it instead of the provider asked (nothing when it was asked for).
    if (writer.name === null && writer.reason)
      await appendPlanReason(tx, old.targetRunId, `Handoff ${old.id} regenerated: ${writer.reason}`);
    await recordChange(tx, old.threadId, 'handoff_replaced');
    return { ...handoff, supersedesId: old.id };
  });
  if (created.status === 'pending' && created.source.startsWith('configured:')) {
    await writeWithConfiguredSummarizer(context, created);
    return context.graph.read(async (tx) =>
      present(await handoffById(tx, created.id), `handoff ${created.id} after its summarizer`),
    );
  }
  return created;
}

/**
 * Who writes a regenerated handoff: `source`, else the policy's. A handoff that also delivers
 * merge-backs is written locally in one piece, as at the run's start, so only local can be asked.
 */
function regenerationSource(
  context: OperationContext,
  target: ProviderDefinition,
  source: string | null,
  withMergeBacks: boolean,
): SummarySource {
  const choice = summarySourceFor(context.summaries.policy, target.id, source);
  if (!choice)
    throw badInput(
      'source',
      `unknown summary source ${JSON.stringify(source)}; use local, leaving, entering or a configured summarizer`,
    );
  if (!withMergeBacks || choice.kind === 'local') return choice;
  if (source !== null)
    throw badInput(
      'source',
      'the handoff also delivers a merge-back, which only the local summarizer writes together with it',
    );
  return { kind: 'local' };
}

/**
 * Marks a PENDING handoff FAILED with its reason and supersedes it with a local summary; null when
 * it no longer was pending (submitted, regenerated, withdrawn, or failed by another instance's sweep).
 * It serializes on the thread's lock like every other path that replaces a handoff, and checks the
 * handoff's status only once the lock is held.
 */
export async function failAndReplaceWithLocal(
  graph: Graph,
  context: OperationContext,
  handoffId: string,
  reason: string,
  endedBecause: 'expired' | 'summarizer_failed',
): Promise<HandoffRecord | null> {
  return graph.write(async (tx) => {
    const locked = await lockThreadOf(tx, () => handoffById(tx, handoffId));
    if (!locked) return null;
    const failed = await failHandoff(tx, handoffId, reason, endedBecause);
    if (!failed) return null;
    const target = await targetProviderOf(tx, context, failed);
    const local = await writeReplacement(
      tx,
      locked.thread,
      failed,
      target,
      LOCAL_SUMMARY_WRITER,
      await mergeBacksCarriedBy(tx, failed.id),
    );
    if (!(await replaceHandoff(tx, failed.id, local.id, endedBecause)))
      throw new ThreadlineError('CONFLICT', `Handoff ${handoffId} was replaced meanwhile.`);
    await appendPlanReason(
      tx,
      failed.targetRunId,
      `Handoff ${failed.id} from ${failed.source} failed (${reason}); a local summary replaced it.`,
    );
    await recordChange(tx, failed.threadId, 'handoff_replaced');
    return local;
  });
}

/**
 * Fails every PENDING handoff of `tenants` that was older than the policy allows at `now` and
 * replaces it with a local summary; returns how many this call replaced. Several instances may sweep
 * at once: each expired handoff is replaced by exactly one of them, and the others count nothing for it.
 */
export async function sweepExpiredHandoffs(
  rootGraph: Graph,
  contextFor: (tenant: string) => OperationContext,
  tenants: readonly string[],
  now: Date,
): Promise<number> {
  const timeout = contextFor('').summaries.policy.pendingTimeoutSeconds;
  const expired = await rootGraph.read((tx) => expiredPendingHandoffs(tx, tenants, now, timeout));
  let replaced = 0;
  for (const { tenant, id } of expired) {
    const context = contextFor(tenant);
    if (await failAndReplaceWithLocal(context.graph, context, id, `not submitted within ${timeout} s`, 'expired'))
      replaced += 1;
  }
  return replaced;
}

async function handoffById(tx: Tx, id: string): Promise<HandoffRecord | undefined> {
  return (await handoffsByIds(tx, [id]))[0];
}

/** Handoff `id`, read once its thread's lock is held, with that thread as the lock read it. */
async function lockedHandoff(tx: Tx, id: string): Promise<{ thread: LockedThread; handoff: HandoffRecord }> {
  const locked = await lockThreadOf(tx, () => handoffById(tx, id));
  if (!locked) throw notFound('ContextHandoff', id);
  return { thread: locked.thread, handoff: locked.record };
}

/** Null when the handoff no longer was pending. */
async function completeWithText(
  tx: Tx,
  thread: LockedThread,
  handoff: HandoffRecord,
  text: string,
  createdByProvider: string,
): Promise<HandoffRecord | null> {
  const [transfer] = await transfersByIds(tx, [handoff.transferId]);
  const request = {
    threadId: handoff.threadId,
    title: thread.title,
    range: handoff.coveredRunOrdinals,
    strategy: handoff.strategy,
    targetProvider: transfer?.targetProvider ?? '',
    budgetChars: handoff.budgetChars,
  };
  const covered = await readSummaryMaterial(tx, thread, request);
  const omissions = findOmissions(text, covered);
  const delivered = appendOmissions(text, omissions, handoff.budgetChars);
  const submitted = await submitHandoff(
    tx,
    handoff.id,
    delivered,
    createdByProvider,
    omissions,
    receiptOf(covered, request, delivered),
  );
  if (submitted) await recordChange(tx, handoff.threadId, 'handoff_ready');
  return submitted;
}

/**
 * Writes a handoff like `old` (same run, coverage, provider thread and transfer) by a new writer;
 * it takes over delivering the merge-backs `old` carried.
 */
async function writeReplacement(
  tx: Tx,
  thread: LockedThread,
  old: HandoffRecord,
  target: ProviderDefinition,
  writer: SummaryWriter,
  mergeBacks: TransferRecord[],
): Promise<HandoffRecord> {
  if (!REGENERABLE.has(old.strategy))
    throw badInput('handoffId', `a ${old.strategy} handoff has no summary to write again`);
  const transfer = await transferById(tx, old.transferId);
  const merges = await mergeBackParts(tx, target, mergeBacks);
  const range = old.coveredRunOrdinals;
  const summaryRequest = {
    threadId: old.threadId,
    title: thread.title,
    range,
    strategy: old.strategy,
    targetProvider: target.id,
    budgetChars: merges.leadBudget,
  };
  const summary = summarize(await readSummaryMaterial(tx, thread, summaryRequest), summaryRequest);
  return createHandoff(
    tx,
    {
      id: newId('ho'),
      threadId: old.threadId,
      targetRunId: old.targetRunId,
      fromProviderThreadIds: old.fromProviderThreadIds,
      toProviderThreadId: old.toProviderThreadId,
      coveredFrom: range.from,
      coveredTo: range.to,
      strategy: old.strategy,
      summaryText: writer.name ? '' : merges.text ? `${summary.text}\n\n${merges.text}` : summary.text,
      status: writer.name ? 'pending' : 'ready',
      createdByProvider: writer.createdByProvider,
      delivery: deliveryFor(target.capabilities),
      source: writer.label,
      targetProvider: target.id,
      writer: writer.name,
      inputDocument: summary.document,
      inputDigest: summary.inputDigest,
      budgetChars: target.capabilities.maxRecommendedHandoffChars,
      omissions: [],
      receipt: writer.name ? null : summary.receipt,
    },
    { ...existingTransfer(transfer), status: transfer.status, resolution: transfer.resolution },
    rangeEnds(thread, range),
    merges.parts.map((part) => part.transfer.id),
  );
}

async function targetProviderOf(
  tx: Tx,
  context: OperationContext,
  handoff: HandoffRecord,
): Promise<ProviderDefinition> {
  const [providerThread] = await providerThreadsByIds(tx, [handoff.toProviderThreadId]);
  const provider = providerThread && context.providers.get(providerThread.provider);
  if (!provider)
    throw new ThreadlineError('CONFLICT', `The provider of handoff ${handoff.id} is no longer configured.`);
  return provider;
}

/** The provider that served the last covered run: the one being left; null when none is (configured). */
async function leavingProviderOf(
  tx: Tx,
  context: OperationContext,
  handoff: HandoffRecord,
): Promise<ProviderDefinition | null> {
  const [providerThread] = await providerThreadsByIds(tx, handoff.fromProviderThreadIds.slice(-1));
  return (providerThread && context.providers.get(providerThread.provider)) ?? null;
}
