// Node properties (as plain() returns them) -> the domain's records.
import type { ServedRuns } from '../../domain/coverage.js';
import { fromLists, toLists } from '../../domain/ranges.js';
import { RECEIPT_KINDS, type HandoffReceipt, type ReceiptKind } from '../../domain/receipt.js';
import type {
  CheckpointRecord,
  FileChangeRecord,
  HandoffRecord,
  ListedRunRecord,
  ProviderThreadRecord,
  RunPlanRecord,
  RunRecord,
  ThreadRecord,
  TransferRecord,
} from '../../domain/records.js';

type Props = Record<string, unknown>;

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const int = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

export function toThread(props: Props): ThreadRecord {
  const segmentThreadIds = strings(props.segmentThreadIds);
  const segmentTo = (props.segmentTo as number[] | undefined) ?? [];
  const segmentAsOf = strings(props.segmentAsOf);
  const parentThreadId = text(props.parentThreadId);
  return {
    id: String(props.id),
    title: text(props.title),
    project: text(props.project),
    createdAt: String(props.createdAt),
    deletedAt: text(props.deletedAt),
    providers: strings(props.providers),
    lastActivityAt: String(props.lastActivityAt ?? props.createdAt),
    headOrdinal: Number(props.headOrdinal),
    lastOrdinal: int(props.lastOrdinal) ?? 0,
    providerThreadCount: int(props.providerThreadCount) ?? 0,
    rolledBack: fromLists(props.rolledBackFrom as number[] | undefined, props.rolledBackTo as number[] | undefined),
    parentThreadId,
    relationshipToParent: (props.relationshipToParent ?? null) as ThreadRecord['relationshipToParent'],
    rootThreadId: text(props.rootThreadId) ?? String(props.id),
    sourcePoint:
      parentThreadId === null
        ? null
        : {
            threadId: parentThreadId,
            runId: text(props.sourceRunId),
            runOrdinal: int(props.sourceRunOrdinal),
            checkpointId: text(props.sourceCheckpointId),
            providerThreadId: text(props.sourceProviderThreadId),
          },
    forkOrdinal: int(props.forkOrdinal) ?? 0,
    changeSequence: int(props.changeSequence) ?? 0,
    inherited: segmentThreadIds.map((threadId, index) => ({
      threadId,
      from: index === 0 ? 1 : Number(segmentTo[index - 1]) + 1,
      to: Number(segmentTo[index]),
      asOf: segmentAsOf[index] ?? null,
    })),
  };
}

