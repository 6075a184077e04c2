// Bulk seeding of long threads for the benchmark, in batched UNWIND writes. The shapes are exactly
// the ones the service writes (cypher/threads/create, provider-threads/create, runs/create,
// runs/finish, handoffs/create, provider-threads/mark-stale, lineage/roll-back-runs and the steps
// after it); the history is simulated with the real planner (decidePlan) over an in-memory
// snapshot, so every switch gets the decision, provider thread and handoff the service would have
// produced, and every rollback the runs, handoffs and provider threads the service would have
// changed (the native rollbacks confirmed), and the handoff's text, digest and sources come
// from the service's own summarizer over the history simulated so far. How often a thread switches,
// rolls back and records facts is drawn from one distribution (USAGE) whatever its size, so what
// grows with switches grows linearly with runs, as in use.
import { createHash, randomUUID } from 'node:crypto';
import neo4j, { type Driver } from 'neo4j-driver';
import { liveHistory, type LivePiece, type ThreadHistory } from '../src/domain/history.js';
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
import { count, highest, intersect, lowest, toLists, union } from '../src/domain/ranges.js';
import type { HandoffStrategy, OrdinalRange, ProviderThreadRecord } from '../src/domain/records.js';
import type { checkpointSegments as checkpointSegmentsOf } from '../src/graph/repositories/planning.js';
import type { QueryName } from '../src/graph/queries.js';
import { txOf, type Params, type Row, type Tx } from '../src/graph/transactions.js';
import { readSummaryMaterial, summarize } from '../src/operations/summaries.js';

export const TENANT = 'local';
/** Every seeded provider thread runs in this mode, so asking for another one makes it stale. */
const SEEDED_RUNTIME_MODE = 'workspace-write';

/**
 * How a thread is used, the same at every size: long stretches on the main provider, short
 * excursions to the other (now and then a longer stay), a rollback of the last few runs every so
 * often, and zero to two facts a run. Intervals are drawn from narrow ranges so that a thousand runs
 * already show the rates of a hundred thousand.
 */
const USAGE = {
  mainStretch: { min: 25, max: 60 },
  shortExcursion: { min: 1, max: 6 },
  longExcursion: { min: 8, max: 37 },
  longExcursionShare: 0.15,
  rollbackInterval: { min: 80, max: 120 },
  rollbackDepth: { min: 1, max: 3 },
  /** Chances of 0, 1 and 2 facts on a run. */
  factsPerRun: [0.55, 0.35, 0.1],
  checkpointEvery: 5,
} as const;
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
  /** The first and last live run of its range, which its COVERS edges point to. */
  coverageEnds: number[];
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
  rates: SeedRates;
  seconds: number;
  runsPerSecond: number;
  decisions: Record<string, number>;
  lastProvider: string;
}

/** Deterministic pseudo-random numbers, so a size always gets the same history. */
function rng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

const between = (random: () => number, { min, max }: { min: number; max: number }) =>
  min + Math.floor(random() * (max - min + 1));

/** One step of a thread's use: a run on a provider, or a rollback of its newest `depth` live runs. */
export type Step = { provider: string } | { rollbackDepth: number };

/**
 * A thread's use as `size` runs and the rollbacks between them, drawn from USAGE. The thread ends
 * with 25 runs on the main provider (the other one's old thread is stale by then), a short
 * excursion to the other provider and three runs back on the main one: the last provider reuses its
 * thread, the other one is owed a delta, and every size ends in the same neighbourhood.
 */
