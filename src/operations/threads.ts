import { assertNoRunningRun, badInput, notFound, threadDeleted } from '../domain/errors.js';
import { liveHistory, livePiecesFor, segmentsFor } from '../domain/history.js';
import { contains } from '../domain/ranges.js';
import type { ListedRunRecord, NewRunFact, RunFactRecord, ThreadRecord } from '../domain/records.js';
import { liveRunAt } from '../graph/repositories/lineage.js';
import { appendFact, runPage } from '../graph/repositories/runs.js';
import { recordChange } from '../graph/repositories/changes.js';
import {
  createThread as mergeThread,
  lockThread,
  lockThreadAsItIs,
  markThreadDeleted,
  renameThread as setTitle,
  threadPage,
  type ThreadFilter,
} from '../graph/repositories/threads.js';
import { newId, type OperationContext } from './context.js';

export async function createThread(
  context: OperationContext,
  id: string | null,
  title: string | null,
  project: string | null,
): Promise<ThreadRecord> {
  const thread = await context.graph.write((tx) => mergeThread(tx, id ?? newId('th'), title, project));
  if (thread.deletedAt) throw threadDeleted(thread.id);
  return thread;
}

export async function renameThread(context: OperationContext, id: string, title: string): Promise<ThreadRecord> {
  return context.graph.write(async (tx) => {
    await lockThread(tx, id);
    const renamed = await setTitle(tx, id, title);
    await recordChange(tx, id, 'renamed');
    return renamed;
  });
}

/**
 * Marks the thread deleted, keeping all it recorded; once is enough (a deleted thread is answered as
 * it is). Not while a run is running: its completion would have nowhere to go.
 */
export async function deleteThread(context: OperationContext, id: string): Promise<ThreadRecord> {
  return context.graph.write(async (tx) => {
    const thread = await lockThreadAsItIs(tx, id);
    if (!thread) throw notFound('Thread', id);
    if (thread.deletedAt) return thread;
    assertNoRunningRun(thread);
    const deleted = await markThreadDeleted(tx, id);
    await recordChange(tx, id, 'deleted');
    return deleted;
  });
}

/**
 * Records a fact on the thread's newest live run of its own, after its facts, so that what is handed
 * off after it carries it. Not on a thread without a live run of its own (a fork's inherited runs
 * belong to its source), nor on a run holding `maxFacts` already.
 */
export async function recordFact(
  context: OperationContext,
  threadId: string,
  fact: NewRunFact,
  maxFacts: number,
): Promise<{ runId: string; fact: RunFactRecord & { textLength: number } }> {
  return context.graph.write(async (tx) => {
    const thread = await lockThread(tx, threadId);
    const run = thread.headOrdinal > thread.forkOrdinal ? await liveRunAt(tx, thread, thread.headOrdinal) : null;
    if (!run) throw badInput('threadId', 'the thread has no live run of its own yet to record the fact on');
    const recorded = await appendFact(tx, run.id, fact, maxFacts);
    if (!recorded) throw badInput('threadId', `its newest run already holds ${maxFacts} facts`);
    await recordChange(tx, threadId, 'fact_recorded');
    return { runId: run.id, fact: recorded };
  });
}

export interface ThreadPage {
  threads: ThreadRecord[];
  hasNextPage: boolean;
}

export async function listThreads(
  context: OperationContext,
  filter: ThreadFilter,
  after: { createdAt: string; id: string } | null,
  first: number,
): Promise<ThreadPage> {
  const rows = await context.graph.read((tx) => threadPage(tx, filter, after, first + 1));
  return { threads: rows.slice(0, first), hasNextPage: rows.length > first };
}

/** A run of a thread's history as the thread sees it: inherited from its source, and live for it. */
export interface HistoryEntry {
  /** Without its long texts, which the API reads on demand. */
  run: ListedRunRecord;
  inherited: boolean;
  live: boolean;
}

/**
 * One page of the thread's whole history in ordinal order, a fork's inherited runs included: the
 * first `limit` ordinals above `afterOrdinal`, each read from the thread that holds it. Liveness is
 * the thread's own (an inherited run its source rolled back after the fork is still live here).
 * With `liveOnly`, the ordinals that are not live are left out. One read per segment (or live piece)
 * the page touches, each a range seek of at most limit + 1 runs.
 */
export async function historyPage(
  context: OperationContext,
  thread: ThreadRecord,
  afterOrdinal: number,
  limit: number,
  liveOnly: boolean,
): Promise<{ entries: HistoryEntry[]; hasNextPage: boolean }> {
  const rest = { from: afterOrdinal + 1, to: thread.lastOrdinal };
  const pieces = rest.from > rest.to ? [] : liveOnly ? livePiecesFor(thread, rest) : segmentsFor(thread, rest);
  const live = liveHistory(thread);
  const entries = await context.graph.read(async (tx) => {
    const read: HistoryEntry[] = [];
    for (const piece of pieces) {
      if (read.length > limit) break;
      const runs = await runPage(tx, piece.threadId, piece.from - 1, limit + 1 - read.length, piece.to);
      read.push(
        ...runs.map((run) => ({ run, inherited: piece.threadId !== thread.id, live: contains(live, run.ordinal) })),
      );
    }
    return read;
  });
  return { entries: entries.slice(0, limit), hasNextPage: entries.length > limit };
}
