import { z } from 'zod';
import { coveredThrough } from '../../domain/coverage.js';
import { endsOf, fromLists } from '../../domain/ranges.js';
import type { LivePiece } from '../../domain/history.js';
import type { PlanningSnapshot } from '../../domain/planner.js';
import {
  RUN_STATUSES,
  type CheckpointRecord,
  type OrdinalRange,
  type ProviderThreadRecord,
  type ThreadRecord,
  type TransferRecord,
} from '../../domain/records.js';
import type { SummaryCheckpoint, SummaryFact, SummaryRun } from '../../domain/summary.js';
import type { Tx } from '../transactions.js';
import {
  checkpointNode,
  factShape,
  fileChange,
  lockedThreadNode,
  providerThreadNode,
  threadNode,
  transferNode,
} from './mapping.js';
import type { LockedThread } from './threads.js';

/** A run as a summary reads it, with the provider thread that served it. */
const summaryRunShape = {
  ordinal: z.number(),
  provider: z.string(),
  providerThreadId: z.string(),
  status: z.enum(RUN_STATUSES),
  userMessage: z.string(),
  assistantMessage: z.string().nullable(),
  error: z.string().nullable(),
};
/** A fact as a summary reads it, with its place among its run's facts. */
const summaryFact = z.object({ ...factShape, file: fileChange.nullish(), seq: z.number() });

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
  /**
   * Read by the ends of its rolled-back ranges, its `rolledBack` holds the highest of them only: all
   * a delta can meet (snapshot.rolledBack has the ends and the totals).
   */
  thread: ThreadRecord;
  headProvider: string | null;
  /** The live runs since the target's last native run, oldest first, at most runWindow of them. */
  window: WindowRun[];
  /** Oldest first. */
  pending: PendingTransfer[];
}

/** The latest of a run's checkpoints, as a summary reads it; null when it has none. */
function latestCheckpoint(checkpoints: CheckpointRecord[]): SummaryCheckpoint | null {
  const latest = checkpoints.reduce<CheckpointRecord | null>(
    (newest, checkpoint) => (newest === null || checkpoint.runOrdinal > newest.runOrdinal ? checkpoint : newest),
    null,
  );
  return (
    latest && { runOrdinal: latest.runOrdinal, ref: latest.ref, diffSummary: latest.diffSummary, files: latest.files }
  );
}

// Parsed without a transform (each costs about 1 µs here), and built field by field: an object rest
// (`{ facts, ...run }`) cost about 15 µs a run, most of the snapshot's mapping before.
const windowRunProperties = z.object({
  ...summaryRunShape,
  facts: z.array(summaryFact),
  checkpoints: z.array(checkpointNode),
});

function windowRun(run: z.infer<typeof windowRunProperties>): WindowRun {
  return {
    ordinal: run.ordinal,
    provider: run.provider,
    providerThreadId: run.providerThreadId,
    status: run.status,
    userMessage: run.userMessage,
    assistantMessage: run.assistantMessage,
    error: run.error,
    facts: run.facts.sort((a, b) => a.seq - b.seq),
    checkpoint: latestCheckpoint(run.checkpoints),
  };
}

const snapshotRow = z.object({
  thread: threadNode,
  headOrdinal: z.number(),
  headProviderThreadId: z.string().nullable(),
  headProvider: z.string().nullable(),
  target: providerThreadNode.nullable(),
  standingHandoffs: z.number(),
  handoffCoveredThrough: z.number().nullable(),
  rolledBackEnds: z
    .object({
      lowestFrom: z.array(z.number()),
      lowestTo: z.array(z.number()),
      rangeCount: z.number(),
      ordinalCount: z.number(),
    })
    .nullable(),
  runsSinceLastNative: z.array(windowRunProperties),
  pendingTransfers: z.array(
    z.object({
      transfer: transferNode,
      sourceProviderThread: providerThreadNode.nullable(),
      sourceTurns: z.number(),
      createdAt: z.tuple([z.number(), z.number()]),
    }),
  ),
});