export function usageSteps(size: number, providers: [string, string]): Step[] {
  const [main, other] = providers;
  const random = rng(USAGE_SEED);
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
  sequence.push(...ending);
  const steps: Step[] = [];
  const rollbacks = rng(USAGE_SEED + 1);
  let nextRollback = between(rollbacks, USAGE.rollbackInterval);
  sequence.forEach((provider, index) => {
    steps.push({ provider });
    // Never in the ending, which must stay as it is; never deeper than the runs before it.
    if (index + 1 === nextRollback && index < size - ending.length) {
      steps.push({ rollbackDepth: Math.min(between(rollbacks, USAGE.rollbackDepth), index) });
      nextRollback += between(rollbacks, USAGE.rollbackInterval);
    }
  });
  return steps.filter((step) => !('rollbackDepth' in step) || step.rollbackDepth > 0);
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

const CREATE_HANDOFFS = `
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
UNWIND $handoffs AS h
MATCH (run:Run {tenant: $tenant, id: h.handoff.targetRunId})
MATCH (target:ProviderThread {tenant: $tenant, id: h.handoff.toProviderThreadId})
CREATE (transfer:ContextTransfer)
SET transfer = h.transfer, transfer.tenant = $tenant, transfer.caption = h.transfer.kind + ' ' + h.handoff.id,
    transfer.createdAt = datetime(), transfer.handoffId = h.handoff.id, transfer.consumedAt = datetime()
CREATE (handoff:ContextHandoff)
SET handoff = h.handoff, handoff.tenant = $tenant, handoff.transferId = h.transfer.id, handoff.transferKind = h.transfer.kind,
    handoff.targetRunOrdinal = run.ordinal,
    handoff.caption = h.handoff.strategy + ' ' + toString(h.handoff.coveredFrom) + '-' + toString(h.handoff.coveredTo),
    handoff.createdAt = datetime(), handoff.updatedAt = datetime(), handoff.length = size(h.handoff.summaryText),
    handoff.endedAt = CASE WHEN h.handoff.endedBecause IS NULL THEN null ELSE datetime() END,
    handoff.requestedAt = datetime(), handoff.writtenAt = datetime(), handoff.usedAt = datetime()
CREATE (transfer)-[:MATERIALIZED_AS]->(handoff)
CREATE (transfer)-[:TO_THREAD]->(thread)
CREATE (transfer)-[:FROM_THREAD]->(thread)
CREATE (run)-[:USES]->(handoff)
CREATE (handoff)-[:DELIVERED_TO]->(target)
SET run.contextHandoffId = h.handoff.id
WITH thread, transfer, handoff, h
CALL (transfer, h) {
  MATCH (source:Run {tenant: $tenant, threadId: $threadId, ordinal: h.transfer.sourceRunOrdinal})
  CREATE (transfer)-[:FROM_RUN]->(source)
  SET transfer.sourceRunId = source.id
}
CALL (transfer, h) {
  OPTIONAL MATCH (base:Run {tenant: $tenant, threadId: $threadId, ordinal: h.transfer.baseRunOrdinal})
  FOREACH (_ IN CASE WHEN base IS NULL THEN [] ELSE [1] END | CREATE (transfer)-[:BASE_RUN]->(base) SET transfer.baseRunId = base.id)
}
CALL (handoff, h) {
  UNWIND h.handoff.fromProviderThreadIds AS sourceId
  MATCH (source:ProviderThread {tenant: $tenant, id: sourceId})
  CREATE (handoff)-[:DRAWN_FROM]->(source)
}
CALL (handoff, h) {
  UNWIND h.coverageEnds AS end
  MATCH (covered:Run {tenant: $tenant, threadId: $threadId, ordinal: end})
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
function simulatedHistory(threadId: string, runs: SimRun[], threadProviders: string[]): Tx {
  const newest = (piece: LivePiece, limit: number, take: (run: SimRun) => boolean) => {
    for (let ordinal = piece.to; ordinal >= piece.from && limit > 0; ordinal--) if (take(runs[ordinal - 1]!)) limit--;
  };
  const latestCheckpoint = (pieces: LivePiece[]): Row[] => {
    let checkpoint: Row | null = null;
    for (const piece of pieces)
      newest(piece, 1, (run) => {
        if (run.checkpoint && (checkpoint === null || (checkpoint.runOrdinal as number) < run.ordinal))
          checkpoint = { ...run.checkpoint, runOrdinal: run.ordinal, threadId, status: 'current' };
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
      checkpointSegments.flatMap((segment) => segment.pieces.map(([from, to]) => ({ threadId, from, to }))),
    );
    const providersOfRange = checkpointSegments.map(() => [...threadProviders]);
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

/** A thread's simulated history, ready to write. */
interface SimulatedThread {
  title: string;
  runs: SimRun[];
  providerThreads: SimProviderThread[];
  handoffRows: HandoffRow[];
  rolledBack: OrdinalRange[];
  threadProviders: string[];
  decisions: Record<string, number>;
  switches: number;
  rollbacks: number;
  /** Its newest live run. */
  head: number;
  lastProvider: string;
}

/** The runs a thread's history holds live from `after` on, oldest first, at most `limit` of them. */
function liveRunsAfter(runs: SimRun[], after: number, limit: number): RunSinceLastNative[] {
  const found: RunSinceLastNative[] = [];
  for (let ordinal = after + 1; ordinal <= runs.length && found.length < limit; ordinal++) {
    const run = runs[ordinal - 1]!;
    if (!run.rolledBack) found.push({ ordinal, providerThreadId: run.providerThreadId });
  }
  return found;
}

/** The thread's use played through the planner, the summarizer and the rollback rules, in memory. */
async function simulateThread(options: SeedOptions): Promise<SimulatedThread> {
  const { threadId, size, planner } = options;
  const title = `Bench ${size}`;
  const byId = new Map(options.providers.map((p) => [p.id, p]));
  const [main, other] = [options.providers[0]!.id, options.providers[1]!.id];
  const steps = usageSteps(size, [main, other]);
  const random = rng(USAGE_SEED + 2);
  const providerThreads: SimProviderThread[] = [];
  const latest = new Map<string, SimProviderThread>();
  const runs: SimRun[] = [];
  const decisions: Record<string, number> = {};
  const handoffRows: HandoffRow[] = [];
  const threadProviders: string[] = [];
  let rolledBack: OrdinalRange[] = [];
  let head = 0;
  let switches = 0;
  let rollbacks = 0;

  for (const step of steps) {
    if ('rollbackDepth' in step) {
      rollbacks++;
      head = rollBack(runs, head, step.rollbackDepth, providerThreads, handoffRows, byId);
      rolledBack = union(rolledBack, [{ from: head + 1, to: runs.length }]);
      continue;
    }
    const ordinal = runs.length + 1;
    const provider = byId.get(step.provider)!;
    const target = latest.get(provider.id) ?? null;
    const headRun = head > 0 ? runs[head - 1]! : null;
    if (headRun && headRun.provider !== provider.id) switches++;
    const snapshot: PlanningSnapshot = {
      headOrdinal: head,
      headProviderThreadId: headRun?.providerThreadId ?? null,
      rolledBack,
      target: target && {
        providerThread: toRecord(target),
        coveredThroughOrdinal: coveredThrough(target.lastRunOrdinal, handoffCoveredThrough(target), null),
        standingHandoffCount: target.standing.length,
        runsSinceLastNative: liveRunsAfter(runs, target.lastRunOrdinal ?? 0, planner.maxRunsElsewhere + 1),
      },
    };
    const range = measurableDeltaRange(snapshot, planner);
    const cleanContext = options.owed === 'full-existing' && ordinal >= size - 1 && provider.id === main;
    const history: ThreadHistory = {
      id: threadId,
      forkOrdinal: 0,
      inherited: [],
      lastOrdinal: runs.length,
      rolledBack,
    };
    const deltaRequest = range && {
      threadId,
      title,
      range,
      strategy: 'delta_since_target_last_seen' as const,
      targetProvider: provider.id,
      budgetChars: null,
    };
    const deltaChars = deltaRequest
      ? summarize(
          await readSummaryMaterial(simulatedHistory(threadId, runs, threadProviders), history, deltaRequest),
          deltaRequest,
        ).text.length
      : null;
    const plan: Plan = decidePlan(
      snapshot,
      { provider, model: null, runtimeMode: null, cleanContext },
      deltaChars,
      planner,
    );
    decisions[plan.decision] = (decisions[plan.decision] ?? 0) + 1;
    let pt: SimProviderThread;
    if (plan.providerThreadAction === 'create') {
      if (plan.replacedProviderThreadId) {
        const replaced = providerThreads.find((candidate) => candidate.id === plan.replacedProviderThreadId)!;
        if (!['resume_failed', 'divergent', 'rolled_back'].includes(replaced.status)) replaced.status = 'stale';
      }
      pt = {
        id: `pt_${randomUUID()}`,
        provider: provider.id,
        seq: providerThreads.length + 1,
        firstRunOrdinal: null,
        lastRunOrdinal: null,
        served: [],
        status: 'idle',
        statusReason: null,
        standing: [],
      };
      providerThreads.push(pt);
      latest.set(provider.id, pt);
    } else {
      pt = target!;
    }
    Object.assign(pt, servingRun(pt.served, ordinal));
    pt.status = 'idle';
    if (!threadProviders.includes(provider.id)) threadProviders.push(provider.id);
    const runId = `run_${randomUUID()}`;
    const userMessage = `Turn ${ordinal}: continue the parser work on ${provider.id}`;
    const assistantMessage = `Done with step ${ordinal}: updated the grammar and its tests.`;
    const props: Record<string, unknown> = {
      id: runId,
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
    if (plan.handoffStrategy && plan.coveredRunOrdinals) {
      const row = await handoffFor(plan, { threadId, title, runs, history, threadProviders, provider, pt, props });
      handoffRows.push(row);
      pt.standing.push(row);
    }
    const facts = factsFor(random);
    const checkpoint =
      ordinal % USAGE.checkpointEvery === 0
        ? {
            id: `cp_${randomUUID()}`,
            ref: `git:${createHash('sha1').update(String(ordinal)).digest('hex').slice(0, 12)}`,
            diffSummary: `Run ${ordinal}: 3 files changed`,
            filesJson: JSON.stringify([{ path: 'src/parser.ts', change: 'modified', additions: 12, deletions: 4 }]),
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
    head = ordinal;
  }
  return {
    title,
    runs,
    providerThreads,
    handoffRows,
    rolledBack,
    threadProviders,
    decisions,
    switches,
    rollbacks,
    head,
    lastProvider: runs[runs.length - 1]!.provider,
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

/** The handoff startRun writes for a planned switch: a delta or a full summary rendered by the service's summarizer. */
async function handoffFor(
  plan: Plan,
  at: {
    threadId: string;
    title: string;
    runs: SimRun[];
    history: ThreadHistory;
    threadProviders: string[];
    provider: ProviderDefinition;
    pt: SimProviderThread;
    props: Record<string, unknown>;
  },
): Promise<HandoffRow> {
  const { threadId, title, runs, history, provider, pt, props } = at;
  const range = plan.coveredRunOrdinals!;
  const { from, to } = range;
  const delta = plan.handoffStrategy === 'delta_since_target_last_seen';
  // As startRun writes it: a delta from the planner's unbounded read, a full summary from a read
  // bounded by the target's budget, both rendered within that budget.
  const budget = provider.capabilities.maxRecommendedHandoffChars;
  const summaryRequest = {
    threadId,
    title,
    range,
    strategy: plan.handoffStrategy!,
    targetProvider: provider.id,
    budgetChars: budget,
  };
  const source = await readSummaryMaterial(simulatedHistory(threadId, runs, at.threadProviders), history, {
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
  const live = intersect(liveHistory(history), [range]);
  return {
    handoff: {
      id: `ho_${randomUUID()}`,
      threadId,
      targetRunId: props.id,
      targetRunOrdinal: props.ordinal as number,
      fromProviderThreadIds: summary.sourceProviderThreadIds.filter((id) => id !== pt.id),
      toProviderThreadId: pt.id,
      coveredFrom: from,
      coveredTo: to,
      strategy,
      summaryText: summary.text,
      status: 'ready',
      delivery: deliveryFor(provider.capabilities),
      source: 'local',
      targetProvider: provider.id,
      inputDigest: summary.inputDigest,
      budgetChars: budget,
      omissions: [],
    },
    transfer: {
      id: `tr_${randomUUID()}`,
      kind: 'provider_handoff',
      sourceThreadId: threadId,
      targetThreadId: threadId,
      sourceRunOrdinal: to,
      sourceProviderThreadId: runs[to - 1]!.providerThreadId,
      baseRunOrdinal: delta ? from - 1 : null,
      sourceProvider: runs[to - 1]!.provider,
      targetProvider: provider.id,
      status: 'consumed',
      resolution: delta ? 'delta_context' : 'portable_context',
      createdBy: 'user',
    },
    coverageEnds: [...new Set([lowest(live)!, highest(live)])],
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
  result: Pick<SeedResult, 'runs' | 'liveRuns' | 'switches' | 'handoffs' | 'providerThreads' | 'rollbacks' | 'facts'>,
): SeedRates {
  const per1000 = (events: number) => Math.round((events / result.runs) * 1000 * 10) / 10;
  return {
    switches: per1000(result.switches),
    handoffs: per1000(result.handoffs),
    providerThreads: per1000(result.providerThreads),
    rollbacks: per1000(result.rollbacks),
    rolledBackRuns: per1000(result.runs - result.liveRuns),
    facts: per1000(result.facts),
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

/** The history of a thread of `size` runs as the seed would write it, and its events, without writing it. */
export async function simulateSeed(options: SeedOptions): Promise<Omit<SeedResult, 'seconds' | 'runsPerSecond'>> {
  return describe(options.threadId, await simulateThread(options));
}

function describe(threadId: string, sim: SimulatedThread): Omit<SeedResult, 'seconds' | 'runsPerSecond'> {
  const counts = {
    threadId,
    runs: sim.runs.length,
    liveRuns: sim.runs.length - count(sim.rolledBack),
    providerThreads: sim.providerThreads.length,
    handoffs: sim.handoffRows.length,
    switches: sim.switches,
    rollbacks: sim.rollbacks,
    coversEdges: sim.handoffRows.reduce((total, row) => total + row.coverageEnds.length, 0),
    facts: sim.runs.reduce((total, run) => total + run.facts.length, 0),
    checkpoints: sim.runs.filter((run) => run.checkpoint).length,
    decisions: sim.decisions,
    lastProvider: sim.lastProvider,
  };
  return { ...counts, rates: seedRates(counts) };
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

/**
 * Seeds one thread of `size` runs. `log` receives a progress line now and then.
 */
export async function seedThread(driver: Driver, database: string, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const { threadId, size } = options;
  const sim = await simulateThread(options);
  const runRows = sim.runs.map((run) => ({
    run: run.props,
    status: run.rolledBack ? 'rolled_back' : 'completed',
    facts: run.facts,
    checkpoint: run.checkpoint,
  }));
  const handoffRows = sim.handoffRows;
  const session = driver.session({ database });
  try {
    const write = (query: string, params: Record<string, unknown>) =>
      session.executeWrite((tx) =>
        tx.run(query, integers({ tenant: TENANT, threadId, ...params }) as Record<string, unknown>),
      );
    await write(CREATE_THREAD, { id: threadId, title: sim.title });
    await write(CREATE_PROVIDER_THREADS, {
      providerThreads: sim.providerThreads.map(({ id, provider, seq }) => ({
        id,
        provider,
        seq,
        status: 'idle',
        runtimeMode: SEEDED_RUNTIME_MODE,
      })),
    });
    const batch = options.batch ?? 5000;
    let lastLog = 0;
    for (let offset = 0; offset < runRows.length; offset += batch) {
      await write(CREATE_RUNS, { runs: runRows.slice(offset, offset + batch) });
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
    for (let offset = 0; offset < handoffRows.length;) {
      let end = offset;
      for (
        let chars = 0;
        end < handoffRows.length &&
        end - offset < HANDOFF_BATCH_ROWS &&
        (end === offset || chars < HANDOFF_BATCH_CHARS);
        end++
      ) {
        chars += handoffRows[end]!.handoff.summaryText.length;
      }
      await write(CREATE_HANDOFFS, { handoffs: handoffRows.slice(offset, end) });
      await options.afterBatch?.();
      offset = end;
    }
    const rolledBack = toLists(sim.rolledBack);
    await write(FINISH_THREAD, {
      head: sim.head,
      last: size,
      rolledBackFrom: rolledBack.from,
      rolledBackTo: rolledBack.to,
      count: sim.providerThreads.length,
      providers: sim.threadProviders,
      providerThreads: sim.providerThreads.map(finishedProviderThread),
    });
  } finally {
    await session.close();
  }
  const seconds = (performance.now() - started) / 1000;
  return { ...describe(threadId, sim), seconds, runsPerSecond: size / seconds };
}

/**
 * The statements above for many threads at once: each one run per row of $threads inside a CALL, its
 * per-thread parameters read from that row. So a crowd of small threads is written in a few large
 * transactions (as the big thread's runs are) rather than a handful of small ones per thread.
 */
const PER_THREAD_PARAMETERS = [
  'threadId',
  'id',
  'title',
  'providerThreads',
  'runs',
  'handoffs',
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
      const threads = await Promise.all(
        options.threadIds.slice(offset, offset + perWrite).map(async (threadId) => {
          const sim = await simulateThread({ ...options, threadId });
          const rolledBack = toLists(sim.rolledBack);
          return {
            threadId,
            id: threadId,
            title: sim.title,
            providerThreads: sim.providerThreads.map((pt) => ({
              ...finishedProviderThread(pt),
              provider: pt.provider,
              seq: pt.seq,
              runtimeMode: SEEDED_RUNTIME_MODE,
            })),
            runs: sim.runs.map((run) => ({
              run: run.props,
              status: run.rolledBack ? 'rolled_back' : 'completed',
              facts: run.facts,
              checkpoint: run.checkpoint,
            })),
            handoffs: sim.handoffRows,
            head: sim.head,
            last: options.size,
            count: sim.providerThreads.length,
            providers: sim.threadProviders,
            rolledBackFrom: rolledBack.from,
            rolledBackTo: rolledBack.to,
          };
        }),
      );
      for (const statement of [CREATE_THREAD, CREATE_PROVIDER_THREADS, CREATE_RUNS, CREATE_HANDOFFS, FINISH_THREAD])
        await session.executeWrite((tx) =>
          tx.run(forEachThread(statement), integers({ tenant: TENANT, threads }) as Record<string, unknown>),
        );
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
