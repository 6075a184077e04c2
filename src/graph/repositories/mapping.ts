// Node properties (as plain() returns them) -> the domain's records, as zod schemas the repositories'
// row schemas are made of: a property of the wrong type, or an enum value the domain does not know,
// fails the row with the statement's name and the property's path (rows.ts). Absent properties
// (older nodes) are nullish.
import type { ServedRuns } from '../../domain/coverage.js';
import { fromLists, toLists } from '../../domain/ranges.js';
import { RECEIPT_KINDS, type HandoffReceipt, type ReceiptKind } from '../../domain/receipt.js';
import { z } from 'zod';
import {
  CONTEXT_DELIVERIES,
  END_REASONS,
  FILE_CHANGE_KINDS,
  HANDOFF_STATUSES,
  HANDOFF_STRATEGIES,
  PLAN_DECISIONS,
  PROVIDER_THREAD_ACTIONS,
  PROVIDER_THREAD_STATUSES,
  RUN_FACT_KINDS,
  RUN_STATUSES,
  STALENESS_SIGNALS,
  THREAD_RELATIONSHIPS,
  TRANSFER_ACTORS,
  TRANSFER_KINDS,
  TRANSFER_RESOLUTIONS,
  TRANSFER_STATUSES,
  type CheckpointRecord,
  type HandoffRecord,
  type ListedRunRecord,
  type ProviderThreadRecord,
  type RunPlanRecord,
  type RunRecord,
  type SourcePointRecord,
  type ThreadRecord,
  type TransferRecord,
} from '../../domain/records.js';
import { absent } from '../rows.js';

type Props = Record<string, unknown>;

const ordinals = absent(z.array(z.number()));

const threadProperties = z.object({
  id: z.string(),
  title: absent(z.string()),
  project: absent(z.string()),
  createdAt: z.string(),
  deletedAt: absent(z.string()),
  providers: absent(z.array(z.string())),
  lastActivityAt: absent(z.string()),
  headOrdinal: z.number(),
  lastOrdinal: absent(z.number()),
  providerThreadCount: absent(z.number()),
  rolledBackFrom: ordinals,
  rolledBackTo: ordinals,
  parentThreadId: absent(z.string()),
  relationshipToParent: absent(z.enum(THREAD_RELATIONSHIPS)),
  rootThreadId: absent(z.string()),
  sourceRunId: absent(z.string()),
  sourceRunOrdinal: absent(z.number()),
  sourceCheckpointId: absent(z.string()),
  sourceProviderThreadId: absent(z.string()),
  forkOrdinal: absent(z.number()),
  changeSequence: absent(z.number()),
  segmentThreadIds: absent(z.array(z.string())),
  segmentTo: ordinals,
  segmentAsOf: absent(z.array(z.string())),
});

const listedRunShape = {
  id: z.string(),
  threadId: z.string(),
  ordinal: z.number(),
  provider: z.string(),
  model: absent(z.string()),
  runtimeMode: absent(z.string()),
  status: z.enum(RUN_STATUSES),
  providerThreadId: z.string(),
  contextHandoffId: absent(z.string()),
  planDecision: z.enum(PLAN_DECISIONS),
  planAction: z.enum(PROVIDER_THREAD_ACTIONS),
  planProviderThreadId: absent(z.string()),
  planStrategy: absent(z.enum(HANDOFF_STRATEGIES)),
  planCoveredFrom: absent(z.number()),
  planCoveredTo: absent(z.number()),
  planSignals: absent(z.array(z.enum(STALENESS_SIGNALS))),
  planReasons: absent(z.array(z.string())),
  planForkFromTurn: absent(z.number()),
  dispatchEpoch: absent(z.number()),
  createdAt: z.string(),
  completedAt: absent(z.string()),
};
/**
 * A Run node read without its long texts (runs/page, runs/listed-by-ids), parsed without a transform:
 * zod's transforms cost about 1 µs each on this hot path; listedRunRecord maps it.
 */
export const listedRunProperties = z.object(listedRunShape);

const runProperties = z.object({
  ...listedRunShape,
  userMessage: z.string(),
  assistantMessage: absent(z.string()),
  error: absent(z.string()),
});