/** The plan is stored flat on the run (plan* properties) so analysts can query decisions directly. */
function toPlan(props: Props): RunPlanRecord {
  const from = int(props.planCoveredFrom);
  const to = int(props.planCoveredTo);
  return {
    decision: props.planDecision as RunPlanRecord['decision'],
    providerThreadAction: props.planAction as RunPlanRecord['providerThreadAction'],
    providerThreadId: text(props.planProviderThreadId),
    handoffStrategy: (props.planStrategy ?? null) as RunPlanRecord['handoffStrategy'],
    coveredRunOrdinals: from !== null && to !== null ? { from, to } : null,
    stalenessSignals: strings(props.planSignals) as RunPlanRecord['stalenessSignals'],
    reasons: strings(props.planReasons),
    forkFromTurn: int(props.planForkFromTurn),
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
  const { userMessage: _userMessage, assistantMessage: _assistantMessage, error: _error, ...listed } = toRun(props);
  return listed;
}

export function toRun(props: Props): RunRecord {
  return {
    id: String(props.id),
    threadId: String(props.threadId),
    ordinal: Number(props.ordinal),
    provider: String(props.provider),
    model: text(props.model),
    runtimeMode: text(props.runtimeMode),
    status: props.status as RunRecord['status'],
    userMessage: String(props.userMessage),
    assistantMessage: text(props.assistantMessage),
    error: text(props.error),
    providerThreadId: String(props.providerThreadId),
    contextHandoffId: text(props.contextHandoffId),
    plan: toPlan(props),
    // Runs written before fencing have no epoch: theirs is the first dispatch.
    dispatchEpoch: int(props.dispatchEpoch) ?? 1,
    createdAt: String(props.createdAt),
    completedAt: text(props.completedAt),
  };
}

export function toProviderThread(props: Props): ProviderThreadRecord {
  return {
    id: String(props.id),
    threadId: String(props.threadId),
    seq: Number(props.seq),
    provider: String(props.provider),
    nativeThreadRef: text(props.nativeThreadRef),
    status: props.status as ProviderThreadRecord['status'],
    model: text(props.model),
    runtimeMode: text(props.runtimeMode),
    firstRunOrdinal: int(props.firstRunOrdinal),
    lastRunOrdinal: int(props.lastRunOrdinal),
    served: fromLists(props.servedFrom as number[] | undefined, props.servedTo as number[] | undefined),
    statusReason: text(props.statusReason),
    resumeError: text(props.resumeError),
    rollbackError: text(props.rollbackError),
    forkedFromId: text(props.forkedFromId),
    inheritedThroughOrdinal: int(props.inheritedThroughOrdinal),
    createdAt: String(props.createdAt),
  };
}

export function toHandoff(props: Props): HandoffRecord {
  return {
    id: String(props.id),
    transferId: String(props.transferId),
    threadId: String(props.threadId),
    targetRunId: String(props.targetRunId),
    fromProviderThreadIds: strings(props.fromProviderThreadIds),
    toProviderThreadId: String(props.toProviderThreadId),
    coveredRunOrdinals: { from: Number(props.coveredFrom), to: Number(props.coveredTo) },
    strategy: props.strategy as HandoffRecord['strategy'],
    summaryText: String(props.summaryText ?? ''),
    status: props.status as HandoffRecord['status'],
    createdByProvider: text(props.createdByProvider),
    delivery: props.delivery as HandoffRecord['delivery'],
    supersedesId: text(props.supersedesId),
    supersededById: text(props.supersededById),
    source: text(props.source) ?? 'local',
    inputDigest: text(props.inputDigest),
    budgetChars: int(props.budgetChars),
    length: int(props.length) ?? String(props.summaryText ?? '').length,
    requestedAt: text(props.requestedAt) ?? String(props.createdAt),
    writtenAt: text(props.writtenAt),
    usedAt: text(props.usedAt),
    failureReason: text(props.failureReason),
    endedBecause: (props.endedBecause ?? null) as HandoffRecord['endedBecause'],
    endedAt: text(props.endedAt),
    omissions: strings(props.omissions),
    receipt: receiptFromProps(props),
    summaryRequest:
      props.status === 'pending' && props.writer
        ? {
            handoffId: String(props.id),
            writer: String(props.writer),
            targetProvider: String(props.targetProvider),
            strategy: props.strategy as HandoffRecord['strategy'],
            document: String(props.inputDocument ?? ''),
            budgetChars: int(props.budgetChars),
          }
        : null,
    createdAt: String(props.createdAt),
    updatedAt: String(props.updatedAt),
  };
}

export function toTransfer(props: Props): TransferRecord {
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
    id: String(props.id),
    kind: props.kind as TransferRecord['kind'],
    sourceThreadId: String(props.sourceThreadId),
    targetThreadId: String(props.targetThreadId),
    sourcePoint: point('source', props.sourceThreadId) ?? {
      threadId: String(props.sourceThreadId),
      runId: null,
      runOrdinal: null,
      checkpointId: text(props.sourceCheckpointId),
      providerThreadId: text(props.sourceProviderThreadId),
    },
    basePoint: point('base', props.sourceThreadId),
    sourceProvider: text(props.sourceProvider),
    targetProvider: text(props.targetProvider),
    status: props.status as TransferRecord['status'],
    resolution: (props.resolution ?? null) as TransferRecord['resolution'],
    handoffId: text(props.handoffId),
    contextText: text(props.contextText),
    createdBy: props.createdBy as TransferRecord['createdBy'],
    createdAt: String(props.createdAt),
    consumedAt: text(props.consumedAt),
    endedBecause: (props.endedBecause ?? null) as TransferRecord['endedBecause'],
    endedAt: text(props.endedAt),
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
