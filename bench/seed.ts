// Bulk seeding of long threads for the benchmark, in batched UNWIND writes. The shapes are exactly
// the ones the service writes (cypher/threads/create, provider-threads/create, runs/create,
// runs/finish, handoffs/create, provider-threads/mark-stale, lineage/roll-back-runs and the steps
// after it); the history is simulated with the real planner (decidePlan) over an in-memory
// snapshot, so every switch gets the decision, provider thread and handoff the service would have
// produced, and every rollback the runs, handoffs and provider threads the service would have
// changed (the native rollbacks confirmed), and the handoff's text, digest and sources come
// from the service's own summarizer over the history simulated so far. Forks (forkThread, their runs,
// mergeBack) and subagents (importSubagentThread and their runs) are written as child threads with
// the shapes of cypher/lineage/create-child-thread and create-merge-back. How often a thread
// switches, rolls back, forks, spawns subagents and records facts is drawn from one distribution
// (USAGE) whatever its size, so what grows with them grows linearly with runs, as in use.
import { createHash } from 'node:crypto';
import neo4j, { type Driver } from 'neo4j-driver';
import {
  inheritedByFork,
  rangeEnds,
  rolledBackInheritedByFork,
  type HistorySegment,
  type LivePiece,
  type RunAt,
  type ThreadHistory,
} from '../src/domain/history.js';
import { planForFork, resolveFork } from '../src/domain/forks.js';
import {
  decidePlan,
  fallsBackToCheckpointSummary,
  measurableDeltaRange,
  type Plan,
  type PlannerSettings,
  type PlanningSnapshot,
  type RunSinceLastNative,
} from '../src/domain/planner.js';
import { deliveryFor, type ProviderDefinition } from '../src/domain/providers.js';
import { coveredThrough, rollbackDecision, servedAfterRollback, servingRun } from '../src/domain/coverage.js';
import { count, endsOf, toLists, union } from '../src/domain/ranges.js';
import type { HandoffStrategy, OrdinalRange, ProviderThreadRecord } from '../src/domain/records.js';
import type { checkpointSegments as checkpointSegmentsOf } from '../src/graph/repositories/planning.js';
import type { QueryName } from '../src/graph/queries.js';
import { txOf, type Params, type Row, type Tx } from '../src/graph/transactions.js';
import { readSummaryMaterial, summarize } from '../src/operations/summaries.js';
import { between, randomNumbers, shuffled } from './random.js';

export const TENANT = 'local';
/** Every seeded provider thread runs in this mode, so asking for another one makes it stale. */
const SEEDED_RUNTIME_MODE = 'workspace-write';

/**
 * How a thread is used, the same at every size: long stretches on the main provider, short
 * excursions to the other (now and then a longer stay), a rollback of the last few runs every so
 * often, zero to two facts a run, now and then a fork of the newest run with runs of its own (some
 * merged back), and subagents under some runs. Intervals are drawn from narrow ranges, and the
 * rarer events one per window of runs, so that a thousand runs already show the rates of a hundred
 * thousand.
 */
const USAGE = {
  mainStretch: { min: 25, max: 60 },
  shortExcursion: { min: 1, max: 6 },
  longExcursion: { min: 8, max: 37 },
  longExcursionShare: 0.15,
  /** A rollback once in every 100 runs, at a run drawn from the first half of the 100. */
  rollbackWindow: 100,
  /** How many runs each rollback withdraws, a shuffled round of them after another (two on average). */
  rollbackDepths: [1, 2, 3, 2, 2],
  /** Chances of 0, 1 and 2 facts on a run. */
  factsPerRun: [0.55, 0.35, 0.1],
  checkpointEvery: 5,
  /**
   * A fork once in every 200 runs, at a run drawn from the first half of the 200 (so forks come 100
   * to 300 runs apart), on the main provider; each round of five forks takes these run counts and
   * merge-backs in a shuffled order.
   */
  forkWindow: 200,
  forks: [
    { runs: 3, mergeBack: true },
    { runs: 8, mergeBack: false },
    { runs: 12, mergeBack: true },
    { runs: 16, mergeBack: false },
    { runs: 20, mergeBack: false },
  ],
  /** A subagent under one run in every 25, on that run's provider, with 1 to 5 runs (a shuffled round). */
  subagentWindow: 25,
  subagentRuns: [1, 2, 3, 4, 5],
} as const;
/**
 * A fork or subagent comes only after a run that the next run continues on the same provider, with
 * no rollback within this many runs (a rollback withdraws at most 3): no rollback withdraws its source run, and a merge-back is taken
 * in by a run that makes no switch handoff of its own.
 */
const LINEAGE_QUIET_RUNS = 6;
/** One stream for every size: a shorter thread's history is the start of a longer one's. */
const USAGE_SEED = 20_261_204;

/** Events per 1,000 runs, which USAGE keeps the same at every size. */
export interface SeedRates {
  switches: number;
  handoffs: number;
  providerThreads: number;
  rollbacks: number;
  rolledBackRuns: number;
  facts: number;
  forks: number;
  /** The forks' own runs. */
  forkRuns: number;
  mergeBacks: number;
  subagents: number;
  subagentRuns: number;
}

/** Sizes below this hold too few switches and rollbacks for their rates to say anything. */
export const RATE_CHECK_MIN_RUNS = 1000;
/** The largest spread of a rate between sizes (largest over smallest) the bench accepts. */
const RATE_CHECK_TOLERANCE = 1.1;

interface SimProviderThread {
  id: string;
  provider: string;
  seq: number;
  firstRunOrdinal: number | null;
  lastRunOrdinal: number | null;
  served: OrdinalRange[];
  status: string;
  statusReason: string | null;
  /** Its standing handoffs, oldest first. */
  standing: HandoffRow[];
}

interface FactText {
  kind: string;
  text: string;
  key: string | null;
  status: string | null;
}

interface SimCheckpoint {
  id: string;
  ref: string;
  diffSummary: string;
  filesJson: string;
  fileCount: number;
}

interface SimRun {
  ordinal: number;
  provider: string;
  providerThreadId: string;
  userMessage: string;
  assistantMessage: string;
  facts: FactText[];
  checkpoint: SimCheckpoint | null;
  rolledBack: boolean;
  /** The run node's properties as startRun would have written them. */
  props: Record<string, unknown>;
}

interface HandoffRow {
  handoff: Record<string, unknown> & {
    summaryText: string;
    status: string;
    targetRunOrdinal: number;
    toProviderThreadId: string;
    coveredTo: number;
  };
  transfer: Record<string, unknown>;
  /** The first and last live run of its range, which its COVERS edges point to (a fork's may be its source's). */
  coverageEnds: RunAt[];
}

export interface SeedResult {
  threadId: string;
  runs: number;
  /** Runs not rolled back. */
  liveRuns: number;
  providerThreads: number;
  handoffs: number;
  switches: number;
  rollbacks: number;
  coversEdges: number;
  facts: number;
  checkpoints: number;
  forks: number;
  forkRuns: number;
  mergeBacks: number;
  subagents: number;
  subagentRuns: number;
  rates: SeedRates;
  seconds: number;
  runsPerSecond: number;
  decisions: Record<string, number>;
  lastProvider: string;
}

/**
 * One step of a thread's use: a run on a provider, a rollback of its newest `depth` live runs, a
 * fork of its newest run (forkThread, `forkRuns` runs on the main provider in the fork, then
 * mergeBack when `mergeBack`: the next run takes it in), or a subagent under its newest run
 * (importSubagentThread, then `subagentRuns` runs on that run's provider in the child).
 */
export type Step =
  | { provider: string }
  | { rollbackDepth: number }
  | { forkRuns: number; mergeBack: boolean }
  | { subagentRuns: number };

/** The items in a new shuffled order every round, round after round. */
function* shuffledRounds<T>(random: () => number, items: readonly T[]): Generator<T, never> {
  for (;;) yield* shuffled(random, items);
}

