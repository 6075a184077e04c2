// Plain data the graph access layer returns and the domain and API layers work on.
// Enum-like fields hold the lowercase strings stored in Neo4j (the seed's spelling); the lists of those
// the graph layer checks what it reads against are here, each with the type it names.
import type { HistorySegment } from './history.js';
import type { HandoffReceipt } from './receipt.js';

export const RUN_STATUSES = ['running', 'completed', 'failed', 'interrupted', 'rolled_back'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const PROVIDER_THREAD_STATUSES = [
  'active',
  'idle',
  'stale',
  'resume_failed',
  'divergent',
  'rolled_back',
  'closed',
] as const;
export type ProviderThreadStatus = (typeof PROVIDER_THREAD_STATUSES)[number];
export const HANDOFF_STRATEGIES = [
  'delta_since_target_last_seen',
  'full_thread_summary',
  'checkpoint_summary',
  'manual_context',
  'fork_delta_summary',
] as const;
export type HandoffStrategy = (typeof HANDOFF_STRATEGIES)[number];
export const HANDOFF_STATUSES = ['pending', 'ready', 'failed', 'superseded'] as const;
export type HandoffStatus = (typeof HANDOFF_STATUSES)[number];
export const CONTEXT_DELIVERIES = ['developer', 'system', 'synthetic_user', 'preamble'] as const;
export type ContextDelivery = (typeof CONTEXT_DELIVERIES)[number];
export const PLAN_DECISIONS = [
  'no_handoff',
  'delta_handoff',
  'full_handoff_existing',
  'full_handoff_new',
  'unsupported',
] as const;
export type PlanDecision = (typeof PLAN_DECISIONS)[number];
export const PROVIDER_THREAD_ACTIONS = ['reuse', 'resume', 'create', 'none', 'native_fork'] as const;
export type ProviderThreadAction = (typeof PROVIDER_THREAD_ACTIONS)[number];
export const THREAD_RELATIONSHIPS = ['fork', 'subagent'] as const;
export type ThreadRelationship = (typeof THREAD_RELATIONSHIPS)[number];
export type ProviderRollbackAction = 'rolled_back' | 'divergent';
export const STALENESS_SIGNALS = [
  'too_many_runs_elsewhere',
  'too_many_chained_handoffs',
  'incompatible_config',
  'resume_failed',
  'rolled_back_or_divergent',
  'clean_context_requested',
  'summary_exceeds_policy',
] as const;
export type StalenessSignal = (typeof STALENESS_SIGNALS)[number];
export const TRANSFER_KINDS = ['fork', 'provider_handoff', 'merge_back', 'subagent_spawn', 'subagent_result'] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];
export const TRANSFER_STATUSES = ['pending', 'consumed', 'superseded'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
/** Why a handoff or transfer stopped standing (see src/domain/standing.ts). */
export const END_REASONS = [
  'regenerated',
  'rolled_back',
  'expired',
  'resume_failed',
  'summarizer_failed',
  'replaced_by_newer_merge_back',
] as const;
export type EndReason = (typeof END_REASONS)[number];
export const TRANSFER_RESOLUTIONS = [
  'native_fork',
  'portable_context',
  'delta_context',
  'checkpoint_context',
  'imported',
] as const;
export type TransferResolution = (typeof TRANSFER_RESOLUTIONS)[number];
export const TRANSFER_ACTORS = ['user', 'agent', 'system'] as const;
export type TransferActor = (typeof TRANSFER_ACTORS)[number];
export const FILE_CHANGE_KINDS = ['added', 'modified', 'deleted', 'renamed'] as const;
export type FileChangeKind = (typeof FILE_CHANGE_KINDS)[number];
export const RUN_FACT_KINDS = [
  'goal',
  'constraint',
  'decision',
  'file_change',
  'command',
  'test',
  'plan_item',
  'approval_request',
  'question',
  'failure',
  'subagent_result',
  'note',
  'tool_output',
  'reasoning',
  'protocol',
] as const;
export type RunFactKind = (typeof RUN_FACT_KINDS)[number];

export interface OrdinalRange {
  from: number;
  to: number;
}

export interface ThreadRecord {
  id: string;
  /** Highest ordinal ever allocated; ordinals are never reused. */
  lastOrdinal: number;
  /** How many provider threads it has (their seq runs 1..providerThreadCount). */
  providerThreadCount: number;
  /** Ordinals of its history that are not live (see src/domain/history.ts). */
  rolledBack: OrdinalRange[];
  title: string | null;
  /** The project it belongs to, as its creator named it; a child thread has its parent's. */
  project: string | null;
  createdAt: string;
  /** When deleteThread marked it deleted; null while in use. */
  deletedAt: string | null;
  /** Providers that ran its own runs, in order of first use. */
  providers: string[];
  /** When its newest own run started or ended; its creation before any. */
  lastActivityAt: string;
  headOrdinal: number;
  parentThreadId: string | null;
  relationshipToParent: ThreadRelationship | null;
  rootThreadId: string;
  /** Where it branched off its parent; null for a root thread. */
  sourcePoint: SourcePointRecord | null;
  /** Ordinals at or below it were inherited from the source (see src/domain/history.ts). */
  forkOrdinal: number;
  inherited: HistorySegment[];
  /** The number of its newest change in its change feed (src/domain/changes.ts); 0 before any. */
  changeSequence: number;
}

export interface RunPlanRecord {
  decision: PlanDecision;
  providerThreadAction: ProviderThreadAction;
  /** The existing provider thread reused or resumed; null when a new one is created. */
  providerThreadId: string | null;
  handoffStrategy: HandoffStrategy | null;
  coveredRunOrdinals: OrdinalRange | null;
  stalenessSignals: StalenessSignal[];
  reasons: string[];
  /** For native_fork: how many of the source provider thread's turns the fork keeps. */
  forkFromTurn?: number | null;
}

export interface RunRecord {
  id: string;
  threadId: string;
  ordinal: number;
  provider: string;
  model: string | null;
  runtimeMode: string | null;
  status: RunStatus;
  userMessage: string;
  assistantMessage: string | null;
  error: string | null;
  providerThreadId: string;
  contextHandoffId: string | null;
  plan: RunPlanRecord;
  /** Counts the run's dispatches: 1 at startRun, one more each time a resume failure moves it (src/domain/fencing.ts). */
  dispatchEpoch: number;
  createdAt: string;
  completedAt: string | null;
}

/** The long texts of a run, which reads for the API leave in the graph until they are asked for. */
export type RunTextField = 'userMessage' | 'assistantMessage' | 'error';

/** A run as the API reads it: everything but its long texts, which it reads on demand. */
export type ListedRunRecord = Omit<RunRecord, RunTextField> & { [field in RunTextField]?: undefined };

/** What a GraphQL Run resolves from: a run a mutation wrote (texts at hand), or one read for the API (texts in the graph). */
export type RunView = RunRecord | ListedRunRecord;

export interface ProviderThreadRecord {
  id: string;
  threadId: string;
  /** Its number on the app thread, in creation order from 1. */
  seq: number;
  provider: string;
  nativeThreadRef: string | null;
  status: ProviderThreadStatus;
  model: string | null;
  runtimeMode: string | null;
  firstRunOrdinal: number | null;
  lastRunOrdinal: number | null;
  /** The live runs it served itself, as ordinal ranges (native coverage). */
  served: OrdinalRange[];
  /** Why it is in its status, for the statuses a rollback or a resume failure set; null otherwise. */
  statusReason: string | null;
  /** The error reportResumeFailure gave when it became resume_failed. */
  resumeError: string | null;
  /** The error reportProviderRollbackFailure gave when its native rollback failed. */
  rollbackError: string | null;
  forkedFromId: string | null;
  /** A natively forked provider thread knows its fork's inherited runs through this ordinal. */
  inheritedThroughOrdinal: number | null;
  createdAt: string;
}

export interface CoverageRecord {
  providerThreadId: string;
  /** Live runs it knows natively: served itself, or inherited through a native fork. */
  nativeRanges: OrdinalRange[];
  /** Live runs it knows only through its standing handoffs. */
  handoffRanges: OrdinalRange[];
  handoffIds: string[];
  coveredThroughOrdinal: number;
  /** Live runs of the thread's history it knows neither way. */
  missingRanges: OrdinalRange[];
}

export interface HandoffRecord {
  id: string;
  transferId: string;
  threadId: string;
  targetRunId: string;
  fromProviderThreadIds: string[];
  toProviderThreadId: string;
  coveredRunOrdinals: OrdinalRange;
  strategy: HandoffStrategy;
  summaryText: string;
  status: HandoffStatus;
  createdByProvider: string | null;
  delivery: ContextDelivery;
  supersedesId: string | null;
  supersededById: string | null;
  /** local, configured:<name>, provider:<id> or user. */
  source: string;
  inputDigest: string | null;
  budgetChars: number | null;
  length: number;
  requestedAt: string;
  writtenAt: string | null;
  usedAt: string | null;
  failureReason: string | null;
  /** Why it stopped standing, and when; null while it stands (and for handoffs ended before this was recorded). */
  endedBecause: EndReason | null;
  endedAt: string | null;
  omissions: string[];
  /** What its text keeps of the covered runs (src/domain/receipt.ts); null until a text is written, and for manual context. */
  receipt: HandoffReceipt | null;
  /** Set while a provider or summarizer is asked to write it. */
  summaryRequest: SummaryRequestRecord | null;
  createdAt: string;
  updatedAt: string;
}

export interface SummaryRequestRecord {
  handoffId: string;
  writer: string;
  targetProvider: string;
  strategy: HandoffStrategy;
  document: string;
  budgetChars: number | null;
}

export interface SourcePointRecord {
  threadId: string;
  runId: string | null;
  runOrdinal: number | null;
  checkpointId: string | null;
  providerThreadId: string | null;
}

export interface TransferRecord {
  id: string;
  kind: TransferKind;
  sourceThreadId: string;
  targetThreadId: string;
  sourcePoint: SourcePointRecord;
  basePoint: SourcePointRecord | null;
  sourceProvider: string | null;
  targetProvider: string | null;
  status: TransferStatus;
  resolution: TransferResolution | null;
  handoffId: string | null;
  /** Context the transfer itself carries: a subagent's task or result. */
  contextText: string | null;
  createdBy: TransferActor;
  createdAt: string;
  consumedAt: string | null;
  /** Why it was superseded, and when; null while pending or consumed. */
  endedBecause: EndReason | null;
  endedAt: string | null;
}

export interface FileChangeRecord {
  path: string;
  change: FileChangeKind;
  additions: number | null;
  deletions: number | null;
  /** A rename's path before it; null otherwise. */
  previousPath: string | null;
}

export interface CheckpointRecord {
  id: string;
  runOrdinal: number;
  ref: string;
  diffSummary: string | null;
  files: FileChangeRecord[];
  status: string;
}

export interface RunFactRecord extends NewRunFact {
  runOrdinal: number;
}

/** A fact as a run records it: a file_change fact may carry its change typed; other kinds never do. */
export interface NewRunFact {
  kind: RunFactKind;
  text: string;
  key: string | null;
  status: string | null;
  file: FileChangeRecord | null;
}

export interface DispatchRecord {
  providerThreadAction: ProviderThreadAction;
  nativeThreadRef: string | null;
  delivery: ContextDelivery | null;
  context: string | null;
  userMessage: string;
  forkFromTurn: number | null;
  fencingToken: string;
}

/** What startRun and reportResumeFailure return; plan and dispatch derive from it. */
export interface StartRunResult {
  run: RunRecord;
  providerThread: ProviderThreadRecord;
  handoff: HandoffRecord | null;
}

export interface ProviderThreadRollbackRecord {
  providerThread: ProviderThreadRecord;
  action: ProviderRollbackAction;
  nativeRollback: {
    providerThreadId: string;
    nativeThreadRef: string | null;
    turnsToDrop: number;
    toOrdinal: number;
  } | null;
}

export interface RollbackResult {
  thread: ThreadRecord;
  /** The ordinals this rollback withdrew, and how many runs they are. */
  rolledBackRanges: OrdinalRange[];
  rolledBackRunCount: number;
  /** The first of them, lowest ordinal first (bounded: see ROLLED_BACK_RUNS_PAGE). */
  rolledBackRuns: RunRecord[];
  supersededHandoffs: HandoffRecord[];
  providerThreads: ProviderThreadRollbackRecord[];
}
