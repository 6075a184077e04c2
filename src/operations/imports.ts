// Importing a provider's own session: runs that already happened, appended to an app thread with
// their original times, served by the session's provider thread, with no handoff made up for the past.
import { ThreadlineError, assertNoRunningRun, badInput, notFound } from '../domain/errors.js';
import { knownProvider } from '../domain/providers.js';
import {
  checkImportedRuns,
  importKeyOf,
  importReason,
  importedRunAction,
  importedRunPlan,
  type ImportedRunInput,
} from '../domain/imports.js';
import type { ProviderThreadRecord, RunRecord, ThreadRecord } from '../domain/records.js';
import { recordChange } from '../graph/repositories/changes.js';
import {
  appendImportedRuns,
  heldSourceIds,
  presentImportKeys,
  providerThreadsByNativeRef,
  type NewImportedRun,
} from '../graph/repositories/imports.js';
import { bindProviderThread, createProviderThread } from '../graph/repositories/providerThreads.js';
import { createChildThread, liveRunAt, type SourceRun } from '../graph/repositories/lineage.js';
import { runsByIds } from '../graph/repositories/runs.js';
import { lockThread, threadsByIds, type LockedThread } from '../graph/repositories/threads.js';
import type { Tx } from '../graph/transactions.js';
import { newId, type OperationContext } from './context.js';

/** Provider threads listed for one native id: more than one only when a client bound it to several. */
const NATIVE_REF_MATCHES = 20;

export interface ImportInput {
  threadId: string;
  provider: string;
  nativeThreadRef: string;
  model: string | null;
  runs: ImportedRunInput[];
}

export interface ImportResult {
  thread: ThreadRecord;
  providerThread: ProviderThreadRecord;
  runs: RunRecord[];
  alreadyPresent: number;
  duplicateTurns: number;
}

export async function providerThreadsOfNativeRef(
  context: OperationContext,
  provider: string,
  nativeThreadRef: string,
): Promise<ProviderThreadRecord[]> {
  return context.graph.read((tx) => providerThreadsByNativeRef(tx, provider, nativeThreadRef, NATIVE_REF_MATCHES));
}

export async function importRuns(context: OperationContext, input: ImportInput): Promise<ImportResult> {
  knownProvider(context.providers, input.provider, 'providerThread.provider');
  checkImportedRuns(input.runs);
  return context.graph.write(async (tx) => {
    const thread = await lockThread(tx, input.threadId);
    assertNoRunningRun(thread);
    const providerThread = await sessionProviderThread(tx, thread, input);
    const keyed = input.runs.map((run) => ({
      run,
      importKey: importKeyOf(input.provider, input.nativeThreadRef, run.sourceKey),
    }));
    const present = await presentImportKeys(
      tx,
      keyed.map(({ importKey }) => importKey),
    );
    const unseen = keyed.filter(({ importKey }) => !present.has(importKey));
    const alreadyPresent = input.runs.length - unseen.length;
    const sourceIds = unseen.flatMap(({ run }) => run.sourceId ?? []);
    const fresh = withoutCopies(unseen, await heldSourceIds(tx, thread.id, input.provider, sourceIds));
    const duplicateTurns = unseen.length - fresh.length;
    if (fresh.length === 0) return { thread, providerThread, runs: [], alreadyPresent, duplicateTurns };
    const written = await appendImportedRuns(
      tx,
      thread.id,
      providerThread,
      input.model,
      numbered(thread, providerThread, input, fresh),
    );
    await recordChange(tx, thread.id, 'runs_imported');
    return { ...written, alreadyPresent, duplicateTurns };
  });
}

/**
 * The runs that are not a copy of a turn the thread holds (`held`) or of an earlier run of the call:
 * a resumed Claude Code session or a Codex fork repeats earlier turns with their record ids.
 */
function withoutCopies<T extends { run: ImportedRunInput }>(runs: T[], held: Set<string>): T[] {
  const seen = new Set(held);
  return runs.filter(({ run }) => {
    if (run.sourceId === null) return true;
    if (seen.has(run.sourceId)) return false;
    seen.add(run.sourceId);
    return true;
  });
}

