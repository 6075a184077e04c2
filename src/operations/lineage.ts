// Rollback, fork, merge-back and subagents (docs/design.md, "Rollback", "Fork" and
// "The wider lineage model"): each one transaction under the thread's lock.
import { ThreadlineError, assertNoRunningRun, badInput, notFound, present } from '../domain/errors.js';
import { rollbackDecision, servedAfterRollback } from '../domain/coverage.js';
import {
  inheritedByFork,
  rolledBackAfterRollback,
  rolledBackInheritedByFork,
  withdrawnByRollback,
} from '../domain/history.js';
import { firstOrdinals } from '../domain/ranges.js';
import { deliveryFor, knownProvider } from '../domain/providers.js';
import { STABLE_RUN_STATUSES } from '../domain/standing.js';
import type {
  OrdinalRange,
  ProviderThreadRecord,
  ProviderThreadRollbackRecord,
  RollbackResult,
  ThreadRecord,
  TransferRecord,
} from '../domain/records.js';
import {
  childrenOf,
  createChildThread,
  createMergeBack,
  lookUpSourcePoint,
  providerThreadsAffectedByRollback,
  recordSubagentResult,
  rollBackRuns,
  liveRunAt,
  setRollbackStatuses,
  settleProviderRollback,
  supersedeRolledBackHandoffs,
  withdrawMergeBacks,
  type SourceRun,
} from '../graph/repositories/lineage.js';
import { recordChange } from '../graph/repositories/changes.js';
import { providerThreadsByIds } from '../graph/repositories/providerThreads.js';
import { lockRunForUpdate } from '../graph/repositories/runs.js';
import { lockThread, lockThreadOf, threadsByIds } from '../graph/repositories/threads.js';
import type { Tx } from '../graph/transactions.js';
import { newId, type OperationContext } from './context.js';

/** A rollback answers with at most this many of the runs it rolled back; the count and ranges give the rest. */
const ROLLED_BACK_RUNS_PAGE = 100;

export async function rollbackThread(
  context: OperationContext,
  threadId: string,
  toOrdinal: number,
): Promise<RollbackResult> {
  return context.graph.write(async (tx) => {
    const thread = await lockThread(tx, threadId);
    assertNoRunningRun(thread);
    await requireRollbackPoint(tx, thread, toOrdinal);

    const withdrawn = withdrawnByRollback(thread, toOrdinal);
    const rolledBack = await rollBackRuns(tx, threadId, toOrdinal, {
      withdrawn,
      rolledBackBefore: thread.rolledBack,
      rolledBack: rolledBackAfterRollback(thread, toOrdinal),
      pageOrdinals: firstOrdinals(withdrawn, ROLLED_BACK_RUNS_PAGE),
    });
    const supersededHandoffs = await supersedeRolledBackHandoffs(tx, threadId, toOrdinal);
    await withdrawMergeBacks(tx, threadId, toOrdinal);
    const affected = await providerThreadsAffectedByRollback(tx, threadId, toOrdinal, [
      ...new Set(supersededHandoffs.map((handoff) => handoff.toProviderThreadId)),
    ]);
    const decisions = affected.map((providerThread) => {
      const canRollBack = context.providers.get(providerThread.provider)?.capabilities.canRollbackThread ?? false;
      return {
        providerThread,
        ...rollbackDecision(canRollBack, providerThread.served, providerThread.inheritedThroughOrdinal, toOrdinal),
        served: servedAfterRollback(providerThread.served, toOrdinal),
      };
    });
    const updated = new Map(
      (
        await setRollbackStatuses(
          tx,
          decisions.map(({ providerThread, action, reason, served }) => ({
            id: providerThread.id,
            status: action,
            reason,
            served,
          })),
        )
      ).map((pt) => [pt.id, pt]),
    );
    const providerThreads: ProviderThreadRollbackRecord[] = decisions.map(
      ({ providerThread, turnsToDrop, action }) => ({
        providerThread: updated.get(providerThread.id) ?? providerThread,
        action,
        nativeRollback:
          action === 'rolled_back'
            ? {
                providerThreadId: providerThread.id,
                nativeThreadRef: providerThread.nativeThreadRef,
                turnsToDrop,
                toOrdinal,
              }
            : null,
      }),
    );
    await recordChange(tx, threadId, 'rolled_back');
    const [after] = await threadsByIds(tx, [threadId]);
    return {
      thread: present(after, `thread ${threadId} after its rollback`),
      rolledBackRanges: withdrawn,
      rolledBackRunCount: rolledBack.rolledBackRunCount,
      rolledBackRuns: rolledBack.page,
      supersededHandoffs,
      providerThreads,
    };
  });
}

