// Bulk seeding of long threads for the benchmark, in batched UNWIND writes. The shapes are exactly
// the ones the service writes (cypher/threads/create, provider-threads/create, runs/create,
// runs/finish, handoffs/create, provider-threads/mark-stale); the switching history is simulated
// with the real planner (decidePlan) over an in-memory snapshot, so every switch gets the decision,
// provider thread and handoff the service would have produced, and the handoff's text, input
// document and sources come from the service's own summarizer over the history simulated so far.
import { createHash, randomUUID } from 'node:crypto';
import neo4j, { type Driver } from 'neo4j-driver';
import type { LivePiece, ThreadHistory } from '../src/domain/history.js';
import {
  decidePlan,
  fallsBackToCheckpointSummary,
  measurableDeltaRange,
  type Plan,
  type PlannerSettings,
  type PlanningSnapshot,
} from '../src/domain/planner.js';
import { deliveryFor, type ProviderDefinition } from '../src/domain/providers.js';
import { servingRun } from '../src/domain/coverage.js';
import { toLists } from '../src/domain/ranges.js';
import type { HandoffStrategy, OrdinalRange, ProviderThreadRecord } from '../src/domain/records.js';
import type { Params, Row, Tx } from '../src/graph/transactions.js';
import { readSummarySource, summarize } from '../src/operations/summaries.js';

export const TENANT = 'local';
/** Every seeded provider thread runs in this mode, so asking for another one makes it stale. */
const SEEDED_RUNTIME_MODE = 'workspace-write';

interface SimProviderThread {
  id: string;
  provider: string;
  seq: number;
  firstRunOrdinal: number | null;
  lastRunOrdinal: number | null;
  served: OrdinalRange[];
  status: string;
  standing: number;
  handoffCoveredTo: number;
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
}