/** One event per window of runs, at a run drawn from the window's first half: when each is due. */
function dueInWindows(random: () => number, window: number): () => number {
  let start = 0;
  return () => {
    const due = start + Math.floor(random() * (window / 2));
    start += window;
    return due;
  };
}

/**
 * A thread's use as `size` runs and the rollbacks, forks and subagents between them, drawn from
 * USAGE. The thread ends with 25 runs on the main provider (the other one's old thread is stale by
 * then), a short excursion to the other provider and three runs back on the main one: the last
 * provider reuses its thread, the other one is owed a delta, and every size ends in the same
 * neighbourhood, with no fork or subagent in it.
 */
export function usageSteps(size: number, providers: [string, string]): Step[] {
  const [main, other] = providers;
  const random = randomNumbers(USAGE_SEED);
  const ending =
    size >= 40
      ? [...Array<string>(25).fill(main), other, other, other, main, main, main]
      : size >= 8
        ? [other, other, other, main, main, main]
        : Array<string>(size).fill(main);
  const sequence: string[] = [];
  for (let onMain = true; sequence.length < size - ending.length; onMain = !onMain) {
    const length = onMain
      ? between(random, USAGE.mainStretch)
      : between(random, random() < USAGE.longExcursionShare ? USAGE.longExcursion : USAGE.shortExcursion);
    for (let i = 0; i < length && sequence.length < size - ending.length; i++) sequence.push(onMain ? main : other);
  }
  const beforeEnding = sequence.length;
  sequence.push(...ending);
  // Never in the ending, which must stay as it is; never deeper than the runs before it.
  const rollbacks = randomNumbers(USAGE_SEED + 1);
  const rollbackAfter = new Map<number, number>();
  const nextRollback = dueInWindows(rollbacks, USAGE.rollbackWindow);
  const depths = shuffledRounds(rollbacks, USAGE.rollbackDepths);
  for (let at = nextRollback(); at < beforeEnding; at = nextRollback())
    rollbackAfter.set(at, Math.min(depths.next().value, at));
  const lineage = randomNumbers(USAGE_SEED + 3);
  const forks = shuffledRounds(lineage, USAGE.forks);
  const subagentRuns = shuffledRounds(lineage, USAGE.subagentRuns);
  const [nextFork, nextSubagent] = [
    dueInWindows(lineage, USAGE.forkWindow),
    dueInWindows(lineage, USAGE.subagentWindow),
  ];
  let [forkDue, subagentDue] = [nextFork(), nextSubagent()];
  const waiting: Step[] = [];
  const quiet = (index: number) =>
    index + 1 < beforeEnding &&
    sequence[index + 1] === sequence[index] &&
    Array.from({ length: LINEAGE_QUIET_RUNS + 1 }, (_, d) => index + d).every((at) => !rollbackAfter.has(at));
  const steps: Step[] = [];
  sequence.forEach((provider, index) => {
    steps.push({ provider });
    const depth = rollbackAfter.get(index);
    if (depth) steps.push({ rollbackDepth: depth });
    for (; forkDue <= index; forkDue = nextFork()) {
      const fork = forks.next().value;
      waiting.push({ forkRuns: fork.runs, mergeBack: fork.mergeBack });
    }
    for (; subagentDue <= index; subagentDue = nextSubagent())
      waiting.push({ subagentRuns: subagentRuns.next().value });
    if (waiting.length > 0 && quiet(index)) steps.push(waiting.shift()!);
  });
  return steps;
}

/** The provider thread's properties FINISH_THREAD writes: its native ranges and its standing coverage. */
function finishedProviderThread(pt: SimProviderThread) {
  const { from, to } = toLists(pt.served);
  return {
    id: pt.id,
    status: pt.status,
    statusReason: pt.statusReason,
    firstRunOrdinal: pt.firstRunOrdinal,
    lastRunOrdinal: pt.lastRunOrdinal,
    servedFrom: from,
    servedTo: to,
    standingHandoffCount: pt.standing.length,
    handoffCoveredThrough: handoffCoveredThrough(pt),
  };
}

/** The highest ordinal its standing handoffs cover; null when none stands. */
function handoffCoveredThrough(pt: SimProviderThread): number | null {
  return pt.standing.length > 0 ? Math.max(...pt.standing.map((row) => row.handoff.coveredTo)) : null;
}

function toRecord(pt: SimProviderThread): ProviderThreadRecord {
  return {
    id: pt.id,
    provider: pt.provider,
    status: pt.status,
    firstRunOrdinal: pt.firstRunOrdinal,
    lastRunOrdinal: pt.lastRunOrdinal,
    served: pt.served,
    model: null,
    runtimeMode: SEEDED_RUNTIME_MODE,
    inheritedThroughOrdinal: null,
    nativeThreadRef: null,
  } as unknown as ProviderThreadRecord;
}

const CREATE_THREAD = `
MERGE (thread:Thread {tenant: $tenant, id: $id})
ON CREATE SET thread.title = $title, thread.caption = coalesce($title, $id), thread.createdAt = datetime(),
  thread.headOrdinal = 0, thread.lastOrdinal = 0, thread.providerThreadCount = 0, thread.providers = [],
  thread.rolledBackFrom = [], thread.rolledBackTo = []`;

const CREATE_PROVIDER_THREADS = `
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
UNWIND $providerThreads AS p
CREATE (providerThread:ProviderThread)
SET providerThread = p, providerThread.tenant = $tenant, providerThread.threadId = $threadId, providerThread.createdAt = datetime(), providerThread.servedFrom = [], providerThread.servedTo = [],
    providerThread.caption = p.provider + ' #' + toString(p.seq)
CREATE (thread)-[:HAS_PROVIDER_THREAD]->(providerThread)`;

const CREATE_RUNS = `
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
UNWIND $runs AS r
MATCH (providerThread:ProviderThread {tenant: $tenant, id: r.run.providerThreadId})
CREATE (run:Run)
SET run = r.run, run.tenant = $tenant, run.threadId = $threadId, run.status = r.status,
    run.caption = '#' + toString(r.run.ordinal) + ' ' + r.run.provider, run.createdAt = datetime(), run.completedAt = datetime(),
    run.rolledBackAt = CASE WHEN r.status = 'rolled_back' THEN datetime() END
CREATE (thread)-[:HAS_RUN]->(run)
CREATE (run)-[:USES]->(providerThread)
FOREACH (position IN range(0, size(r.facts) - 1) |
  CREATE (run)-[:RECORDED]->(:RunFact {
    tenant: $tenant, threadId: $threadId, runOrdinal: r.run.ordinal, seq: position,
    kind: r.facts[position].kind, text: r.facts[position].text, key: r.facts[position].key, status: r.facts[position].status,
    caption: r.facts[position].kind + ': ' + left(r.facts[position].text, 40)
  }))
FOREACH (checkpoint IN CASE WHEN r.checkpoint IS NULL THEN [] ELSE [r.checkpoint] END |
  CREATE (run)-[:CAPTURED]->(:Checkpoint {
    tenant: $tenant, id: checkpoint.id, threadId: $threadId, runId: r.run.id, runOrdinal: r.run.ordinal,
    ref: checkpoint.ref, diffSummary: checkpoint.diffSummary, filesJson: checkpoint.filesJson,
    fileCount: checkpoint.fileCount, status: CASE WHEN r.status = 'rolled_back' THEN 'stale' ELSE 'current' END, caption: checkpoint.ref, createdAt: datetime()
  }))`;

/**
 * The forks and subagents (cypher/lineage/create-child-thread): the child thread with the history
 * it inherits, its edge to the source run and its transfer, a fork's pending until its first run
 * takes it in, an imported subagent's consumed.
 */