/** 0, or a live run below the head; a fork cannot roll back into what it inherited. */
async function requireRollbackPoint(tx: Tx, thread: ThreadRecord, toOrdinal: number): Promise<void> {
  if (!Number.isInteger(toOrdinal) || toOrdinal < 0 || toOrdinal >= thread.headOrdinal) {
    throw badInput('toOrdinal', `must be 0 or the ordinal of a live run below the head (${thread.headOrdinal})`);
  }
  if (toOrdinal === 0 && thread.forkOrdinal === 0) return;
  if (toOrdinal < thread.forkOrdinal || (toOrdinal === 0 && thread.forkOrdinal > 0)) {
    throw badInput('toOrdinal', `a fork cannot roll back below its fork point (${thread.forkOrdinal})`);
  }
  if (toOrdinal === thread.forkOrdinal) return;
  const run = await liveRunAt(tx, thread, toOrdinal);
  if (!run) throw badInput('toOrdinal', `run ${toOrdinal} is not a live run of this thread`);
}

export async function confirmProviderRollback(
  context: OperationContext,
  providerThreadId: string,
): Promise<ProviderThreadRecord> {
  return settle(context, providerThreadId, 'idle', null);
}

export async function reportProviderRollbackFailure(
  context: OperationContext,
  providerThreadId: string,
  error: string,
): Promise<ProviderThreadRecord> {
  return settle(context, providerThreadId, 'divergent', error);
}

async function settle(
  context: OperationContext,
  id: string,
  status: 'idle' | 'divergent',
  error: string | null,
): Promise<ProviderThreadRecord> {
  return context.graph.write(async (tx) => {
    if (!(await lockThreadOf(tx, async () => (await providerThreadsByIds(tx, [id]))[0])))
      throw notFound('ProviderThread', id);
    const settled = await settleProviderRollback(tx, id, status, error);
    if (!settled.settles)
      throw new ThreadlineError(
        'CONFLICT',
        `Provider thread ${id} is ${settled.providerThread.status}, not awaiting a native rollback.`,
      );
    await recordChange(tx, settled.providerThread.threadId, 'provider_rollback_settled');
    return settled.providerThread;
  });
}

export interface ForkInput {
  sourceThreadId: string;
  fromOrdinal: number | null;
  checkpointId: string | null;
  providerThreadId: string | null;
  id: string | null;
  title: string | null;
}

/** A new app thread from a stable source point: lineage, a FORKED_FROM edge and a pending transfer, nothing else. */
export async function forkThread(context: OperationContext, input: ForkInput): Promise<ThreadRecord> {
  const chosen = [input.fromOrdinal, input.checkpointId, input.providerThreadId].filter((value) => value !== null);
  if (chosen.length > 1) throw badInput('input', 'give at most one of fromOrdinal, checkpointId and providerThreadId');
  return context.graph.write(async (tx) => {
    const source = await lockThread(tx, input.sourceThreadId);
    const point = await resolveSourcePoint(tx, source, input);
    if (input.id !== null) await ensureUnusedThreadId(tx, input.id);
    await recordChange(tx, source.id, 'forked');
    return createChildThread(tx, {
      id: input.id ?? newId('th'),
      parentId: source.id,
      title: input.title,
      relationship: 'fork',
      source: {
        runId: point.run?.id ?? null,
        runOrdinal: point.ordinal,
        checkpointId: point.checkpointId,
        providerThreadId: point.checkpointId ? null : (input.providerThreadId ?? point.run?.providerThreadId ?? null),
      },
      forkOrdinal: point.ordinal,
      segments: inheritedByFork(source, point.ordinal),
      rolledBack: rolledBackInheritedByFork(source, point.ordinal),
      parentRolledBack: source.rolledBack,
      transferId: newId('tr'),
      transferKind: 'fork',
      targetProvider: null,
      contextText: null,
      createdBy: 'user',
      imported: false,
    });
  });
}

