// Runs recorded after the fact (importRuns): what an imported run's plan says, how a turn is known
// again on the next import, and the order imported runs must come in.
import { badInput } from './errors.js';
import { contains, count, type Ranges } from './ranges.js';
import type { NewRunFact, ProviderThreadAction, RunPlanRecord, RunStatus } from './records.js';

/** Runs one importRuns call takes; an importer sends a longer session in batches. */
export const MAX_IMPORTED_RUNS = 100;

export type ImportedRunStatus = Extract<RunStatus, 'completed' | 'failed' | 'interrupted'>;

export interface ImportedRunInput {
  sourceKey: string;
  /** The provider's own id of the turn's record, which a resume or a fork copies with the turn. */
  sourceId: string | null;
  /** ISO 8601, UTC. */
  startedAt: string;
  completedAt: string | null;
  status: ImportedRunStatus;
  model: string | null;
  userMessage: string;
  assistantMessage: string | null;
  error: string | null;
  facts: NewRunFact[];
}

/**
 * A turn is the same turn on the next import when its provider, session and key within the session
 * are: the three, unambiguously joined, are the run's import key, unique in the tenant.
 */
export function importKeyOf(provider: string, nativeThreadRef: string, sourceKey: string): string {
  return JSON.stringify([provider, nativeThreadRef, sourceKey]);
}

export function importReason(provider: string, nativeThreadRef: string): string {
  return `imported from ${provider} session ${nativeThreadRef}`;
}

/**
 * The planner's words for what happened to the provider thread, as they would have been: its first
 * run created it, a run after the one it served before reused it, any other run resumed it.
 */
export function importedRunAction(served: Ranges, headOrdinal: number): ProviderThreadAction {
  if (count(served) === 0) return 'create';
  return contains(served, headOrdinal) ? 'reuse' : 'resume';
}

/** An imported run's plan: the provider thread already knew everything it needed, so no handoff. */
export function importedRunPlan(action: ProviderThreadAction, providerThreadId: string, reason: string): RunPlanRecord {
  return {
    decision: 'no_handoff',
    providerThreadAction: action,
    providerThreadId: action === 'create' ? null : providerThreadId,
    handoffStrategy: null,
    coveredRunOrdinals: null,
    stalenessSignals: [],
    reasons: [reason],
  };
}

/** Refuses runs that could not have happened in the order given, or that name one turn twice. */
export function checkImportedRuns(runs: readonly ImportedRunInput[]): void {
  const keys = new Set<string>();
  runs.forEach((run, index) => {
    if (keys.has(run.sourceKey))
      throw badInput(`runs[${index}].sourceKey`, `${JSON.stringify(run.sourceKey)} is given twice`);
    keys.add(run.sourceKey);
    const previous = runs[index - 1];
    if (previous && run.startedAt < previous.startedAt)
      throw badInput(
        `runs[${index}].startedAt`,
        'must not be before the previous run started: runs are given oldest first',
      );
    if (run.completedAt !== null && run.completedAt < run.startedAt)
      throw badInput(`runs[${index}].completedAt`, 'must not be before startedAt');
    if (run.error !== null && run.status === 'completed')
      throw badInput(`runs[${index}].error`, 'only a FAILED or INTERRUPTED run has an error');
  });
}