const CREATE_CHILD_THREADS = `
UNWIND $children AS c
MATCH (parent:Thread {tenant: $tenant, id: c.parentId})
MATCH (sourceRun:Run {tenant: $tenant, id: c.sourceRunId})
CREATE (child:Thread {
  tenant: $tenant, id: c.id, title: c.title, caption: coalesce(c.title, c.id), project: parent.project, createdAt: datetime(), lastActivityAt: datetime(),
  parentThreadId: parent.id, relationshipToParent: c.relationship, rootThreadId: coalesce(parent.rootThreadId, parent.id),
  sourceRunId: sourceRun.id, sourceRunOrdinal: sourceRun.ordinal, sourceProviderThreadId: sourceRun.providerThreadId,
  forkOrdinal: c.forkOrdinal, headOrdinal: c.forkOrdinal, lastOrdinal: c.forkOrdinal, providerThreadCount: 0, providers: [],
  segmentThreadIds: [segment IN c.segments | segment.threadId], segmentTo: [segment IN c.segments | segment.to],
  segmentAsOf: [segment IN c.segments | toString(datetime())],
  rolledBackFrom: c.rolledBackFrom, rolledBackTo: c.rolledBackTo
})
FOREACH (_ IN CASE WHEN c.relationship = 'fork' THEN [1] ELSE [] END | CREATE (child)-[:FORKED_FROM]->(sourceRun))
FOREACH (_ IN CASE WHEN c.relationship = 'subagent' THEN [1] ELSE [] END | CREATE (child)-[:SPAWNED_BY]->(sourceRun))
CREATE (transfer:ContextTransfer {
  tenant: $tenant, id: c.transfer.id, kind: c.transfer.kind, createdBy: c.transfer.createdBy,
  status: c.transfer.status, resolution: c.transfer.resolution,
  consumedAt: CASE WHEN c.transfer.status = 'consumed' THEN datetime() END,
  sourceThreadId: parent.id, targetThreadId: child.id,
  sourceRunId: sourceRun.id, sourceRunOrdinal: sourceRun.ordinal,
  sourceProviderThreadId: sourceRun.providerThreadId, sourceProvider: sourceRun.provider,
  contextText: c.transfer.contextText, createdAt: datetime(), caption: c.transfer.kind + ' ' + child.id
})
CREATE (transfer)-[:FROM_THREAD]->(parent)
CREATE (transfer)-[:TO_THREAD]->(child)
CREATE (transfer)-[:FROM_RUN]->(sourceRun)`;

/** The pending merge-backs of forks into their source (cypher/lineage/create-merge-back), which a handoff then takes in. */
const CREATE_MERGE_BACKS = `
UNWIND $mergeBacks AS m
MATCH (fork:Thread {tenant: $tenant, id: m.forkId})
MATCH (source:Thread {tenant: $tenant, id: fork.parentThreadId})
MATCH (run:Run {tenant: $tenant, threadId: fork.id, ordinal: m.ordinal})
CREATE (transfer:ContextTransfer {
  tenant: $tenant, id: m.id, kind: 'merge_back', status: 'pending', createdBy: 'user',
  sourceThreadId: fork.id, targetThreadId: source.id,
  sourceRunId: run.id, sourceRunOrdinal: run.ordinal, sourceProviderThreadId: run.providerThreadId,
  sourceProvider: run.provider, baseRunOrdinal: fork.forkOrdinal, baseRunId: fork.sourceRunId,
  createdAt: datetime(), caption: 'merge_back ' + fork.id
})
CREATE (transfer)-[:FROM_THREAD]->(fork)
CREATE (transfer)-[:TO_THREAD]->(source)
CREATE (transfer)-[:FROM_RUN]->(run)`;

/**
 * The handoffs, as cypher/handoffs/create writes them: a switch's with a transfer of its own, a
 * fork's first run's and a merge-back's resolving the transfer that already exists.
 */
const CREATE_HANDOFFS = `
UNWIND $handoffs AS h
MATCH (thread:Thread {tenant: $tenant, id: h.handoff.threadId})
MATCH (run:Run {tenant: $tenant, id: h.handoff.targetRunId})
MATCH (target:ProviderThread {tenant: $tenant, id: h.handoff.toProviderThreadId})
MERGE (transfer:ContextTransfer {id: h.transfer.id})
ON CREATE SET transfer = h.transfer, transfer.tenant = $tenant, transfer.caption = h.transfer.kind + ' ' + h.handoff.id,
    transfer.createdAt = datetime()
SET transfer.status = h.transfer.status, transfer.resolution = h.transfer.resolution, transfer.targetProvider = h.transfer.targetProvider,
    transfer.handoffId = h.handoff.id, transfer.consumedAt = datetime()
CREATE (handoff:ContextHandoff)
SET handoff = h.handoff, handoff.tenant = $tenant, handoff.transferId = h.transfer.id, handoff.transferKind = transfer.kind,
    handoff.targetRunOrdinal = run.ordinal,
    handoff.caption = h.handoff.strategy + ' ' + toString(h.handoff.coveredFrom) + '-' + toString(h.handoff.coveredTo),
    handoff.createdAt = datetime(), handoff.updatedAt = datetime(), handoff.length = size(h.handoff.summaryText),
    handoff.endedAt = CASE WHEN h.handoff.endedBecause IS NULL THEN null ELSE datetime() END,
    handoff.requestedAt = datetime(), handoff.writtenAt = datetime(), handoff.usedAt = datetime()
CREATE (transfer)-[:MATERIALIZED_AS]->(handoff)
MERGE (transfer)-[:TO_THREAD]->(thread)
WITH run, target, transfer, handoff, h
MATCH (sourceThread:Thread {tenant: $tenant, id: transfer.sourceThreadId})
MERGE (transfer)-[:FROM_THREAD]->(sourceThread)
CREATE (run)-[:USES]->(handoff)
CREATE (handoff)-[:DELIVERED_TO]->(target)
SET run.contextHandoffId = h.handoff.id
WITH transfer, handoff, h
CALL (transfer) {
  MATCH (source:Run {tenant: $tenant, threadId: transfer.sourceThreadId, ordinal: transfer.sourceRunOrdinal})
  MERGE (transfer)-[:FROM_RUN]->(source)
  SET transfer.sourceRunId = source.id, transfer.sourceProvider = coalesce(transfer.sourceProvider, source.provider)
}
CALL (transfer) {
  OPTIONAL MATCH (base:Run {tenant: $tenant, threadId: transfer.sourceThreadId, ordinal: transfer.baseRunOrdinal})
  FOREACH (_ IN CASE WHEN base IS NULL THEN [] ELSE [1] END | MERGE (transfer)-[:BASE_RUN]->(base) SET transfer.baseRunId = base.id)
}
CALL (handoff, h) {
  UNWIND h.handoff.fromProviderThreadIds AS sourceId
  MATCH (source:ProviderThread {tenant: $tenant, id: sourceId})
  CREATE (handoff)-[:DRAWN_FROM]->(source)
}
CALL (handoff, h) {
  UNWIND h.coverageEnds AS end
  MATCH (covered:Run {tenant: $tenant, threadId: end.threadId, ordinal: end.ordinal})
  CREATE (handoff)-[:COVERS]->(covered)
}`;

const FINISH_THREAD = `
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
SET thread.headOrdinal = $head, thread.lastOrdinal = $last, thread.providerThreadCount = $count, thread.providers = $providers,
    thread.rolledBackFrom = $rolledBackFrom, thread.rolledBackTo = $rolledBackTo
WITH thread
UNWIND $providerThreads AS p
MATCH (providerThread:ProviderThread {tenant: $tenant, id: p.id})
SET providerThread.status = p.status, providerThread.statusReason = p.statusReason, providerThread.firstRunOrdinal = p.firstRunOrdinal, providerThread.lastRunOrdinal = p.lastRunOrdinal,
    providerThread.servedFrom = p.servedFrom, providerThread.servedTo = p.servedTo,
    providerThread.standingHandoffCount = p.standingHandoffCount, providerThread.handoffCoveredThrough = p.handoffCoveredThrough`;

const FACT_TEXTS: FactText[] = [
  { kind: 'goal', text: 'Ship the parser refactor behind a flag', key: 'goal', status: null },
  { kind: 'decision', text: 'Use a recursive-descent parser instead of the generated one', key: null, status: null },
  { kind: 'constraint', text: 'Keep the public API of src/parser stable', key: null, status: null },
  { kind: 'test', text: 'npm test: 412 passed, 0 failed', key: 'npm test', status: 'passed' },
  { kind: 'question', text: 'Should the lexer keep comments as tokens?', key: null, status: 'open' },
];

