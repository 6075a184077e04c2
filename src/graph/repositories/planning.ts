import { coveredThrough } from '../../domain/coverage.js';
import type { LivePiece } from '../../domain/history.js';
import type { PlanningSnapshot } from '../../domain/planner.js';
import type { OrdinalRange, ProviderThreadRecord, ThreadRecord, TransferRecord } from '../../domain/records.js';
import type { SummaryCheckpoint, SummaryFact, SummaryRun } from '../../domain/summary.js';
import type { Tx } from '../transactions.js';
import { toCheckpoint, toProviderThread, toThread, toTransfer } from './mapping.js';

type Props = Record<string, unknown>;

/** A live run since the target's last native run, with what a delta summary of it needs. */
export interface WindowRun extends SummaryRun {
  providerThreadId: string;
  /** In recorded order. */
  facts: (SummaryFact & { seq: number })[];
  /** Its checkpoint, the latest when it has several; null when none. */
  checkpoint: SummaryCheckpoint | null;
}

/** A transfer pending into the thread, with a fork's source provider thread and the turns the fork keeps of it. */
export interface PendingTransfer {
  transfer: TransferRecord;
  sourceProviderThread: ProviderThreadRecord | null;
  sourceTurns: number;
}

export interface PlanningRead {
  snapshot: PlanningSnapshot;
  thread: ThreadRecord;
  headProvider: string | null;
  /** The live runs since the target's last native run, oldest first, at most runWindow of them. */
  window: WindowRun[];
  /** Oldest first. */
  pending: PendingTransfer[];
}

/**
 * Reads, in one statement, the planner's bounded neighbourhood, the thread, the runs a delta is drawn
 * from and the transfers pending into the thread; null when the thread does not exist.
 */
export async function loadPlanningSnapshot(
  tx: Tx,
  threadId: string,
  provider: string,
  runWindow: number,
): Promise<PlanningRead | null> {
  const row = await tx.one<{
    thread: Props;
    headOrdinal: number;
    headProviderThreadId: string | null;
    headProvider: string | null;
    target: Props | null;
    standingHandoffs: number;
    handoffCoveredThrough: number | null;
    runsSinceLastNative: (Omit<WindowRun, 'checkpoint'> & { checkpoints: Props[] })[];
    pendingTransfers: {
      transfer: Props;
      sourceProviderThread: Props | null;
      sourceTurns: number;
      createdAt: [number, number];
    }[];
  }>('planner/snapshot', { threadId, provider, runWindow });
  if (!row) return null;
  const target = row.target && toProviderThread(row.target);
  const thread = toThread(row.thread);
  const window = row.runsSinceLastNative.map(({ checkpoints, facts, ...run }) => {
    const latest = checkpoints.map(toCheckpoint).sort((a, b) => b.runOrdinal - a.runOrdinal)[0];
    return {
      ...run,
      facts: [...facts].sort((a, b) => a.seq - b.seq),
      checkpoint: latest
        ? { runOrdinal: latest.runOrdinal, ref: latest.ref, diffSummary: latest.diffSummary, files: latest.files }
        : null,
    };
  });
  return {
    thread,
    headProvider: row.headProvider,
    window,
    pending: [...row.pendingTransfers].sort(oldestFirst).map((entry) => ({
      transfer: toTransfer(entry.transfer),
      sourceProviderThread: entry.sourceProviderThread && toProviderThread(entry.sourceProviderThread),
      sourceTurns: entry.sourceTurns,
    })),
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
        runsSinceLastNative: window.map(({ ordinal, providerThreadId }) => ({ ordinal, providerThreadId })),
      },
    },
  };
}

/** Transfers in the order they were made: by their creation time, then their id. */
function oldestFirst(
  a: { createdAt: [number, number]; transfer: Props },
  b: { createdAt: [number, number]; transfer: Props },
): number {
  const [idA, idB] = [String(a.transfer.id), String(b.transfer.id)];
  return a.createdAt[0] - b.createdAt[0] || a.createdAt[1] - b.createdAt[1] || (idA < idB ? -1 : idA > idB ? 1 : 0);
}

export interface SummaryMaterial {
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
  runs: SummaryMaterial['runs'];
  /** Newest first. */
  facts: SummaryFact[];
  /** The latest of `checkpointPieces`; null when there is none or none was asked for. */
  latestCheckpoint: SummaryCheckpoint | null;
}

/** Live pieces grouped by their thread, in the order the threads first appear: what summaries/input seeks a checkpoint in. */
export function checkpointSegments(
  pieces: LivePiece[],
): { threadId: string; from: number; to: number; pieces: [number, number][] }[] {
  const segments = new Map<string, { threadId: string; from: number; to: number; pieces: [number, number][] }>();
  for (const { threadId, from, to } of pieces) {
    const segment = segments.get(threadId);
    if (!segment) segments.set(threadId, { threadId, from, to, pieces: [[from, to]] });
    else {
      segment.from = Math.min(segment.from, from);
      segment.to = Math.max(segment.to, to);
      segment.pieces.push([from, to]);
    }
  }
  return [...segments.values()];
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
  }>('summaries/input', {
    pieces,
    checkpointSegments: checkpointSegments(checkpointPieces),
    runLimit: limits.runs,
    factLimit: limits.facts,
  });
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