export interface SeedResult {
  threadId: string;
  runs: number;
  providerThreads: number;
  handoffs: number;
  coversEdges: number;
  facts: number;
  checkpoints: number;
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

/**
 * The provider of each run: long stretches on a main provider, short excursions to the other,
 * occasionally a longer stay there. Stretches grow with the thread so that a 100k thread has a
 * few hundred switches, not thousands.
 */
function providerSequence(size: number, providers: [string, string], seed = size): string[] {
  const random = rng(seed * 7919 + 17);
  const [main, other] = providers;
  const sequence: string[] = [];
  const meanStretch = Math.max(6, Math.min(Math.round(size / 120), 600));
  let onMain = true;
  while (sequence.length < size) {
    const length = onMain
      ? Math.max(3, Math.round(meanStretch * (0.4 + 1.2 * random())))
      : random() < 0.85
        ? 1 + Math.floor(random() * 6)
        : 8 + Math.floor(random() * 30);
    for (let i = 0; i < length && sequence.length < size; i++) sequence.push(onMain ? main : other);
    onMain = !onMain;
  }
  // The thread ends with a short excursion to the other provider and three runs back on the main
  // one, so that the last provider reuses its thread and the other one is owed a delta.
  // Before it, 25 runs on the main provider make the other one's old thread stale, so the excursion
  // starts a fresh provider thread: every size ends in the same neighbourhood.
  const ending =
    size >= 40
      ? [...Array<string>(25).fill(main), other, other, other, main, main, main]
      : size >= 8
        ? [other, other, other, main, main, main]
        : [main, main];
  ending.slice(-size).forEach((provider, i, list) => (sequence[size - list.length + i] = provider));
  return sequence;
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
SET run = r.run, run.tenant = $tenant, run.threadId = $threadId, run.status = 'completed',
    run.caption = '#' + toString(r.run.ordinal) + ' ' + r.run.provider, run.createdAt = datetime(), run.completedAt = datetime()
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
    fileCount: checkpoint.fileCount, status: 'current', caption: checkpoint.ref, createdAt: datetime()
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
  UNWIND CASE WHEN h.handoff.coveredFrom = h.handoff.coveredTo THEN [h.handoff.coveredFrom] ELSE [h.handoff.coveredFrom, h.handoff.coveredTo] END AS end
  MATCH (covered:Run {tenant: $tenant, threadId: $threadId, ordinal: end})
  CREATE (handoff)-[:COVERS]->(covered)
}`;

const FINISH_THREAD = `
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
SET thread.headOrdinal = $head, thread.lastOrdinal = $head, thread.providerThreadCount = $count, thread.providers = $providers
WITH thread
UNWIND $providerThreads AS p
MATCH (providerThread:ProviderThread {tenant: $tenant, id: p.id})
SET providerThread.status = p.status, providerThread.firstRunOrdinal = p.firstRunOrdinal, providerThread.lastRunOrdinal = p.lastRunOrdinal,
    providerThread.servedFrom = p.servedFrom, providerThread.servedTo = p.servedTo`;

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
 * checkpoint pieces. With it the seed runs the service's readSummarySource and summarize unchanged.
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
    checkpointPieces,
    runLimit,
    factLimit,
  }: {
    pieces: LivePiece[];
    checkpointPieces: LivePiece[];
    runLimit: number;
    factLimit: number;
  }): Row[] => {
    const checkpoints = latestCheckpoint(checkpointPieces);
    const providersOfRange = checkpointPieces.map(() => [...threadProviders]);
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
  const rows = async <T = Row>(query: string, params: Params = {}): Promise<T[]> => {
    if (query !== 'summaries/input')
      throw new Error(`the simulated history answers summaries/input only, not ${query}`);
    return answer(
      params as { pieces: LivePiece[]; checkpointPieces: LivePiece[]; runLimit: number; factLimit: number },
    ) as T[];
  };
  return { rows, one: async <T = Row>(query: string, params?: Params) => (await rows<T>(query, params))[0] ?? null };
}

/** Handoffs per write: their texts and input documents make them heavy, so a batch is also bounded by its characters. */
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

/**
 * Seeds one thread of `size` runs. `log` receives a progress line now and then.
 */
export async function seedThread(driver: Driver, database: string, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const { threadId, size, planner } = options;
  const title = `Bench ${size}`;
  const byId = new Map(options.providers.map((p) => [p.id, p]));
  const [main, other] = [options.providers[0]!.id, options.providers[1]!.id];
  const sequence = providerSequence(size, [main, other]);
  const random = rng(size * 31 + 7);
  const providerThreads: SimProviderThread[] = [];
  const latest = new Map<string, SimProviderThread>();
  const runs: SimRun[] = [];
  const decisions: Record<string, number> = {};
  const runRows: Record<string, unknown>[] = [];
  const handoffRows: {
    handoff: Record<string, unknown> & { summaryText: string; inputDocument: string };
    transfer: Record<string, unknown>;
  }[] = [];
  const threadProviders: string[] = [];
  let facts = 0;
  let checkpoints = 0;
  let coversEdges = 0;

  for (let index = 0; index < size; index++) {
    const ordinal = index + 1;
    const provider = byId.get(sequence[index]!)!;
    const head = index;
    const target = latest.get(provider.id) ?? null;
    const last = target?.lastRunOrdinal ?? 0;
    const snapshot: PlanningSnapshot = {
      headOrdinal: head,
      headProviderThreadId: head > 0 ? runs[head - 1]!.providerThreadId : null,
      target: target && {
        providerThread: toRecord(target),
        coveredThroughOrdinal: Math.max(last, target.handoffCoveredTo),
        standingHandoffCount: target.standing,
        runsSinceLastNative: runs
          .slice(last, last + planner.maxRunsElsewhere + 1)
          .map((run) => ({ ordinal: run.ordinal, providerThreadId: run.providerThreadId })),
      },
    };
    const range = measurableDeltaRange(snapshot, planner);
    const cleanContext = options.owed === 'full-existing' && index >= size - 2 && provider.id === main;
    const plan: Plan = decidePlan(
      snapshot,
      { provider, model: null, runtimeMode: null, cleanContext },
      range ? (range.to - range.from + 1) * 160 : null,
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
        standing: 0,
        handoffCoveredTo: 0,
      };
      providerThreads.push(pt);
      latest.set(provider.id, pt);
    } else {
      pt = target!;
    }
    pt.firstRunOrdinal ??= ordinal;
    pt.lastRunOrdinal = ordinal;
    pt.served = servingRun(pt.served, ordinal).served;
    pt.status = 'idle';
    if (!threadProviders.includes(provider.id)) threadProviders.push(provider.id);
    const runId = `run_${randomUUID()}`;
    const userMessage = `Turn ${ordinal}: continue the parser work on ${provider.id}`;
    const assistantMessage = `Done with step ${ordinal}: updated the grammar and its tests.`;
    const run: Record<string, unknown> = {
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
      const range = plan.coveredRunOrdinals;
      const { from, to } = range;
      const delta = plan.handoffStrategy === 'delta_since_target_last_seen';
      // As startRun writes it: a delta from the planner's unbounded read, a full summary from a read
      // bounded by the target's budget, both rendered within that budget.
      const budget = provider.capabilities.maxRecommendedHandoffChars;
      const history: ThreadHistory = { id: threadId, forkOrdinal: 0, inherited: [], lastOrdinal: head, rolledBack: [] };
      const summaryRequest = {
        threadId,
        title,
        range,
        strategy: plan.handoffStrategy,
        targetProvider: provider.id,
        budgetChars: budget,
      };
      const source = await readSummarySource(simulatedHistory(threadId, runs, threadProviders), history, {
        ...summaryRequest,
        budgetChars: delta ? null : budget,
      });
      const summaryOf = (strategy: HandoffStrategy) => summarize(source, { ...summaryRequest, strategy });
      let strategy = plan.handoffStrategy;
      let summary = summaryOf(strategy);
      // Past about 2,400 runs even a fully condensed full summary is cut; then startRun sends a
      // checkpoint summary instead and records why on the run's plan.
      if (fallsBackToCheckpointSummary(strategy, summary.cut, source.latestCheckpoint !== null)) {
        strategy = 'checkpoint_summary';
        summary = summaryOf(strategy);
        run.planStrategy = strategy;
        run.planReasons = [
          ...plan.reasons,
          `Even a fully condensed full-thread summary exceeds ${budget} characters, so a checkpoint summary is sent instead.`,
        ];
      }
      handoffRows.push({
        handoff: {
          id: `ho_${randomUUID()}`,
          threadId,
          targetRunId: runId,
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
          inputDocument: summary.document,
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
      });
      coversEdges += from === to ? 1 : 2;
      pt.standing += 1;
      pt.handoffCoveredTo = Math.max(pt.handoffCoveredTo, to);
    }
    const runFacts = ordinal % 3 === 0 ? [FACT_TEXTS[Math.floor(random() * FACT_TEXTS.length)]!] : [];
    if (ordinal % 7 === 0) runFacts.push(FACT_TEXTS[3]!);
    facts += runFacts.length;
    const checkpoint =
      ordinal % 5 === 0
        ? {
            id: `cp_${randomUUID()}`,
            ref: `git:${createHash('sha1').update(String(ordinal)).digest('hex').slice(0, 12)}`,
            diffSummary: `Run ${ordinal}: 3 files changed`,
            filesJson: JSON.stringify([{ path: 'src/parser.ts', change: 'modified', additions: 12, deletions: 4 }]),
            fileCount: 1,
          }
        : null;
    if (checkpoint) checkpoints++;
    runRows.push({ run, facts: runFacts, checkpoint });
    runs.push({
      ordinal,
      provider: provider.id,
      providerThreadId: pt.id,
      userMessage,
      assistantMessage,
      facts: runFacts,
      checkpoint,
    });
  }

  const session = driver.session({ database });
  const ints = (value: unknown): unknown => {
    if (typeof value === 'number' && Number.isInteger(value)) return neo4j.int(value);
    if (Array.isArray(value)) return value.map(ints);
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value)
          .filter(([, v]) => v !== null)
          .map(([k, v]) => [k, ints(v)]),
      );
    return value;
  };
  try {
    const write = (query: string, params: Record<string, unknown>) =>
      session.executeWrite((tx) =>
        tx.run(query, ints({ tenant: TENANT, threadId, ...params }) as Record<string, unknown>),
      );
    await write(CREATE_THREAD, { id: threadId, title });
    await write(CREATE_PROVIDER_THREADS, {
      providerThreads: providerThreads.map(({ id, provider, seq }) => ({
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
        chars += handoffRows[end]!.handoff.summaryText.length + handoffRows[end]!.handoff.inputDocument.length;
      }
      await write(CREATE_HANDOFFS, { handoffs: handoffRows.slice(offset, end) });
      await options.afterBatch?.();
      offset = end;
    }
    await write(FINISH_THREAD, {
      head: size,
      count: providerThreads.length,
      providers: threadProviders,
      providerThreads: providerThreads.map(({ id, status, firstRunOrdinal, lastRunOrdinal, served }) => {
        const { from, to } = toLists(served);
        return { id, status, firstRunOrdinal, lastRunOrdinal, servedFrom: from, servedTo: to };
      }),
    });
  } finally {
    await session.close();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    threadId,
    runs: size,
    providerThreads: providerThreads.length,
    handoffs: handoffRows.length,
    coversEdges,
    facts,
    checkpoints,
    seconds,
    runsPerSecond: size / seconds,
    decisions,
    lastProvider: sequence[size - 1]!,
  };
}
