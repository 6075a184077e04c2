import { coveredThrough } from '../../domain/coverage.js';
import type { LivePiece } from '../../domain/history.js';
import { union } from '../../domain/ranges.js';
import type { PlanningSnapshot, RunSinceLastNative } from '../../domain/planner.js';
import type { OrdinalRange, ThreadRecord } from '../../domain/records.js';
import type { SummaryCheckpoint, SummaryFact, SummaryRun } from '../../domain/summary.js';
import type { Tx } from '../transactions.js';
import { toCheckpoint, toProviderThread, toThread } from './mapping.js';

type Props = Record<string, unknown>;

/** Reads the planner's bounded neighbourhood and the thread; null when the thread does not exist. */
export async function loadPlanningSnapshot(
  tx: Tx,
  threadId: string,
  provider: string,
  runWindow: number,
): Promise<{ snapshot: PlanningSnapshot; thread: ThreadRecord; headProvider: string | null } | null> {
  const row = await tx.one<{
    thread: Props;
    headOrdinal: number;
    headProviderThreadId: string | null;
    headProvider: string | null;
    target: Props | null;
    standingHandoffs: number;
    handoffCoveredThrough: number | null;
    runsSinceLastNative: RunSinceLastNative[];
  }>('planner/snapshot', { threadId, provider, runWindow });
  if (!row) return null;
  const target = row.target && toProviderThread(row.target);
  const thread = toThread(row.thread);
  return {
    thread,
    headProvider: row.headProvider,
    snapshot: {
      rolledBack: thread.rolledBack,
      headOrdinal: row.headOrdinal,
      headProviderThreadId: row.headProviderThreadId,
      target: target && {
        providerThread: target,
        coveredThroughOrdinal: coveredThrough(target.lastRunOrdinal, row.handoffCoveredThrough, target.inheritedThroughOrdinal),
        standingHandoffCount: row.standingHandoffs,
        runsSinceLastNative: row.runsSinceLastNative,
      },
    },
  };
}

export interface SummarySource {
  threadProviders: string[];
  /** The live runs of the range, as ranges: more than `runs` when the limit left older ones out. */
  liveRanges: OrdinalRange[];
  /** Newest first, at most runLimit; each with the provider thread that served it. */
  runs: (SummaryRun & { providerThreadId: string })[];
  facts: SummaryFact[];
  latestCheckpoint: SummaryCheckpoint | null;
}

/** What the summarizer needs about the live runs held by `pieces` (livePiecesFor), newest first and within the limits. */
export async function loadSummarySource(tx: Tx, pieces: LivePiece[], limits: { runs: number; facts: number }): Promise<SummarySource> {
  const rows = await tx.rows<{
    threadProviders: string[];
    runs: (SummaryRun & { providerThreadId: string })[];
    facts: (SummaryFact & { seq: number })[];
    checkpoint: Props | null;
  }>('summaries/input', { pieces, runLimit: limits.runs, factLimit: limits.facts });
  const newestFirst = <T>(items: T[], ordinalOf: (item: T) => number) => items.sort((a, b) => ordinalOf(b) - ordinalOf(a));
  const newestFactFirst = (a: { runOrdinal: number; seq: number }, b: { runOrdinal: number; seq: number }) => b.runOrdinal - a.runOrdinal || b.seq - a.seq;
  const checkpoints = rows.flatMap((row) => (row.checkpoint ? [toCheckpoint(row.checkpoint)] : []));
  const latest = newestFirst(checkpoints, (checkpoint) => checkpoint.runOrdinal)[0] ?? null;
  return {
    threadProviders: [...new Set(rows.flatMap((row) => row.threadProviders ?? []))],
    liveRanges: union(pieces),
    runs: newestFirst(rows.flatMap((row) => row.runs), (run) => run.ordinal).slice(0, limits.runs),
    // The newest facts within the limit, then in recorded order: the summarizer reads a later fact
    // of the same run as the newer one.
    facts: rows
      .flatMap((row) => row.facts)
      .sort(newestFactFirst)
      .slice(0, limits.facts)
      .reverse(),
    latestCheckpoint: latest && { runOrdinal: latest.runOrdinal, ref: latest.ref, diffSummary: latest.diffSummary, files: latest.files },
  };
}
