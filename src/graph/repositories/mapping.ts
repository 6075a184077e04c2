// Node properties (as plain() returns them) -> the domain's records.
import type { ServedRuns } from '../../domain/coverage.js';
import { fromLists, toLists } from '../../domain/ranges.js';
import { RECEIPT_KINDS, type HandoffReceipt, type ReceiptKind } from '../../domain/receipt.js';
import { z } from 'zod';
import {
  CONTEXT_DELIVERIES,
  END_REASONS,
  HANDOFF_STATUSES,
  HANDOFF_STRATEGIES,
  PLAN_DECISIONS,
  PROVIDER_THREAD_ACTIONS,
  PROVIDER_THREAD_STATUSES,
  RUN_STATUSES,
  STALENESS_SIGNALS,
  THREAD_RELATIONSHIPS,
  TRANSFER_ACTORS,
  TRANSFER_KINDS,
  TRANSFER_RESOLUTIONS,
  TRANSFER_STATUSES,
  type CheckpointRecord,
  type FileChangeRecord,
  type HandoffRecord,
  type ListedRunRecord,
  type ProviderThreadRecord,
  type RunPlanRecord,
  type RunRecord,
  type ThreadRecord,
  type TransferRecord,
} from '../../domain/records.js';

type Props = Record<string, unknown>;

// The shapes of the nodes the statements return, checked once per node as it is read: a property of
// the wrong type, or an enum value the domain does not know, fails here with the node's label and
// the property, not later where the record is used. Absent properties (older nodes) are nullish.
const absent = <T extends z.ZodType>(type: T) => type.nullish();
const ordinals = absent(z.array(z.number()));

/** `props` as `schema` says a `label` node is; an error naming the node and property otherwise. */
function checked<T extends z.ZodType>(schema: T, label: string, props: Props): z.infer<T> {
  const parsed = schema.safeParse(props);
  if (!parsed.success) throw new Error(`A ${label} node read from the graph: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const threadNode = z.object({
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
const listedRunNode = z.object(listedRunShape);

const runNode = z.object({
  ...listedRunShape,
  userMessage: z.string(),
  assistantMessage: absent(z.string()),
  error: absent(z.string()),
});

const providerThreadNode = z.object({
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

const handoffNode = z.object({
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
  createdAt: z.string(),
  updatedAt: z.string(),
});

const transferNode = z.object({
  id: z.string(),
  kind: z.enum(TRANSFER_KINDS),
  sourceThreadId: z.string(),
  targetThreadId: z.string(),
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

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const int = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

export function toThread(props: Props): ThreadRecord {
  const node = checked(threadNode, 'Thread', props);
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
function toPlan(node: z.infer<typeof listedRunNode>): RunPlanRecord {
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

/** A run read without its long texts (runs/page, runs/listed-by-ids). */
export function toListedRun(props: Props): ListedRunRecord {
  return listedRun(checked(listedRunNode, 'Run', props));
}

export function toRun(props: Props): RunRecord {
  const node = checked(runNode, 'Run', props);
  return Object.assign(listedRun(node), {
    userMessage: node.userMessage,
    assistantMessage: node.assistantMessage ?? null,
    error: node.error ?? null,
  });
}

function listedRun(node: z.infer<typeof listedRunNode>): ListedRunRecord {
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
    // Runs written before fencing have no epoch: theirs is the first dispatch.
    dispatchEpoch: node.dispatchEpoch ?? 1,
    createdAt: node.createdAt,
    completedAt: node.completedAt ?? null,
  };
}

export function toProviderThread(props: Props): ProviderThreadRecord {
  const node = checked(providerThreadNode, 'ProviderThread', props);
  return {
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
  };
}

export function toHandoff(props: Props): HandoffRecord {
  const node = checked(handoffNode, 'ContextHandoff', props);
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
    receipt: receiptFromProps(props),
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

export function toTransfer(props: Props): TransferRecord {
  const node = checked(transferNode, 'ContextTransfer', props);
  const point = (prefix: 'source' | 'base', threadId: unknown) =>
    props[`${prefix}RunOrdinal`] === undefined || props[`${prefix}RunOrdinal`] === null
      ? null
      : {
          threadId: String(threadId),
          runId: text(props[`${prefix}RunId`]),
          runOrdinal: int(props[`${prefix}RunOrdinal`]),
          checkpointId: text(props[`${prefix}CheckpointId`]),
          providerThreadId: text(props[`${prefix}ProviderThreadId`]),
        };
  return {
    id: node.id,
    kind: node.kind,
    sourceThreadId: node.sourceThreadId,
    targetThreadId: node.targetThreadId,
    sourcePoint: point('source', props.sourceThreadId) ?? {
      threadId: String(props.sourceThreadId),
      runId: null,
      runOrdinal: null,
      checkpointId: text(props.sourceCheckpointId),
      providerThreadId: text(props.sourceProviderThreadId),
    },
    basePoint: point('base', props.sourceThreadId),
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

export function toCheckpoint(props: Props): CheckpointRecord {
  return {
    id: String(props.id),
    runOrdinal: Number(props.runOrdinal),
    ref: String(props.ref),
    diffSummary: text(props.diffSummary),
    files: props.filesJson ? (JSON.parse(String(props.filesJson)) as FileChangeRecord[]) : [],
    status: String(props.status),
  };
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

function receiptFromProps(props: Props): HandoffReceipt | null {
  const kinds = strings(props.receiptKinds);
  if (kinds.length === 0) return null;
  const held = Array.isArray(props.receiptHeld) ? props.receiptHeld.map(Number) : [];
  const kept = Array.isArray(props.receiptKept) ? props.receiptKept.map(Number) : [];
  const omitted = strings(props.receiptOmitted);
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
