import { z } from 'zod';
import { servingRun, type ServedRuns } from '../../domain/coverage.js';
import type { ImportedRunInput } from '../../domain/imports.js';
import type { ProviderThreadRecord, RunPlanRecord, RunRecord, ThreadRecord } from '../../domain/records.js';
import type { Tx } from '../transactions.js';
import { planProperties, providerThreadNode, runNode, servedProperties, threadNode } from './mapping.js';
import { present } from '../../domain/errors.js';

type Props = Record<string, unknown>;

/** A run to append: its input, and the id, ordinal, plan and import key the service gave it. */
export interface NewImportedRun {
  id: string;
  ordinal: number;
  importKey: string;
  plan: RunPlanRecord;
  input: ImportedRunInput;
}

const providerThreadRow = z.object({ providerThread: providerThreadNode });

export async function providerThreadsByNativeRef(
  tx: Tx,
  provider: string,
  nativeThreadRef: string,
  limit: number,
): Promise<ProviderThreadRecord[]> {
  const rows = await tx.rows('provider-threads/by-native-ref', { provider, nativeThreadRef, limit }, providerThreadRow);
  return rows.map((row) => row.providerThread);
}

const importKeyRow = z.object({ key: z.string() });
const heldSourceIdRow = z.object({ sourceId: z.string() });

/** The import keys of `keys` that runs of the tenant already carry. */
export async function presentImportKeys(tx: Tx, keys: readonly string[]): Promise<Set<string>> {
  const rows = await tx.rows('runs/by-import-keys', { keys }, importKeyRow);
  return new Set(rows.map((row) => row.key));
}

/** The source ids of `sourceIds` that runs of `provider` in the thread already carry. */
export async function heldSourceIds(
  tx: Tx,
  threadId: string,
  provider: string,
  sourceIds: readonly string[],
): Promise<Set<string>> {
  const rows = await tx.rows('runs/by-source-ids', { threadId, provider, sourceIds }, heldSourceIdRow);
  return new Set(rows.map((row) => row.sourceId));
}

const importedRow = z.object({ thread: threadNode, providerThread: providerThreadNode, runs: z.array(runNode) });

/**
 * Appends the runs, numbered after the thread's lastOrdinal, served by `providerThread` (as read under
 * the thread lock); returns the thread, the provider thread and the runs as written.
 */
export async function appendImportedRuns(
  tx: Tx,
  threadId: string,
  providerThread: ProviderThreadRecord,
  model: string | null,
  runs: readonly NewImportedRun[],
): Promise<{ thread: ThreadRecord; providerThread: ProviderThreadRecord; runs: RunRecord[] }> {
  return tx.single(
    'runs/import',
    {
      threadId,
      providerThreadId: providerThread.id,
      lastOrdinal: present(runs.at(-1), 'the last run to import').ordinal,
      model: model ?? runs.findLast((run) => run.input.model !== null)?.input.model ?? null,
      served: servedProperties(servedWith(providerThread, runs)),
      runs: runs.map(importedRunParameters),
    },
    importedRow,
    'the imported runs',
  );
}

function servedWith(providerThread: ProviderThreadRecord, runs: readonly NewImportedRun[]): ServedRuns {
  const initial: ServedRuns = {
    served: providerThread.served,
    firstRunOrdinal: providerThread.firstRunOrdinal,
    lastRunOrdinal: providerThread.lastRunOrdinal,
  };
  return runs.reduce((served, run) => servingRun(served.served, run.ordinal), initial);
}

function importedRunParameters({ id, ordinal, importKey, plan, input }: NewImportedRun): Props {
  return {
    run: {
      id,
      ordinal,
      importKey,
      sourceId: input.sourceId,
      model: input.model,
      userMessage: input.userMessage,
      assistantMessage: input.assistantMessage,
      error: input.error,
      status: input.status,
      ...planProperties(plan),
    },
    startedAt: input.startedAt,
    completedAt: input.completedAt,
    facts: input.facts,
  };
}