async function resolveSourcePoint(
  tx: Tx,
  source: ThreadRecord,
  input: ForkInput,
): Promise<{ ordinal: number; run: SourceRun | null; checkpointId: string | null }> {
  const found = await lookUpSourcePoint(tx, source.id, {
    ordinal: input.fromOrdinal,
    checkpointId: input.checkpointId,
    providerThreadId: input.providerThreadId,
  });
  if (input.checkpointId !== null) {
    // Unknown and another thread's checkpoints look alike: NOT_FOUND either way, as for any other id.
    if (!found?.checkpoint) throw notFound('Checkpoint', input.checkpointId);
    if (found.checkpoint.status !== 'current') throw badInput('checkpointId', 'the checkpoint was rolled back');
  }
  if (input.providerThreadId !== null && !found?.providerThreadId)
    throw notFound('ProviderThread', input.providerThreadId);
  if (input.providerThreadId !== null && found?.ordinal === null) {
    throw badInput('providerThreadId', 'not a provider thread of this thread that served a live run');
  }
  const ordinal = found?.ordinal ?? null;
  if (ordinal === null) {
    // The default: the newest stable own run, else the point this thread was itself forked at.
    if (found?.run) return { ordinal: found.run.ordinal, run: found.run, checkpointId: null };
    if (source.forkOrdinal > 0) return inheritedPoint(tx, source, source.forkOrdinal);
    throw badInput('sourceThreadId', 'the thread has no stable run to fork from');
  }
  if (!Number.isInteger(ordinal) || ordinal < 1 || ordinal > source.headOrdinal) {
    throw badInput('fromOrdinal', `must be the ordinal of a live run, 1..${source.headOrdinal}`);
  }
  if (ordinal <= source.forkOrdinal) return inheritedPoint(tx, source, ordinal);
  const run = found?.run;
  if (!run || run.status === 'rolled_back') throw badInput('fromOrdinal', `run ${ordinal} was rolled back`);
  if (!STABLE_RUN_STATUSES.includes(run.status))
    throw new ThreadlineError('CONFLICT', `Run ${ordinal} is still running; fork from a stable run.`);
  return { ordinal, run, checkpointId: input.checkpointId };
}

/**
 * A source point among the runs a fork inherited: they live in another thread of its lineage, and
 * only those live when the fork was made are its history.
 */
async function inheritedPoint(
  tx: Tx,
  source: ThreadRecord,
  ordinal: number,
): Promise<{ ordinal: number; run: SourceRun; checkpointId: null }> {
  const run = await liveRunAt(tx, source, ordinal);
  if (!run) throw badInput('fromOrdinal', `run ${ordinal} was rolled back before this thread was forked`);
  return { ordinal, run, checkpointId: null };
}

/** Offers the fork's work since its fork point back to the thread it was forked from. */
export async function mergeBack(context: OperationContext, forkThreadId: string): Promise<TransferRecord> {
  return context.graph.write(async (tx) => {
    const fork = await lockThread(tx, forkThreadId);
    if (fork.relationshipToParent !== 'fork') throw badInput('forkThreadId', 'not a fork');
    const latest = await lookUpSourcePoint(tx, fork.id, { ordinal: null, checkpointId: null, providerThreadId: null });
    if (!latest?.run) throw badInput('forkThreadId', 'the fork has no stable run of its own to merge back');
    const transfer = await createMergeBack(tx, fork.id, latest.run.ordinal, newId('tr'));
    await recordChange(tx, fork.id, 'merged_back');
    await recordChange(tx, transfer.targetThreadId, 'merged_back');
    return transfer;
  });
}