/**
 * Answers `summaries/input` from the simulated history, as Neo4j would once it is written: the newest
 * runs and facts of each live piece of the window within the limits, and the latest checkpoint of the
 * checkpoint segments' pieces. With it the seed runs the service's readSummaryMaterial and summarize unchanged.
 */
function simulatedHistory(runs: SimRun[], providersOf: (threadId: string) => string[]): Tx {
  const newest = (piece: LivePiece, limit: number, take: (run: SimRun) => boolean) => {
    for (let ordinal = piece.to; ordinal >= piece.from && limit > 0; ordinal--) if (take(runs[ordinal - 1]!)) limit--;
  };
  const latestCheckpoint = (pieces: LivePiece[]): Row[] => {
    let checkpoint: Row | null = null;
    for (const piece of pieces)
      newest(piece, 1, (run) => {
        if (run.checkpoint && (checkpoint === null || (checkpoint.runOrdinal as number) < run.ordinal))
          checkpoint = { ...run.checkpoint, runOrdinal: run.ordinal, threadId: piece.threadId, status: 'current' };
        return run.checkpoint !== null;
      });
    return checkpoint === null ? [] : [checkpoint];
  };
  const answer = ({
    pieces,
    checkpointSegments,
    runLimit,
    factLimit,
  }: {
    pieces: LivePiece[];
    checkpointSegments: ReturnType<typeof checkpointSegmentsOf>;
    runLimit: number;
    factLimit: number;
  }): Row[] => {
    const checkpoints = latestCheckpoint(
      checkpointSegments.flatMap((segment) =>
        segment.pieces.map(([from, to]) => ({ threadId: segment.threadId, from, to })),
      ),
    );
    const providersOfRange = checkpointSegments.map((segment) => [...providersOf(segment.threadId)]);
    return pieces.map((piece) => {
      const pieceRuns: Row[] = [];
      newest(piece, runLimit, (run) => {
        pieceRuns.push({
          ordinal: run.ordinal,
          provider: run.provider,
          providerThreadId: run.providerThreadId,
          status: 'completed',
          userMessage: run.userMessage,
          assistantMessage: run.assistantMessage,
          error: null,
        });
        return true;
      });
      const facts: Row[] = [];
      newest(piece, 1, (run) => {
        for (let seq = run.facts.length - 1; seq >= 0 && facts.length < factLimit; seq--)
          facts.push({ runOrdinal: run.ordinal, seq, ...run.facts[seq]! });
        return facts.length >= factLimit;
      });
      return { runs: pieceRuns, facts, checkpoints, threadProviders: providersOfRange };
    });
  };
  // eslint-disable-next-line @typescript-eslint/require-await -- async so a throw rejects, like the real Tx.rows
  const rows = async <T = Row>(query: QueryName, params: Params = {}): Promise<T[]> => {
    if (query !== 'summaries/input')
      throw new Error(`the simulated history answers summaries/input only, not ${query}`);
    return answer(params as Parameters<typeof answer>[0]) as T[];
  };
  return txOf(rows);
}

/** Handoffs per write: their texts make them heavy, so a batch is also bounded by its characters. */
const HANDOFF_BATCH_ROWS = 500;
const HANDOFF_BATCH_CHARS = 16_000_000;

export interface SeedOptions {
  threadId: string;
  size: number;
  providers: ProviderDefinition[];
  planner: PlannerSettings;
  /**
   * What the other provider is owed at the end: a delta of the main provider's last runs (the
   * default), or, when the main provider's last two runs asked for a clean context, runs served by
   * three provider threads: more than maxDeltaSourceThreads (2), so a full summary into its thread.
   */
  owed?: 'delta' | 'full-existing';
  batch?: number;
  log?: (line: string) => void;
  /** Called after every write batch, e.g. to sample the transaction log before a checkpoint prunes it. */
  afterBatch?: () => Promise<void>;
}

/** One thread of the simulated history: the read thread, or a fork or subagent of it. */
interface SimThread {
  id: string;
  title: string;
  /** Its history's runs by ordinal (runs[ordinal - 1]): a fork's first are its source's up to the fork point. */
  runs: SimRun[];
  forkOrdinal: number;
  inherited: HistorySegment[];
  providerThreads: SimProviderThread[];
  /** Each provider's newest provider thread. */
  latest: Map<string, SimProviderThread>;
  /** Its switches' and a fork's first run's handoffs, which a rollback supersedes. */
  handoffRows: HandoffRow[];
  /** The handoffs that took merge-backs in. */
  mergeBackRows: HandoffRow[];
  threadProviders: string[];
  rolledBack: OrdinalRange[];
  /** Its newest live run. */
  head: number;
  /** A fork's transfer until its first run takes it in, and the provider thread of its source run. */
  pendingFork: { transfer: TransferRow; source: SimProviderThread } | null;
  /** A merge-back its next run takes in. */
  pendingMergeBack: MergeBack | null;
}

/** A transfer's own properties, as create-child-thread or a handoff writes them. */
type TransferRow = Record<string, unknown> & { id: string; kind: string };

interface MergeBack {
  id: string;
  fork: SimThread;
  /** The fork's run it merges back from. */
  ordinal: number;
}

interface SimChild {
  thread: SimThread;
  relationship: 'fork' | 'subagent';
  parentId: string;
  sourceRun: SimRun;
  transfer: TransferRow;
  mergeBack: MergeBack | null;
}

/** A thread's simulated history, ready to write: the read thread and its forks and subagents. */
interface SimulatedThread {
  main: SimThread;
  children: SimChild[];
  decisions: Record<string, number>;
  switches: number;
  rollbacks: number;
  lastProvider: string;
}

function newSimThread(id: string, title: string, inherited?: { from: SimThread; at: number }): SimThread {
  const source = inherited && historyOf(inherited.from);
  return {
    id,
    title,
    runs: inherited ? inherited.from.runs.slice(0, inherited.at) : [],
    forkOrdinal: inherited?.at ?? 0,
    inherited: source ? inheritedByFork(source, inherited.at) : [],
    providerThreads: [],
    latest: new Map(),
    handoffRows: [],
    mergeBackRows: [],
    threadProviders: [],
    rolledBack: source ? rolledBackInheritedByFork(source, inherited.at) : [],
    head: inherited?.at ?? 0,
    pendingFork: null,
    pendingMergeBack: null,
  };
}

const historyOf = (thread: SimThread): ThreadHistory => ({
  id: thread.id,
  forkOrdinal: thread.forkOrdinal,
  inherited: thread.inherited,
  lastOrdinal: thread.runs.length,
  rolledBack: thread.rolledBack,
});

/** The runs a thread's history holds live from `after` on, oldest first, at most `limit` of them. */
function liveRunsAfter(runs: SimRun[], after: number, limit: number): RunSinceLastNative[] {
  const found: RunSinceLastNative[] = [];
  for (let ordinal = after + 1; ordinal <= runs.length && found.length < limit; ordinal++) {
    const run = runs[ordinal - 1]!;
    if (!run.rolledBack) found.push({ ordinal, providerThreadId: run.providerThreadId });
  }
  return found;
}

/** What every simulated run needs besides its thread: the settings, the threads' providers, ids. */
interface Play {
  planner: PlannerSettings;
  /** The providers each simulated thread has used so far, as summaries/input reads them. */
  providersOf: (threadId: string) => string[];
  newId: (kind: string) => string;
}

/**
 * One startRun on `thread` and its completeRun, as the service would write them: the plan from the
 * snapshot (a fork's first run resolved as a pending fork), the provider thread created or reused,
 * and the handoff of a switch, of a fork's first run or of a merge-back taken in.
 */
