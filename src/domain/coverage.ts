// What a provider thread knows of its app thread's history: the runs it served itself (native
// coverage, kept as ranges on the provider thread), the runs a natively forked provider thread
// inherited, and the ranges of the standing handoffs it received (handoff coverage).
import { count, highest, intersect, lowest, subtract, union, type Ranges } from './ranges.js';
import type { CoverageRecord, OrdinalRange, ProviderRollbackAction } from './records.js';

export interface KnownRuns {
  providerThreadId: string;
  /** Live runs it served itself. */
  served: OrdinalRange[];
  /** A natively forked provider thread knows its fork's inherited runs through this ordinal. */
  inheritedThroughOrdinal: number | null;
  /** Ranges of the standing handoffs it received that count as coverage. */
  handoffRanges: OrdinalRange[];
  handoffIds: string[];
}

/**
 * Coverage of a provider thread against its app thread's live history, or against a window of that
 * history: then everything it answers, its highest known ordinal included, is of the window's runs only.
 */
export function coverageOf(known: KnownRuns, wholeHistory: Ranges, window: OrdinalRange | null = null): CoverageRecord {
  const history = window ? intersect(wholeHistory, [window]) : wholeHistory;
  const served = window ? intersect(known.served, [window]) : known.served;
  const native = union(served, intersect(history, [{ from: 1, to: known.inheritedThroughOrdinal ?? 0 }]));
  const byHandoff = subtract(intersect(history, known.handoffRanges), native);
  const covered = union(native, byHandoff);
  return {
    providerThreadId: known.providerThreadId,
    nativeRanges: native,
    handoffRanges: byHandoff,
    handoffIds: known.handoffIds,
    coveredThroughOrdinal: highest(covered),
    missingRanges: subtract(history, covered),
  };
}

/**
 * The highest ordinal a provider thread knows: its last native run, the end of its standing
 * handoffs' ranges, or the fork point it inherited through. The planner's delta starts after it.
 */
export function coveredThrough(
  lastRunOrdinal: number | null,
  handoffCoveredThrough: number | null,
  inheritedThroughOrdinal: number | null,
): number {
  return Math.max(lastRunOrdinal ?? 0, handoffCoveredThrough ?? 0, inheritedThroughOrdinal ?? 0);
}

/** A provider thread's native ranges as stored: first and last ordinal are kept beside them for index seeks. */
export interface ServedRuns {
  served: OrdinalRange[];
  firstRunOrdinal: number | null;
  lastRunOrdinal: number | null;
}

function servedRuns(served: OrdinalRange[]): ServedRuns {
  return { served, firstRunOrdinal: lowest(served), lastRunOrdinal: served.length > 0 ? highest(served) : null };
}

/** A new run served by the provider thread joins its native coverage. */
export function servingRun(served: Ranges, ordinal: number): ServedRuns {
  return servedRuns(union(served, [{ from: ordinal, to: ordinal }]));
}

/** A run moved to another provider thread (resume failure) leaves this one's native coverage. */
export function leavingRun(served: Ranges, ordinal: number): ServedRuns {
  return servedRuns(subtract(served, [{ from: ordinal, to: ordinal }]));
}

/** After a rollback to toOrdinal a provider thread natively knows only its runs at or below it. */
export function servedAfterRollback(served: Ranges, toOrdinal: number): ServedRuns {
  return servedRuns(intersect(served, [{ from: 1, to: toOrdinal }]));
}

/** How many of its own turns a rollback to toOrdinal takes from the provider thread. */
export function turnsDroppedByRollback(served: Ranges, toOrdinal: number): number {
  return count(subtract(served, [{ from: 1, to: toOrdinal }]));
}

/** What a rollback does to one provider thread it affects, and why, in words for its statusReason. */
export interface RollbackDecision {
  action: ProviderRollbackAction;
  reason: string;
  /** How many of its own turns the rollback takes from it. */
  turnsToDrop: number;
}

/**
 * Rollback step 4 (the design's "divergent, or rolled back where the provider supports native
 * rollback"): a native rollback is asked for only when the provider can roll back and the provider
 * thread keeps something at or below the rollback point; a thread left with nothing has no state to
 * roll back to, and one whose provider cannot roll back diverges.
 */
export function rollbackDecision(
  canRollbackThread: boolean,
  served: Ranges,
  inheritedThroughOrdinal: number | null,
  toOrdinal: number,
): RollbackDecision {
  const turnsToDrop = turnsDroppedByRollback(served, toOrdinal);
  const what =
    turnsToDrop > 0
      ? `The rollback to run ${toOrdinal} took ${turnsToDrop} of its own turns`
      : `The rollback to run ${toOrdinal} withdrew a handoff it had received`;
  const keepsNativeRuns = count(intersect(served, [{ from: 1, to: toOrdinal }])) > 0;
  const keepsSomething = keepsNativeRuns || (toOrdinal > 0 && (inheritedThroughOrdinal ?? 0) >= toOrdinal);
  const divergent = (why: string) => ({
    action: 'divergent' as const,
    reason: `${what}${why}: divergent, a new provider thread takes over.`,
    turnsToDrop,
  });
  if (!keepsSomething) return divergent(`, and it knew nothing at or before run ${toOrdinal}`);
  if (!canRollbackThread) return divergent('; its provider cannot roll back natively');
  return {
    action: 'rolled_back',
    reason: `${what}; its provider rolls back natively: awaiting confirmProviderRollback or reportProviderRollbackFailure.`,
    turnsToDrop,
  };
}