/** The provider thread that holds the session in this thread, created (and bound to the session) when the session is new. */
async function sessionProviderThread(tx: Tx, thread: LockedThread, input: ImportInput): Promise<ProviderThreadRecord> {
  const holders = await providerThreadsByNativeRef(tx, input.provider, input.nativeThreadRef, NATIVE_REF_MATCHES);
  const own = holders.find((holder) => holder.threadId === thread.id);
  if (own) return own;
  const elsewhere = holders[0];
  if (elsewhere) {
    throw new ThreadlineError(
      'CONFLICT',
      `${input.provider} session ${JSON.stringify(input.nativeThreadRef)} is held by thread ${JSON.stringify(elsewhere.threadId)}.`,
      {
        threadId: elsewhere.threadId,
        providerThreadId: elsewhere.id,
      },
    );
  }
  const created = await createProviderThread(tx, {
    id: newId('pt'),
    threadId: thread.id,
    provider: input.provider,
    model: input.model,
    runtimeMode: null,
  });
  return bindProviderThread(tx, created.id, input.nativeThreadRef);
}

/** The runs after the thread's last ordinal, each with the plan it would have had. */
function numbered(
  thread: LockedThread,
  providerThread: ProviderThreadRecord,
  input: ImportInput,
  fresh: { run: ImportedRunInput; importKey: string }[],
): NewImportedRun[] {
  const first = importedRunAction(providerThread.served, thread.headOrdinal);
  const reason = importReason(input.provider, input.nativeThreadRef);
  return fresh.map(({ run, importKey }, index) => ({
    id: newId('run'),
    ordinal: thread.lastOrdinal + index + 1,
    importKey,
    plan: importedRunPlan(index === 0 ? first : 'reuse', providerThread.id, reason),
    input: run,
  }));
}

export interface ImportSubagentInput {
  parentThreadId: string;
  parentRunOrdinal: number | null;
  parentRunId: string | null;
  id: string;
  title: string | null;
  task: string;
}

/**
 * The SUBAGENT child thread of a subagent an imported session ran, with its task transfer already
 * consumed: the provider gave the subagent its task, so no run of the child receives it again.
 * Importing it again answers the child as it is.
 */
export async function importSubagentThread(
  context: OperationContext,
  input: ImportSubagentInput,
): Promise<ThreadRecord> {
  if (input.parentRunOrdinal !== null && input.parentRunId !== null)
    throw badInput('input', 'give at most one of parentRunOrdinal and parentRunId');
  return context.graph.write(async (tx) => {
    const parent = await lockThread(tx, input.parentThreadId);
    const parentRun = await importedSubagentParentRun(tx, parent, input);
    const [existing] = await threadsByIds(tx, [input.id]);
    if (existing) {
      if (existing.relationshipToParent === 'subagent' && existing.parentThreadId === parent.id) return existing;
      throw new ThreadlineError(
        'CONFLICT',
        `Thread ${JSON.stringify(input.id)} already exists and is not a subagent of thread ${JSON.stringify(parent.id)}.`,
        { id: input.id, parentThreadId: existing.parentThreadId },
      );
    }
    await recordChange(tx, parent.id, 'subagent_spawned');
    return createChildThread(tx, {
      id: input.id,
      parentId: parent.id,
      title: input.title,
      relationship: 'subagent',
      source: {
        runId: parentRun?.id ?? null,
        runOrdinal: parentRun?.ordinal ?? null,
        checkpointId: null,
        providerThreadId: parentRun?.providerThreadId ?? null,
      },
      forkOrdinal: 0,
      segments: [],
      rolledBack: [],
      transferId: newId('tr'),
      transferKind: 'subagent_spawn',
      targetProvider: null,
      contextText: input.task,
      createdBy: 'agent',
      imported: true,
    });
  });
}

/** The live run of the parent that started the subagent, by ordinal or id; null when neither is given. */
async function importedSubagentParentRun(
  tx: Tx,
  parent: LockedThread,
  input: ImportSubagentInput,
): Promise<SourceRun | null> {
  if (input.parentRunOrdinal !== null) {
    const run = Number.isInteger(input.parentRunOrdinal) ? await liveRunAt(tx, parent, input.parentRunOrdinal) : null;
    if (!run)
      throw badInput('parentRunOrdinal', `not the ordinal of a live run of thread ${JSON.stringify(parent.id)}`);
    return run;
  }
  if (input.parentRunId === null) return null;
  const [run] = await runsByIds(tx, [input.parentRunId]);
  if (!run) throw notFound('Run', input.parentRunId);
  if (run.threadId !== parent.id || run.status === 'rolled_back')
    throw badInput('parentRunId', `not a live run of thread ${JSON.stringify(parent.id)}`);
  return run;
}