async function playRun(
  play: Play,
  thread: SimThread,
  provider: ProviderDefinition,
  cleanContext: boolean,
  facts: FactText[],
): Promise<Plan> {
  const { planner } = play;
  const { runs, head } = thread;
  const ordinal = runs.length + 1;
  const target = thread.latest.get(provider.id) ?? null;
  // The snapshot reads the head among the thread's own runs: a fork's first run sees none.
  const headRun = head > thread.forkOrdinal ? runs[head - 1]! : null;
  const snapshot: PlanningSnapshot = {
    headOrdinal: head,
    headProviderThreadId: headRun?.providerThreadId ?? null,
    rolledBack: endsOf(thread.rolledBack),
    target: target && {
      providerThread: toRecord(target),
      coveredThroughOrdinal: coveredThrough(target.lastRunOrdinal, handoffCoveredThrough(target), null),
      standingHandoffCount: target.standing.length,
      runsSinceLastNative: liveRunsAfter(runs, target.lastRunOrdinal ?? 0, planner.maxRunsElsewhere + 1),
    },
  };
  const range = measurableDeltaRange(snapshot, planner);
  const history = historyOf(thread);
  const deltaRequest = range && {
    threadId: thread.id,
    title: thread.title,
    range,
    strategy: 'delta_since_target_last_seen' as const,
    targetProvider: provider.id,
    budgetChars: null,
  };
  const deltaChars = deltaRequest
    ? summarize(
        await readSummaryMaterial(simulatedHistory(runs, play.providersOf), history, deltaRequest),
        deltaRequest,
      ).text.length
    : null;
  const request = { provider, model: null, runtimeMode: null, cleanContext };
  let plan: Plan = decidePlan(snapshot, request, deltaChars, planner);
  const fork = thread.pendingFork;
  const resolution =
    fork &&
    resolveFork(
      {
        sourceProviderThread: toRecord(fork.source),
        sourceRunOrdinal: thread.forkOrdinal,
        sourceTurns: 0,
        fromCheckpoint: false,
      },
      request,
    );
  // The seeded provider threads have no native id: a fork takes its source in as portable context.
  if (resolution?.kind === 'native') throw new Error(`a seeded fork cannot fork natively: ${resolution.reason}`);
  if (resolution) plan = planForFork(plan, resolution);
  let pt: SimProviderThread;
  if (plan.providerThreadAction === 'create') {
    if (plan.replacedProviderThreadId) {
      const replaced = thread.providerThreads.find((candidate) => candidate.id === plan.replacedProviderThreadId)!;
      if (!['resume_failed', 'divergent', 'rolled_back'].includes(replaced.status)) replaced.status = 'stale';
    }
    pt = {
      id: play.newId('pt'),
      provider: provider.id,
      seq: thread.providerThreads.length + 1,
      firstRunOrdinal: null,
      lastRunOrdinal: null,
      served: [],
      status: 'idle',
      statusReason: null,
      standing: [],
    };
    thread.providerThreads.push(pt);
    thread.latest.set(provider.id, pt);
  } else {
    pt = target!;
  }
  Object.assign(pt, servingRun(pt.served, ordinal));
  pt.status = 'idle';
  if (!thread.threadProviders.includes(provider.id)) thread.threadProviders.push(provider.id);
  const userMessage = `Turn ${ordinal}: continue the parser work on ${provider.id}`;
  const assistantMessage = `Done with step ${ordinal}: updated the grammar and its tests.`;
  const props: Record<string, unknown> = {
    id: play.newId('run'),
    ordinal,
    provider: provider.id,
    providerThreadId: pt.id,
    userMessage,
    assistantMessage,
    planDecision: plan.decision,
    planAction: plan.providerThreadAction,
    planProviderThreadId: plan.providerThreadAction === 'create' ? null : pt.id,
    planStrategy: plan.handoffStrategy,
    planCoveredFrom: plan.coveredRunOrdinals?.from ?? null,
    planCoveredTo: plan.coveredRunOrdinals?.to ?? null,
    planSignals: plan.stalenessSignals,
    planReasons: plan.reasons,
  };
  const at = { thread, history, play, provider, pt, props };
  if (plan.handoffStrategy && plan.coveredRunOrdinals) {
    // The usage places a merge-back only before a run that stays on its provider.
    if (thread.pendingMergeBack)
      throw new Error(`run ${ordinal} of ${thread.id} would carry a merge-back and a switch`);
    const forkTransfer = fork && resolution && { ...fork.transfer, resolution: resolution.resolution };
    const row = await handoffFor(plan, at, forkTransfer);
    thread.handoffRows.push(row);
    pt.standing.push(row);
  } else if (thread.pendingMergeBack) {
    thread.mergeBackRows.push(await mergeBackHandoff(thread.pendingMergeBack, at));
  }
  thread.pendingFork = null;
  thread.pendingMergeBack = null;
  const checkpoint =
    ordinal % USAGE.checkpointEvery === 0
      ? {
          id: play.newId('cp'),
          ref: `git:${createHash('sha1').update(String(ordinal)).digest('hex').slice(0, 12)}`,
          diffSummary: `Run ${ordinal}: 3 files changed`,
          filesJson: JSON.stringify([
            { path: 'src/parser.ts', change: 'modified', additions: 12, deletions: 4, previousPath: null },
          ]),
          fileCount: 1,
        }
      : null;
  runs.push({
    ordinal,
    provider: provider.id,
    providerThreadId: pt.id,
    userMessage,
    assistantMessage,
    facts,
    checkpoint,
    rolledBack: false,
    props,
  });
  thread.head = ordinal;
  return plan;
}

/**
 * The thread's use played through the planner, the summarizer and the rollback rules, in memory:
 * its runs and rollbacks, and its forks and subagents with their own runs.
 */
async function simulateThread(options: SeedOptions): Promise<SimulatedThread> {
  const { threadId, size, planner } = options;
  const byId = new Map(options.providers.map((p) => [p.id, p]));
  const [mainProvider, otherProvider] = [options.providers[0]!, options.providers[1]!];
  const steps = usageSteps(size, [mainProvider.id, otherProvider.id]);
  const random = randomNumbers(USAGE_SEED + 2);
  const forkFacts = randomNumbers(USAGE_SEED + 4);
  const main = newSimThread(threadId, `Bench ${size}`);
  const threads = new Map([[main.id, main]]);
  let ids = 0;
  const play: Play = {
    planner,
    providersOf: (id) => threads.get(id)!.threadProviders,
    newId: (kind) => `${kind}_${threadId}-${++ids}`,
  };
  const children: SimChild[] = [];
  const decisions: Record<string, number> = {};
  let switches = 0;
  let rollbacks = 0;
  const child = (relationship: SimChild['relationship'], title: string, inherits: boolean) => {
    const sourceRun = main.runs[main.head - 1]!;
    const thread = newSimThread(
      `${threadId}-${relationship}-${children.length + 1}`,
      `${title} of run ${main.head}`,
      inherits ? { from: main, at: main.head } : undefined,
    );
    threads.set(thread.id, thread);
    return { thread, sourceRun };
  };

  for (const step of steps) {
    if ('rollbackDepth' in step) {
      rollbacks++;
      main.head = rollBack(main.runs, main.head, step.rollbackDepth, main.providerThreads, main.handoffRows, byId);
      main.rolledBack = union(main.rolledBack, [{ from: main.head + 1, to: main.runs.length }]);
      continue;
    }
    if ('forkRuns' in step) {
      const { thread, sourceRun } = child('fork', 'Fork', true);
      const transfer: TransferRow = { id: play.newId('tr'), kind: 'fork', createdBy: 'user', status: 'pending' };
      thread.pendingFork = {
        transfer,
        source: main.providerThreads.find((pt) => pt.id === sourceRun.providerThreadId)!,
      };
      for (let i = 0; i < step.forkRuns; i++) await playRun(play, thread, mainProvider, false, factsFor(forkFacts));
      const mergeBack = step.mergeBack ? { id: play.newId('tr'), fork: thread, ordinal: thread.head } : null;
      main.pendingMergeBack = mergeBack;
      children.push({ thread, relationship: 'fork', parentId: main.id, sourceRun, transfer, mergeBack });
      continue;
    }
    if ('subagentRuns' in step) {
      const { thread, sourceRun } = child('subagent', 'Subagent', false);
      // The provider gave the subagent its task itself (importSubagentThread): the transfer is consumed.
      const transfer: TransferRow = {
        id: play.newId('tr'),
        kind: 'subagent_spawn',
        createdBy: 'agent',
        status: 'consumed',
        resolution: 'imported',
        contextText: `Run the parser tests for run ${sourceRun.ordinal} and report what fails`,
      };
      // Its runs record no facts: a subagent's work facts would join its parent run's summaries.
      for (let i = 0; i < step.subagentRuns; i++) await playRun(play, thread, byId.get(sourceRun.provider)!, false, []);
      children.push({ thread, relationship: 'subagent', parentId: main.id, sourceRun, transfer, mergeBack: null });
      continue;
    }
    const ordinal = main.runs.length + 1;
    const headRun = main.head > 0 ? main.runs[main.head - 1]! : null;
    if (headRun && headRun.provider !== step.provider) switches++;
    const cleanContext = options.owed === 'full-existing' && ordinal >= size - 1 && step.provider === mainProvider.id;
    const plan = await playRun(play, main, byId.get(step.provider)!, cleanContext, factsFor(random));
    decisions[plan.decision] = (decisions[plan.decision] ?? 0) + 1;
  }
  return {
    main,
    children,
    decisions,
    switches,
    rollbacks,
    lastProvider: main.runs[main.runs.length - 1]!.provider,
  };
}