/** How many of the thread's rolled-back ranges a snapshot reads from each end. */
type RolledBackEnds = { lowest: number; highest: number };

/**
 * The snapshot statement's own parameters: the one place they are named, for loadPlanningSnapshot
 * and for the benchmarks that time the statement alone (with `statementParameters`).
 */
export function planningSnapshotParameters(
  threadId: string,
  provider: string,
  runWindow: number,
  ends: RolledBackEnds | null,
) {
  return { threadId, provider, runWindow, lowestRanges: ends?.lowest ?? null, highestRanges: ends?.highest ?? null };
}

/**
 * Reads, in one statement, the planner's bounded neighbourhood, the thread, the runs a delta is drawn
 * from and the transfers pending into the thread; null when the thread does not exist. `ends`: how
 * many of the thread's rolled-back ranges to read from each end (rolledBackEndsRead), or null to read
 * them whole, as what composes a run's context needs.
 */
export async function loadPlanningSnapshot(
  tx: Tx,
  threadId: string,
  provider: string,
  runWindow: number,
  ends: RolledBackEnds | null,
): Promise<PlanningRead | null> {
  const row = await tx.one(
    'planner/snapshot',
    planningSnapshotParameters(threadId, provider, runWindow, ends),
    snapshotRow,
  );
  return row && planningRead(row);
}

const lockedSnapshotRow = snapshotRow.extend({ thread: lockedThreadNode });

/**
 * The thread's write lock, then the snapshot of loadPlanningSnapshot with the thread's rolled-back
 * ranges read whole, in one statement: the thread as seen under the lock (its running run), or null
 * when it does not exist. For startRun, which would otherwise send the lock as a statement of its own.
 */
export async function lockAndLoadPlanningSnapshot(
  tx: Tx,
  threadId: string,
  provider: string,
  runWindow: number,
): Promise<(PlanningRead & { thread: LockedThread }) | null> {
  const row = await tx.one(
    'planner/locked-snapshot',
    planningSnapshotParameters(threadId, provider, runWindow, null),
    lockedSnapshotRow,
  );
  return row && { ...planningRead(row), thread: row.thread };
}

function planningRead(row: z.infer<typeof snapshotRow>): PlanningRead {
  const { thread, target, rolledBackEnds } = row;
  const window = row.runsSinceLastNative.map(windowRun);
  return {
    thread,
    headProvider: row.headProvider,
    window,
    pending: row.pendingTransfers.sort(oldestFirst).map(({ transfer, sourceProviderThread, sourceTurns }) => ({
      transfer,
      sourceProviderThread,
      sourceTurns,
    })),
    snapshot: {
      rolledBack: rolledBackEnds
        ? {
            lowest: fromLists(rolledBackEnds.lowestFrom, rolledBackEnds.lowestTo),
            highest: thread.rolledBack,
            rangeCount: rolledBackEnds.rangeCount,
            ordinalCount: rolledBackEnds.ordinalCount,
          }
        : endsOf(thread.rolledBack),
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
  a: { createdAt: [number, number]; transfer: TransferRecord },
  b: { createdAt: [number, number]; transfer: TransferRecord },
): number {
  const [idA, idB] = [a.transfer.id, b.transfer.id];
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

const summaryWindowRow = z.object({
  runs: z.array(z.object(summaryRunShape)),
  facts: z.array(summaryFact),
  checkpoints: z.array(checkpointNode),
  threadProviders: z.array(z.array(z.string()).nullable()),
});

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
  const rows = await tx.rows(
    'summaries/input',
    {
      pieces,
      checkpointSegments: checkpointSegments(checkpointPieces),
      runLimit: limits.runs,
      factLimit: limits.facts,
    },
    summaryWindowRow,
  );
  const latest = latestCheckpoint(rows[0]?.checkpoints ?? []);
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
    latestCheckpoint: latest,
  };
}
