import type { PlanningSnapshot, RunSinceLastNative } from '../../domain/planner.js';
import type { SummaryCheckpoint, SummaryFact, SummaryRun } from '../../domain/summary.js';
import type { Tx } from '../transactions.js';
import { toCheckpoint, toProviderThread } from './mapping.js';

type Props = Record<string, unknown>;

/** Reads the planner's bounded neighbourhood; null when the thread does not exist. */
export async function loadPlanningSnapshot(tx: Tx, threadId: string, provider: string, runWindow: number): Promise<PlanningSnapshot | null> {
  const row = await tx.one<{
    headOrdinal: number;
    headProviderThreadId: string | null;
    target: Props | null;
    standingHandoffs: number;
    handoffCoveredThrough: number | null;
    runsSinceLastNative: RunSinceLastNative[];
  }>('planner/snapshot', { threadId, provider, runWindow: runWindow });
  if (!row) return null;
  const target = row.target && toProviderThread(row.target);
  return {
    headOrdinal: row.headOrdinal,
    headProviderThreadId: row.headProviderThreadId,
    target: target && {
      providerThread: target,
      coveredThroughOrdinal: Math.max(target.lastRunOrdinal ?? 0, row.handoffCoveredThrough ?? 0),
      standingHandoffCount: row.standingHandoffs,
      runsSinceLastNative: row.runsSinceLastNative,
    },
  };
}

export interface SummarySource {
  title: string | null;
  threadProviders: string[];
  /** Newest first, at most runLimit; each with the provider thread that served it. */
  runs: (SummaryRun & { providerThreadId: string })[];
  facts: SummaryFact[];
  latestCheckpoint: SummaryCheckpoint | null;
}

export async function loadSummarySource(
  tx: Tx,
  threadId: string,
  range: { from: number; to: number },
  limits: { runs: number; facts: number },
): Promise<SummarySource> {
  const row = await tx.one<{
    title: string | null;
    threadProviders: string[];
    runs: (SummaryRun & { providerThreadId: string })[];
    facts: SummaryFact[];
    checkpoint: Props | null;
  }>('summaries/input', {
    threadId,
    from: range.from,
    to: range.to,
    runLimit: limits.runs,
    factLimit: limits.facts,
  });
  const checkpoint = row?.checkpoint ? toCheckpoint(row.checkpoint) : null;
  return {
    title: row?.title ?? null,
    threadProviders: row?.threadProviders ?? [],
    runs: row?.runs ?? [],
    facts: row?.facts ?? [],
    latestCheckpoint: checkpoint && { runOrdinal: checkpoint.runOrdinal, ref: checkpoint.ref, diffSummary: checkpoint.diffSummary, files: checkpoint.files },
  };
}