/** The facts of one run, drawn from USAGE.factsPerRun. */
function factsFor(random: () => number): FactText[] {
  let draw = random();
  let howMany = 0;
  while (howMany < USAGE.factsPerRun.length - 1 && draw >= USAGE.factsPerRun[howMany]!) {
    draw -= USAGE.factsPerRun[howMany]!;
    howMany++;
  }
  return Array.from({ length: howMany }, () => FACT_TEXTS[Math.floor(random() * FACT_TEXTS.length)]!);
}

/** Where a simulated run's handoff is made: its thread and history, and the run about to be written. */
interface RunAtWork {
  thread: SimThread;
  history: ThreadHistory;
  play: Play;
  provider: ProviderDefinition;
  pt: SimProviderThread;
  props: Record<string, unknown>;
}

/**
 * The handoff startRun writes for a planned switch (a delta or a full summary) or for a fork's first
 * run (`forkTransfer`: a full summary of what it inherited), rendered by the service's summarizer.
 */
async function handoffFor(plan: Plan, at: RunAtWork, forkTransfer: TransferRow | null): Promise<HandoffRow> {
  const { thread, history, provider, props } = at;
  const runs = thread.runs;
  const range = plan.coveredRunOrdinals!;
  const { from, to } = range;
  const delta = plan.handoffStrategy === 'delta_since_target_last_seen';
  // As startRun writes it: a delta from the planner's unbounded read, a full summary from a read
  // bounded by the target's budget, both rendered within that budget.
  const budget = provider.capabilities.maxRecommendedHandoffChars;
  const summaryRequest = {
    threadId: thread.id,
    title: thread.title,
    range,
    strategy: plan.handoffStrategy!,
    targetProvider: provider.id,
    budgetChars: budget,
  };
  const source = await readSummaryMaterial(simulatedHistory(runs, at.play.providersOf), history, {
    ...summaryRequest,
    budgetChars: delta ? null : budget,
  });
  const summaryOf = (strategy: HandoffStrategy) => summarize(source, { ...summaryRequest, strategy });
  let strategy = plan.handoffStrategy!;
  let summary = summaryOf(strategy);
  // Past about 2,400 runs even a fully condensed full summary is cut; then startRun sends a
  // checkpoint summary instead and records why on the run's plan.
  if (fallsBackToCheckpointSummary(strategy, summary.cut, source.latestCheckpoint !== null)) {
    strategy = 'checkpoint_summary';
    summary = summaryOf(strategy);
    props.planStrategy = strategy;
    props.planReasons = [
      ...plan.reasons,
      `Even a fully condensed full-thread summary exceeds ${budget} characters, so a checkpoint summary is sent instead.`,
    ];
  }
  return {
    handoff: readyLocalHandoff(at, { from, to }, strategy, summary, budget),
    transfer: forkTransfer
      ? { ...forkTransfer, status: 'consumed', targetProvider: provider.id }
      : {
          id: at.play.newId('tr'),
          kind: 'provider_handoff',
          sourceThreadId: thread.id,
          targetThreadId: thread.id,
          sourceRunOrdinal: to,
          sourceProviderThreadId: runs[to - 1]!.providerThreadId,
          baseRunOrdinal: delta ? from - 1 : null,
          sourceProvider: runs[to - 1]!.provider,
          targetProvider: provider.id,
          status: 'consumed',
          resolution: delta ? 'delta_context' : 'portable_context',
          createdBy: 'user',
        },
    coverageEnds: rangeEnds(history, range),
  };
}

/** A handoff the service summarized itself, ready at once, made for the run at work over `range`. */
function readyLocalHandoff(
  { thread, provider, pt, props, play }: RunAtWork,
  range: OrdinalRange,
  strategy: HandoffStrategy,
  summary: { text: string; inputDigest: string; sourceProviderThreadIds: string[] },
  budget: number | null,
): HandoffRow['handoff'] {
  return {
    id: play.newId('ho'),
    threadId: thread.id,
    targetRunId: props.id,
    targetRunOrdinal: props.ordinal as number,
    fromProviderThreadIds: summary.sourceProviderThreadIds.filter((id) => id !== pt.id),
    toProviderThreadId: pt.id,
    coveredFrom: range.from,
    coveredTo: range.to,
    strategy,
    summaryText: summary.text,
    status: 'ready',
    delivery: deliveryFor(provider.capabilities),
    source: 'local',
    targetProvider: provider.id,
    inputDigest: summary.inputDigest,
    budgetChars: budget,
    omissions: [],
  };
}

/**
 * The handoff a run that makes no switch writes to take a merge-back in (runContext's merge-back
 * part as the lead): the fork's work since its fork point, summarized within half the budget.
 */
async function mergeBackHandoff(mergeBack: MergeBack, at: RunAtWork): Promise<HandoffRow> {
  const { provider } = at;
  const { fork } = mergeBack;
  const range = { from: fork.forkOrdinal + 1, to: mergeBack.ordinal };
  const budget = provider.capabilities.maxRecommendedHandoffChars;
  const summaryRequest = {
    threadId: fork.id,
    title: fork.title,
    range,
    strategy: 'fork_delta_summary' as const,
    targetProvider: provider.id,
    budgetChars: budget === null ? null : Math.floor(budget / 2),
  };
  const forkHistory = historyOf(fork);
  const summary = summarize(
    await readSummaryMaterial(simulatedHistory(fork.runs, at.play.providersOf), forkHistory, summaryRequest),
    summaryRequest,
  );
  return {
    handoff: readyLocalHandoff(at, range, 'fork_delta_summary', summary, budget),
    transfer: {
      id: mergeBack.id,
      kind: 'merge_back',
      status: 'consumed',
      resolution: 'delta_context',
      targetProvider: provider.id,
    },
    coverageEnds: rangeEnds(forkHistory, range),
  };
}

/**
 * rollbackThread to the newest live run below the `depth` newest ones, then every native rollback
 * confirmed (the bench's providers roll back natively): the withdrawn runs, the handoffs made for
 * them superseded, and every provider thread that knew one rolled back or divergent. Returns the new head.
 */
