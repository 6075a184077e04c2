import { coveredThrough } from '../../domain/coverage.js';
import type { LivePiece } from '../../domain/history.js';
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
        coveredThroughOrdinal: coveredThrough(
          target.lastRunOrdinal,
          row.handoffCoveredThrough,
          target.inheritedThroughOrdinal,
        ),
        standingHandoffCount: row.standingHandoffs,
        runsSinceLastNative: row.runsSinceLastNative,
      },
    },
  };
}

export interface SummarySource {
  threadProviders: string[];
  /** The live runs of the range, as ranges: more than `runs` when the read stopped before older ones. */
  liveRanges: OrdinalRange[];
  /** Newest first; each with the provider thread that served it. */
  runs: (SummaryRun & { providerThreadId: string })[];
  /** In recorded order. */
  facts: SummaryFact[];
  latestCheckpoint: SummaryCheckpoint | null;
}

/** One window of a summary's read: the runs and facts the summarizer needs from it, newest first. */
export interface SummaryWindow {
  /** The providers of the threads of `checkpointPieces`. */
  threadProviders: string[];
  runs: SummarySource['runs'];
  /** Newest first. */
  facts: SummaryFact[];
  /** The latest of `checkpointPieces`; null when there is none or none was asked for. */
  latestCheckpoint: SummaryCheckpoint | null;
}

/**
 * Reads the live runs held by `pieces` (livePiecesFor), newest first and within the limits, and the
 * latest checkpoint held by `checkpointPieces` and the providers of their threads.
 */
export async function loadSummaryWindow(
  tx: Tx,
  pieces: LivePiece[],
  checkpointPieces: LivePiece[],
  limits: { runs: number; facts: number },
): Promise<SummaryWindow> {
  const rows = await tx.rows<{
    runs: (SummaryRun & { providerThreadId: string })[];
    facts: (SummaryFact & { seq: number })[];
    checkpoints: Props[];
    threadProviders: (string[] | null)[];
  }>('summaries/input', { pieces, checkpointPieces, runLimit: limits.runs, factLimit: limits.facts });
  const checkpoints = (rows[0]?.checkpoints ?? []).map(toCheckpoint).sort((a, b) => b.runOrdinal - a.runOrdinal);
  const latest = checkpoints[0] ?? null;
  return {
    threadProviders: [...new Set((rows[0]?.threadProviders ?? []).flatMap((providers) => providers ?? []))],
    runs: rows
      .flatMap((row) => row.runs)
      .sort((a, b) => b.ordinal - a.ordinal)
      .slice(0, limits.runs),
    facts: rows
      .flatMap((row) => row.facts)
      .sort((a, b) => b.runOrdinal - a.runOrdinal || b.seq - a.seq)
      .slice(0, limits.facts),
    latestCheckpoint: latest && {
      runOrdinal: latest.runOrdinal,
      ref: latest.ref,
      diffSummary: latest.diffSummary,
      files: latest.files,
    },
  };
}