const providerThreadProperties = z.object({
  id: z.string(),
  threadId: z.string(),
  seq: z.number(),
  provider: z.string(),
  nativeThreadRef: absent(z.string()),
  status: z.enum(PROVIDER_THREAD_STATUSES),
  model: absent(z.string()),
  runtimeMode: absent(z.string()),
  firstRunOrdinal: absent(z.number()),
  lastRunOrdinal: absent(z.number()),
  servedFrom: ordinals,
  servedTo: ordinals,
  statusReason: absent(z.string()),
  resumeError: absent(z.string()),
  rollbackError: absent(z.string()),
  forkedFromId: absent(z.string()),
  inheritedThroughOrdinal: absent(z.number()),
  createdAt: z.string(),
});

const handoffProperties = z.object({
  id: z.string(),
  transferId: z.string(),
  threadId: z.string(),
  targetRunId: z.string(),
  fromProviderThreadIds: absent(z.array(z.string())),
  toProviderThreadId: z.string(),
  coveredFrom: z.number(),
  coveredTo: z.number(),
  strategy: z.enum(HANDOFF_STRATEGIES),
  summaryText: absent(z.string()),
  status: z.enum(HANDOFF_STATUSES),
  createdByProvider: absent(z.string()),
  delivery: z.enum(CONTEXT_DELIVERIES),
  supersedesId: absent(z.string()),
  supersededById: absent(z.string()),
  source: absent(z.string()),
  inputDigest: absent(z.string()),
  budgetChars: absent(z.number()),
  length: absent(z.number()),
  requestedAt: absent(z.string()),
  writtenAt: absent(z.string()),
  usedAt: absent(z.string()),
  failureReason: absent(z.string()),
  endedBecause: absent(z.enum(END_REASONS)),
  endedAt: absent(z.string()),
  omissions: absent(z.array(z.string())),
  writer: absent(z.string()),
  targetProvider: absent(z.string()),
  inputDocument: absent(z.string()),
  receiptKinds: absent(z.array(z.string())),
  receiptHeld: ordinals,
  receiptKept: ordinals,
  receiptOmitted: absent(z.array(z.string())),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const transferProperties = z.object({
  id: z.string(),
  kind: z.enum(TRANSFER_KINDS),
  sourceThreadId: z.string(),
  targetThreadId: z.string(),
  sourceRunId: absent(z.string()),
  sourceRunOrdinal: absent(z.number()),
  sourceCheckpointId: absent(z.string()),
  sourceProviderThreadId: absent(z.string()),
  baseRunId: absent(z.string()),
  baseRunOrdinal: absent(z.number()),
  baseCheckpointId: absent(z.string()),
  baseProviderThreadId: absent(z.string()),
  sourceProvider: absent(z.string()),
  targetProvider: absent(z.string()),
  status: z.enum(TRANSFER_STATUSES),
  resolution: absent(z.enum(TRANSFER_RESOLUTIONS)),
  handoffId: absent(z.string()),
  contextText: absent(z.string()),
  createdBy: z.enum(TRANSFER_ACTORS),
  createdAt: z.string(),
  consumedAt: absent(z.string()),
  endedBecause: absent(z.enum(END_REASONS)),
  endedAt: absent(z.string()),
});

/** A typed file change, as facts carry it and checkpoints keep it (filesJson). */
export const fileChange = z.object({
  path: z.string(),
  change: z.enum(FILE_CHANGE_KINDS),
  additions: z.number().nullable(),
  deletions: z.number().nullable(),
  previousPath: z.string().nullable(),
});

const checkpointProperties = z.object({
  id: z.string(),
  runOrdinal: z.number(),
  ref: z.string(),
  diffSummary: absent(z.string()),
  filesJson: absent(z.string()),
  status: z.string(),
});
const checkpointFiles = z.array(fileChange);

/** A fact of a run as the statements that read facts project it. */
export const factShape = {
  runOrdinal: z.number(),
  kind: z.enum(RUN_FACT_KINDS),
  text: z.string(),
  key: z.string().nullable(),
  status: z.string().nullable(),
  file: fileChange.nullable(),
};

function threadRecord(node: z.infer<typeof threadProperties>): ThreadRecord {
  const segmentTo = node.segmentTo ?? [];
  const segmentAsOf = node.segmentAsOf ?? [];
  const parentThreadId = node.parentThreadId ?? null;
  return {
    id: node.id,
    title: node.title ?? null,
    project: node.project ?? null,
    createdAt: node.createdAt,
    deletedAt: node.deletedAt ?? null,
    providers: node.providers ?? [],
    lastActivityAt: node.lastActivityAt ?? node.createdAt,
    headOrdinal: node.headOrdinal,
    lastOrdinal: node.lastOrdinal ?? 0,
    providerThreadCount: node.providerThreadCount ?? 0,
    rolledBack: fromLists(node.rolledBackFrom ?? undefined, node.rolledBackTo ?? undefined),
    parentThreadId,
    relationshipToParent: node.relationshipToParent ?? null,
    rootThreadId: node.rootThreadId ?? node.id,
    sourcePoint:
      parentThreadId === null
        ? null
        : {
            threadId: parentThreadId,
            runId: node.sourceRunId ?? null,
            runOrdinal: node.sourceRunOrdinal ?? null,
            checkpointId: node.sourceCheckpointId ?? null,
            providerThreadId: node.sourceProviderThreadId ?? null,
          },
    forkOrdinal: node.forkOrdinal ?? 0,
    changeSequence: node.changeSequence ?? 0,
    inherited: (node.segmentThreadIds ?? []).map((threadId, index) => ({
      threadId,
      from: index === 0 ? 1 : (segmentTo[index - 1] ?? 0) + 1,
      to: segmentTo[index] ?? 0,
      asOf: segmentAsOf[index] ?? null,
    })),
  };
}

/** The plan is stored flat on the run (plan* properties) so analysts can query decisions directly. */
/** A Thread node as a ThreadRecord. */
export const threadNode = threadProperties.transform(threadRecord);

/** A Thread node read under its write lock: the record and its running run. */
export const lockedThreadNode = threadProperties
  .extend({ runningRunId: absent(z.string()) })
  .transform((node) => Object.assign(threadRecord(node), { runningRunId: node.runningRunId ?? null }));

function toPlan(node: z.infer<typeof listedRunProperties>): RunPlanRecord {
  const from = node.planCoveredFrom ?? null;
  const to = node.planCoveredTo ?? null;
  return {
    decision: node.planDecision,
    providerThreadAction: node.planAction,
    providerThreadId: node.planProviderThreadId ?? null,
    handoffStrategy: node.planStrategy ?? null,
    coveredRunOrdinals: from !== null && to !== null ? { from, to } : null,
    stalenessSignals: node.planSignals ?? [],
    reasons: node.planReasons ?? [],
    forkFromTurn: node.planForkFromTurn ?? null,
  };
}

export function planProperties(plan: RunPlanRecord): Props {
  return {
    planDecision: plan.decision,
    planAction: plan.providerThreadAction,
    planProviderThreadId: plan.providerThreadId,
    planStrategy: plan.handoffStrategy,
    planCoveredFrom: plan.coveredRunOrdinals?.from ?? null,
    planCoveredTo: plan.coveredRunOrdinals?.to ?? null,
    planSignals: plan.stalenessSignals,
    planReasons: plan.reasons,
    planForkFromTurn: plan.forkFromTurn ?? null,
  };
}

function runRecord(node: z.infer<typeof runProperties>): RunRecord {
  return Object.assign(listedRunRecord(node), {
    userMessage: node.userMessage,
    assistantMessage: node.assistantMessage ?? null,
    error: node.error ?? null,
  });
}

/** A Run node as a RunRecord. */
export const runNode = runProperties.transform(runRecord);

/** A Run node with the fingerprint of the request that started it (runs/by-idempotency-key). */
export const idempotentRunNode = runProperties
  .extend({ idempotencyFingerprint: z.string() })
  .transform((node) => Object.assign(runRecord(node), { idempotencyFingerprint: node.idempotencyFingerprint }));

export function listedRunRecord(node: z.infer<typeof listedRunProperties>): ListedRunRecord {
  return {
    id: node.id,
    threadId: node.threadId,
    ordinal: node.ordinal,
    provider: node.provider,
    model: node.model ?? null,
    runtimeMode: node.runtimeMode ?? null,
    status: node.status,
    providerThreadId: node.providerThreadId,
    contextHandoffId: node.contextHandoffId ?? null,
    plan: toPlan(node),
    dispatchEpoch: dispatchEpochOf(node.dispatchEpoch),
    createdAt: node.createdAt,
    completedAt: node.completedAt ?? null,
  };
}

/** Runs written before fencing have no epoch: theirs is the first dispatch. */
function dispatchEpochOf(stored: number | null | undefined): number {
  return stored ?? 1;
}

/**
 * What a check of a call about a run's dispatch reads (assertCurrentDispatch, the run's status): of
 * the run, and of the provider thread serving it. runs/finish answers only these, not the whole nodes.
 */
export const dispatchCheckRun = z
  .object({
    id: listedRunShape.id,
    status: listedRunShape.status,
    providerThreadId: listedRunShape.providerThreadId,
    dispatchEpoch: listedRunShape.dispatchEpoch,
  })
  .transform((node) => ({ ...node, dispatchEpoch: dispatchEpochOf(node.dispatchEpoch) }));
export const dispatchCheckProviderThread = providerThreadProperties.pick({ id: true, status: true });

/** A ProviderThread node as a ProviderThreadRecord. */
export const providerThreadNode = providerThreadProperties.transform((node): ProviderThreadRecord => ({
  id: node.id,
  threadId: node.threadId,
  seq: node.seq,
  provider: node.provider,
  nativeThreadRef: node.nativeThreadRef ?? null,
  status: node.status,
  model: node.model ?? null,
  runtimeMode: node.runtimeMode ?? null,
  firstRunOrdinal: node.firstRunOrdinal ?? null,
  lastRunOrdinal: node.lastRunOrdinal ?? null,
  served: fromLists(node.servedFrom ?? undefined, node.servedTo ?? undefined),
  statusReason: node.statusReason ?? null,
  resumeError: node.resumeError ?? null,
  rollbackError: node.rollbackError ?? null,
  forkedFromId: node.forkedFromId ?? null,
  inheritedThroughOrdinal: node.inheritedThroughOrdinal ?? null,
  createdAt: node.createdAt,
}));

function handoffRecord(node: z.infer<typeof handoffProperties>): HandoffRecord {
  const summaryText = node.summaryText ?? '';
  return {
    id: node.id,
    transferId: node.transferId,
    threadId: node.threadId,
    targetRunId: node.targetRunId,
    fromProviderThreadIds: node.fromProviderThreadIds ?? [],
    toProviderThreadId: node.toProviderThreadId,
    coveredRunOrdinals: { from: node.coveredFrom, to: node.coveredTo },
    strategy: node.strategy,
    summaryText,
    status: node.status,
    createdByProvider: node.createdByProvider ?? null,
    delivery: node.delivery,
    supersedesId: node.supersedesId ?? null,
    supersededById: node.supersededById ?? null,
    source: node.source ?? 'local',
    inputDigest: node.inputDigest ?? null,
    budgetChars: node.budgetChars ?? null,
    length: node.length ?? summaryText.length,
    requestedAt: node.requestedAt ?? node.createdAt,
    writtenAt: node.writtenAt ?? null,
    usedAt: node.usedAt ?? null,
    failureReason: node.failureReason ?? null,
    endedBecause: node.endedBecause ?? null,
    endedAt: node.endedAt ?? null,
    omissions: node.omissions ?? [],
    receipt: receiptOf(node),
    summaryRequest:
      node.status === 'pending' && node.writer
        ? {
            handoffId: node.id,
            writer: node.writer,
            targetProvider: node.targetProvider ?? '',
            strategy: node.strategy,
            document: node.inputDocument ?? '',
            budgetChars: node.budgetChars ?? null,
          }
        : null,
    createdAt: node.createdAt,
    updatedAt: node.updatedAt,
  };
}

/** A ContextHandoff node as a HandoffRecord. */
export const handoffNode = handoffProperties.transform(handoffRecord);

type TransferProperties = z.infer<typeof transferProperties>;

/** The transfer's source or base point: null when it names no run ordinal. */
function pointOf(node: TransferProperties, prefix: 'source' | 'base'): SourcePointRecord | null {
  const runOrdinal = node[`${prefix}RunOrdinal`] ?? null;
  return runOrdinal === null
    ? null
    : {
        threadId: node.sourceThreadId,
        runId: node[`${prefix}RunId`] ?? null,
        runOrdinal,
        checkpointId: node[`${prefix}CheckpointId`] ?? null,
        providerThreadId: node[`${prefix}ProviderThreadId`] ?? null,
      };
}

function transferRecord(node: TransferProperties): TransferRecord {
  return {
    id: node.id,
    kind: node.kind,
    sourceThreadId: node.sourceThreadId,
    targetThreadId: node.targetThreadId,
    sourcePoint: pointOf(node, 'source') ?? {
      threadId: node.sourceThreadId,
      runId: null,
      runOrdinal: null,
      checkpointId: node.sourceCheckpointId ?? null,
      providerThreadId: node.sourceProviderThreadId ?? null,
    },
    basePoint: pointOf(node, 'base'),
    sourceProvider: node.sourceProvider ?? null,
    targetProvider: node.targetProvider ?? null,
    status: node.status,
    resolution: node.resolution ?? null,
    handoffId: node.handoffId ?? null,
    contextText: node.contextText ?? null,
    createdBy: node.createdBy,
    createdAt: node.createdAt,
    consumedAt: node.consumedAt ?? null,
    endedBecause: node.endedBecause ?? null,
    endedAt: node.endedAt ?? null,
  };
}

/** A ContextTransfer node as a TransferRecord. */
export const transferNode = transferProperties.transform(transferRecord);

/** A Checkpoint node as a CheckpointRecord: its files kept as JSON, parsed as file changes too. */
export const checkpointNode = checkpointProperties.transform((node, context): CheckpointRecord => ({
  id: node.id,
  runOrdinal: node.runOrdinal,
  ref: node.ref,
  diffSummary: node.diffSummary ?? null,
  files: node.filesJson ? filesOf(node.filesJson, context) : [],
  status: node.status,
}));

function filesOf(filesJson: string, context: z.core.$RefinementCtx): CheckpointRecord['files'] {
  const files = checkpointFiles.safeParse(JSON.parse(filesJson));
  if (files.success) return files.data;
  for (const issue of files.error.issues)
    context.issues.push({ ...issue, path: ['filesJson', ...issue.path], input: filesJson } as z.core.$ZodRawIssue);
  return [];
}

/** A provider thread's native ranges as the statements that change them write them. */
export function servedProperties(runs: ServedRuns): Props {
  const { from, to } = toLists(runs.served);
  return { servedFrom: from, servedTo: to, firstRunOrdinal: runs.firstRunOrdinal, lastRunOrdinal: runs.lastRunOrdinal };
}

/**
 * A continuity receipt as the graph keeps it: lists aligned on `receiptKinds` (counts) and the omitted
 * items as "kind: item" strings, so an analyst's Cypher reads it without parsing anything.
 */
export function receiptProps(receipt: HandoffReceipt | null): Record<string, unknown> {
  if (receipt === null) return { receiptKinds: null, receiptHeld: null, receiptKept: null, receiptOmitted: null };
  return {
    receiptKinds: [...RECEIPT_KINDS],
    receiptHeld: RECEIPT_KINDS.map((kind) => receipt[kind].held),
    receiptKept: RECEIPT_KINDS.map((kind) => receipt[kind].kept),
    receiptOmitted: RECEIPT_KINDS.flatMap((kind) => receipt[kind].omitted.map((item) => `${kind}: ${item}`)),
  };
}

function receiptOf(node: z.infer<typeof handoffProperties>): HandoffReceipt | null {
  const kinds = node.receiptKinds ?? [];
  if (kinds.length === 0) return null;
  const held = node.receiptHeld ?? [];
  const kept = node.receiptKept ?? [];
  const omitted = node.receiptOmitted ?? [];
  const line = (kind: ReceiptKind) => {
    const at = kinds.indexOf(kind);
    const prefix = `${kind}: `;
    return {
      held: at < 0 ? 0 : (held[at] ?? 0),
      kept: at < 0 ? 0 : (kept[at] ?? 0),
      omitted: omitted.filter((item) => item.startsWith(prefix)).map((item) => item.slice(prefix.length)),
    };
  };
  return Object.fromEntries(RECEIPT_KINDS.map((kind) => [kind, line(kind)])) as HandoffReceipt;
}