function rollBack(
  runs: SimRun[],
  head: number,
  depth: number,
  providerThreads: SimProviderThread[],
  handoffRows: HandoffRow[],
  providers: Map<string, ProviderDefinition>,
): number {
  let toOrdinal = head;
  for (let withdrawn = 0; withdrawn < depth; toOrdinal--) {
    if (!runs[toOrdinal - 1]!.rolledBack) {
      runs[toOrdinal - 1]!.rolledBack = true;
      withdrawn++;
    }
  }
  while (toOrdinal > 0 && runs[toOrdinal - 1]!.rolledBack) toOrdinal--;
  const handoffTargets = new Set<string>();
  for (let i = handoffRows.length - 1; i >= 0 && handoffRows[i]!.handoff.targetRunOrdinal > toOrdinal; i--) {
    const { handoff } = handoffRows[i]!;
    if (handoff.status !== 'ready') continue;
    handoff.status = 'superseded';
    handoff.endedBecause = 'rolled_back';
    handoffTargets.add(handoff.toProviderThreadId);
  }
  for (const pt of providerThreads) {
    pt.standing = pt.standing.filter((row) => row.handoff.status === 'ready');
    if (!((pt.lastRunOrdinal ?? 0) > toOrdinal || handoffTargets.has(pt.id))) continue;
    const canRollBack = providers.get(pt.provider)?.capabilities.canRollbackThread ?? false;
    const { action, reason } = rollbackDecision(canRollBack, pt.served, null, toOrdinal);
    pt.statusReason = action === 'rolled_back' ? 'Its native rollback was confirmed.' : reason;
    pt.status = action === 'rolled_back' ? 'idle' : action;
    Object.assign(pt, servedAfterRollback(pt.served, toOrdinal));
  }
  return toOrdinal;
}

/** Events per 1,000 runs of a seeded thread. */
function seedRates(
  result: Omit<SeedResult, 'rates' | 'seconds' | 'runsPerSecond' | 'decisions' | 'lastProvider'>,
): SeedRates {
  const per1000 = (events: number) => Math.round((events / result.runs) * 1000 * 10) / 10;
  return {
    switches: per1000(result.switches),
    handoffs: per1000(result.handoffs),
    providerThreads: per1000(result.providerThreads),
    rollbacks: per1000(result.rollbacks),
    rolledBackRuns: per1000(result.runs - result.liveRuns),
    facts: per1000(result.facts),
    forks: per1000(result.forks),
    forkRuns: per1000(result.forkRuns),
    mergeBacks: per1000(result.mergeBacks),
    subagents: per1000(result.subagents),
    subagentRuns: per1000(result.subagentRuns),
  };
}

/**
 * Where the rates of the sizes from RATE_CHECK_MIN_RUNS up spread by more than RATE_CHECK_TOLERANCE:
 * one line per rate, empty when they agree.
 */
export function rateSpreads(seeding: Record<number, Pick<SeedResult, 'rates'>>): string[] {
  const sizes = Object.keys(seeding)
    .map(Number)
    .filter((size) => size >= RATE_CHECK_MIN_RUNS);
  if (sizes.length < 2) return [];
  return (Object.keys(seeding[sizes[0]!]!.rates) as (keyof SeedRates)[]).flatMap((rate) => {
    const values = sizes.map((size) => seeding[size]!.rates[rate]);
    const [low, high] = [Math.min(...values), Math.max(...values)];
    return high > low * RATE_CHECK_TOLERANCE
      ? [`${rate} per 1,000 runs: ${sizes.map((size, i) => `${values[i]} at ${size}`).join(', ')}`]
      : [];
  });
}

/** The thread id histories are simulated under; each seeded thread's rows carry its own id in its place. */
const SIMULATED_THREAD = 'SEEDSIMULATEDTHREAD';
/** Simulated histories by all their options but the thread's id: the copies of a size differ only in their ids. */
const simulations = new Map<string, Promise<SimulatedThread>>();

/** The history of a thread of these options, simulated once per process: a size is seeded up to eight times. */
function simulated(options: Omit<SeedOptions, 'threadId'>): Promise<SimulatedThread> {
  const { size, owed = 'delta', providers, planner } = options;
  const key = JSON.stringify([size, owed, providers, planner]);
  const known = simulations.get(key);
  if (known) return known;
  const simulation = simulateThread({ size, owed, providers, planner, threadId: SIMULATED_THREAD });
  simulations.set(key, simulation);
  return simulation;
}

/** Rows of a simulated history for thread `threadId`: its id wherever the simulation's stands (ids, texts). */
function renamed<T>(value: T, threadId: string): T {
  if (typeof value === 'string') return value.replaceAll(SIMULATED_THREAD, threadId) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => renamed(item, threadId)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renamed(v, threadId)])) as T;
  return value;
}

/** A simulated history and the thread it is written as. */
interface Seeded {
  sim: SimulatedThread;
  threadId: string;
}

/** The history of a thread of `size` runs as the seed would write it, and its events, without writing it. */
export async function simulateSeed(options: SeedOptions): Promise<Omit<SeedResult, 'seconds' | 'runsPerSecond'>> {
  return describe(options.threadId, await simulated(options));
}

function describe(threadId: string, sim: SimulatedThread): Omit<SeedResult, 'seconds' | 'runsPerSecond'> {
  const { main, children } = sim;
  const forks = children.filter((child) => child.relationship === 'fork');
  const subagents = children.filter((child) => child.relationship === 'subagent');
  const ownRuns = (child: SimChild) => child.thread.runs.length - child.thread.forkOrdinal;
  const counts = {
    threadId,
    runs: main.runs.length,
    liveRuns: main.runs.length - count(main.rolledBack),
    providerThreads: main.providerThreads.length,
    handoffs: main.handoffRows.length,
    switches: sim.switches,
    rollbacks: sim.rollbacks,
    coversEdges: main.handoffRows.reduce((total, row) => total + row.coverageEnds.length, 0),
    facts: main.runs.reduce((total, run) => total + run.facts.length, 0),
    checkpoints: main.runs.filter((run) => run.checkpoint).length,
    forks: forks.length,
    forkRuns: forks.reduce((total, fork) => total + ownRuns(fork), 0),
    mergeBacks: main.mergeBackRows.length,
    subagents: subagents.length,
    subagentRuns: subagents.reduce((total, subagent) => total + ownRuns(subagent), 0),
  };
  return { ...counts, decisions: sim.decisions, lastProvider: sim.lastProvider, rates: seedRates(counts) };
}

/** Parameters as Neo4j takes them: integers as integers (not floats), null properties left out. */
const integers = (value: unknown): unknown => {
  if (typeof value === 'number' && Number.isInteger(value)) return neo4j.int(value);
  if (Array.isArray(value)) return value.map(integers);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, integers(v)]),
    );
  return value;
};

type Write = (query: string, params: Record<string, unknown>) => Promise<unknown>;

/** Child threads per write. */
const CHILDREN_PER_WRITE = 200;

const newProviderThreads = (thread: SimThread) =>
  thread.providerThreads.map(({ id, provider, seq }) => ({
    id,
    provider,
    seq,
    status: 'idle',
    runtimeMode: SEEDED_RUNTIME_MODE,
  }));

/** The thread's own runs as CREATE_RUNS takes them. */
const runRowsOf = (thread: SimThread) =>
  thread.runs.slice(thread.forkOrdinal).map((run) => ({
    run: run.props,
    status: run.rolledBack ? 'rolled_back' : 'completed',
    facts: run.facts,
    checkpoint: run.checkpoint,
  }));

/** FINISH_THREAD's per-thread parameters. */
function finishedThread(thread: SimThread) {
  const rolledBack = toLists(thread.rolledBack);
  return {
    threadId: thread.id,
    head: thread.head,
    last: thread.runs.length,
    rolledBackFrom: rolledBack.from,
    rolledBackTo: rolledBack.to,
    count: thread.providerThreads.length,
    providers: thread.threadProviders,
    providerThreads: thread.providerThreads.map(finishedProviderThread),
  };
}

/** Every handoff of a seeded history: the thread's own, those that took merge-backs in, its forks'. */
const handoffsOf = ({ sim, threadId }: Seeded) =>
  renamed(
    [...sim.main.handoffRows, ...sim.main.mergeBackRows, ...sim.children.flatMap((child) => child.thread.handoffRows)],
    threadId,
  );