export interface SpawnInput {
  parentRunId: string;
  provider: string;
  task: string;
  id: string | null;
  title: string | null;
}

/** A child thread for a subagent of a running run; its first run receives the task. */
export async function spawnSubagent(context: OperationContext, input: SpawnInput): Promise<ThreadRecord> {
  knownProvider(context.providers, input.provider);
  return context.graph.write(async (tx) => {
    const locked = await lockRunForUpdate(tx, input.parentRunId);
    if (!locked) throw notFound('Run', input.parentRunId);
    if (locked.run.status !== 'running')
      throw new ThreadlineError(
        'CONFLICT',
        `Run ${input.parentRunId} is ${locked.run.status}; subagents work for a running run.`,
      );
    if (input.id !== null) await ensureUnusedThreadId(tx, input.id);
    await recordChange(tx, locked.thread.id, 'subagent_spawned');
    return createChildThread(tx, {
      id: input.id ?? newId('th'),
      parentId: locked.thread.id,
      title: input.title,
      relationship: 'subagent',
      source: {
        runId: locked.run.id,
        runOrdinal: locked.run.ordinal,
        checkpointId: null,
        providerThreadId: locked.run.providerThreadId,
      },
      forkOrdinal: 0,
      segments: [],
      rolledBack: [],
      transferId: newId('tr'),
      transferKind: 'subagent_spawn',
      targetProvider: input.provider,
      contextText: input.task,
      createdBy: 'agent',
      imported: false,
    });
  });
}

/** A fork or subagent is a new thread: unlike createThread, a client id already in use is refused. */
async function ensureUnusedThreadId(tx: Tx, id: string): Promise<void> {
  if ((await threadsByIds(tx, [id])).length > 0)
    throw new ThreadlineError(
      'CONFLICT',
      `Thread ${JSON.stringify(id)} already exists; a fork or subagent needs a new id.`,
      { id },
    );
}

/** The subagent's result, recorded on its parent run; the child's work never completes the parent. */
export async function completeSubagent(
  context: OperationContext,
  childThreadId: string,
  result: string,
): Promise<TransferRecord> {
  return context.graph.write(async (tx) => {
    const child = await lockThread(tx, childThreadId);
    if (child.relationshipToParent !== 'subagent') throw badInput('childThreadId', 'not a subagent thread');
    assertNoRunningRun(child);
    const parentRunId = child.sourcePoint?.runId ?? null;
    if (parentRunId === null) throw badInput('childThreadId', 'the subagent has no parent run to return its result to');
    const parentRun = present(await lockRunForUpdate(tx, parentRunId), `parent run ${parentRunId} of a subagent`);
    // Locked first, so a rollback of the parent that committed meanwhile is seen here.
    if (parentRun.run.status === 'rolled_back') {
      throw new ThreadlineError(
        'CONFLICT',
        `The parent run ${parentRun.run.id} was rolled back; its subagent's result has nowhere to go.`,
        { runId: parentRun.run.id },
      );
    }
    const provider = context.providers.get(parentRun.run.provider);
    const delivery = provider ? deliveryFor(provider.capabilities) : 'preamble';
    const transfer = await recordSubagentResult(tx, child.id, result, delivery, {
      transferId: newId('tr'),
      handoffId: newId('ho'),
    });
    await recordChange(tx, child.id, 'subagent_completed');
    await recordChange(tx, parentRun.run.threadId, 'subagent_completed');
    return transfer;
  });
}

export async function forksOf(
  context: OperationContext,
  threadIds: readonly string[],
  limit: number,
  window: OrdinalRange | null,
) {
  return context.graph.read((tx) => childrenOf(tx, threadIds, 'fork', limit, window));
}

export async function subagentsOf(
  context: OperationContext,
  threadIds: readonly string[],
  limit: number,
  window: OrdinalRange | null,
) {
  return context.graph.read((tx) => childrenOf(tx, threadIds, 'subagent', limit, window));
}
