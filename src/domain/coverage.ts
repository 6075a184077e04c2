import type { CoverageRecord } from './records.js';

export interface KnownRuns {
  providerThreadId: string;
  /** Live runs it served itself. */
  nativeRunOrdinals: number[];
  /** A natively forked provider thread knows its fork's inherited runs through this ordinal. */
  inheritedThroughOrdinal: number | null;
  /** Live runs covered by the standing handoffs it received. */
  handoffOrdinals: number[];
  handoffIds: string[];
}

/** Coverage of a provider thread against its app thread's live history (ordinals ascending). */
export function coverageOf(known: KnownRuns, historyOrdinals: readonly number[]): CoverageRecord {
  const inherited = historyOrdinals.filter((ordinal) => ordinal <= (known.inheritedThroughOrdinal ?? 0));
  const native = [...new Set([...inherited, ...known.nativeRunOrdinals])].sort((a, b) => a - b);
  const knows = new Set([...native, ...known.handoffOrdinals]);
  return {
    providerThreadId: known.providerThreadId,
    nativeRunOrdinals: native,
    handoffIds: known.handoffIds,
    coveredThroughOrdinal: Math.max(0, ...knows),
    missingRunOrdinals: [...historyOrdinals].sort((a, b) => a - b).filter((ordinal) => !knows.has(ordinal)),
  };
}