/** The forks and subagents of the seeded histories, with their provider threads and runs, and the merge-backs. */
async function writeChildren(write: Write, seeds: Seeded[]): Promise<void> {
  const children = seeds.flatMap(({ sim, threadId }) => sim.children.map((child) => ({ child, threadId })));
  for (let offset = 0; offset < children.length; offset += CHILDREN_PER_WRITE) {
    const batch = children.slice(offset, offset + CHILDREN_PER_WRITE);
    await write(CREATE_CHILD_THREADS, {
      children: batch.map(({ child: { thread, relationship, parentId, sourceRun, transfer }, threadId }) => {
        const rolledBack = toLists(thread.rolledBack);
        return renamed(
          {
            id: thread.id,
            parentId,
            relationship,
            title: thread.title,
            sourceRunId: sourceRun.props.id,
            forkOrdinal: thread.forkOrdinal,
            segments: thread.inherited.map((segment) => ({ threadId: segment.threadId, to: segment.to })),
            rolledBackFrom: rolledBack.from,
            rolledBackTo: rolledBack.to,
            transfer,
          },
          threadId,
        );
      }),
    });
    const threads = batch.map(({ child: { thread }, threadId }) =>
      renamed({ threadId: thread.id, providerThreads: newProviderThreads(thread), runs: runRowsOf(thread) }, threadId),
    );
    await write(forEachThread(CREATE_PROVIDER_THREADS), { threads });
    await write(forEachThread(CREATE_RUNS), { threads });
  }
  const mergeBacks = children.flatMap(({ child: { thread, mergeBack }, threadId }) =>
    mergeBack ? [renamed({ id: mergeBack.id, forkId: thread.id, ordinal: mergeBack.ordinal }, threadId)] : [],
  );
  if (mergeBacks.length > 0) await write(CREATE_MERGE_BACKS, { mergeBacks });
}

/** The handoffs, in batches bounded by their rows and their texts' characters. */
async function writeHandoffs(write: Write, rows: HandoffRow[], afterBatch?: () => Promise<void>): Promise<void> {
  for (let offset = 0; offset < rows.length;) {
    let end = offset;
    for (
      let chars = 0;
      end < rows.length && end - offset < HANDOFF_BATCH_ROWS && (end === offset || chars < HANDOFF_BATCH_CHARS);
      end++
    ) {
      chars += rows[end]!.handoff.summaryText.length;
    }
    await write(CREATE_HANDOFFS, { handoffs: rows.slice(offset, end) });
    await afterBatch?.();
    offset = end;
  }
}

/** FINISH_THREAD for the threads of the seeded histories: every read thread and its children. */
async function finishThreads(write: Write, seeds: Seeded[]): Promise<void> {
  const threads = seeds.flatMap(({ sim, threadId }) =>
    [sim.main, ...sim.children.map((child) => child.thread)].map((thread) => renamed(finishedThread(thread), threadId)),
  );
  for (let offset = 0; offset < threads.length; offset += CHILDREN_PER_WRITE)
    await write(forEachThread(FINISH_THREAD), { threads: threads.slice(offset, offset + CHILDREN_PER_WRITE) });
}

/**
 * Seeds one thread of `size` runs, and its forks and subagents. `log` receives a progress line now and then.
 */
export async function seedThread(driver: Driver, database: string, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const { threadId, size } = options;
  const seeded = { sim: await simulated(options), threadId };
  const { sim } = seeded;
  const runRows = runRowsOf(sim.main);
  const session = driver.session({ database });
  try {
    const write: Write = (query, params) =>
      session.executeWrite((tx) =>
        tx.run(query, integers({ tenant: TENANT, threadId, ...params }) as Record<string, unknown>),
      );
    await write(CREATE_THREAD, { id: threadId, title: sim.main.title });
    await write(CREATE_PROVIDER_THREADS, { providerThreads: renamed(newProviderThreads(sim.main), threadId) });
    const batch = options.batch ?? 5000;
    let lastLog = 0;
    for (let offset = 0; offset < runRows.length; offset += batch) {
      await write(CREATE_RUNS, { runs: renamed(runRows.slice(offset, offset + batch), threadId) });
      await options.afterBatch?.();
      const done = Math.min(runRows.length, offset + batch);
      if (options.log && (performance.now() - lastLog > 1000 || done === runRows.length)) {
        lastLog = performance.now();
        const seconds = (performance.now() - started) / 1000;
        const width = 30;
        const filled = Math.round((done / runRows.length) * width);
        options.log(
          `  seeding ${threadId} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${runRows.length} runs, ${Math.round(done / seconds)} runs/s`,
        );
      }
    }
    await writeChildren(write, [seeded]);
    await options.afterBatch?.();
    await writeHandoffs(write, handoffsOf(seeded), options.afterBatch);
    await finishThreads(write, [seeded]);
  } finally {
    await session.close();
  }
  const seconds = (performance.now() - started) / 1000;
  return { ...describe(threadId, sim), seconds, runsPerSecond: size / seconds };
}

/**
 * The statements above for many threads at once: each one run per row of $threads inside a CALL, its
 * per-thread parameters read from that row. So a crowd of small threads, or a thread's forks and
 * subagents, is written in a few large transactions (as the big thread's runs are) rather than a
 * handful of small ones per thread.
 */
const PER_THREAD_PARAMETERS = [
  'threadId',
  'id',
  'title',
  'providerThreads',
  'runs',
  'head',
  'last',
  'count',
  'providers',
  'rolledBackFrom',
  'rolledBackTo',
];
const forEachThread = (statement: string) =>
  `UNWIND $threads AS seeded CALL (seeded) {\n${statement
    .replace(new RegExp(`\\$(${PER_THREAD_PARAMETERS.join('|')})\\b`, 'g'), 'seeded.$1')
    // The row stays in scope through the statement's own WITHs and subqueries.
    .replace(/^WITH /gm, 'WITH seeded, ')
    .replace(/CALL \(/g, 'CALL (seeded, ')}\n}`;

/**
 * Seeds `threadIds.length` threads of `size` runs each, `perWrite` threads per write: the same history
 * for every one (USAGE from the start), with ids of their own. Returns the runs written per second.
 */
export async function seedSmallThreads(
  driver: Driver,
  database: string,
  options: Omit<SeedOptions, 'threadId' | 'afterBatch'> & { threadIds: string[]; perWrite?: number },
): Promise<{ seconds: number; runsPerSecond: number }> {
  const started = performance.now();
  const perWrite = options.perWrite ?? 50;
  const session = driver.session({ database });
  let lastLog = 0;
  try {
    for (let offset = 0; offset < options.threadIds.length; offset += perWrite) {
      const sim = await simulated(options);
      const seeds = options.threadIds.slice(offset, offset + perWrite).map((threadId) => ({ sim, threadId }));
      const write: Write = (query, params) =>
        session.executeWrite((tx) => tx.run(query, integers({ tenant: TENANT, ...params }) as Record<string, unknown>));
      const threads = seeds.map(({ threadId }) =>
        renamed(
          {
            threadId,
            id: threadId,
            title: sim.main.title,
            providerThreads: newProviderThreads(sim.main),
            runs: runRowsOf(sim.main),
          },
          threadId,
        ),
      );
      for (const statement of [CREATE_THREAD, CREATE_PROVIDER_THREADS, CREATE_RUNS])
        await write(forEachThread(statement), { threads });
      await writeChildren(write, seeds);
      await writeHandoffs(write, seeds.flatMap(handoffsOf));
      await finishThreads(write, seeds);
      const done = Math.min(options.threadIds.length, offset + perWrite);
      if (options.log && (performance.now() - lastLog > 10_000 || done === options.threadIds.length)) {
        lastLog = performance.now();
        options.log(`  seeding small threads: ${done}/${options.threadIds.length}`);
      }
    }
  } finally {
    await session.close();
  }
  const seconds = (performance.now() - started) / 1000;
  return { seconds, runsPerSecond: (options.threadIds.length * options.size) / seconds };
}
