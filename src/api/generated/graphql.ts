import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { ThreadRecord as ThreadRecordModel, RunView as RunViewModel, ProviderThreadRecord as ProviderThreadRecordModel, CoverageRecord as CoverageRecordModel, HandoffRecord as HandoffRecordModel, TransferRecord as TransferRecordModel, CheckpointRecord as CheckpointRecordModel, RunPlanRecord as RunPlanRecordModel, DispatchRecord as DispatchRecordModel, StartRunResult as StartRunResultModel, RollbackResult as RollbackResultModel, ProviderThreadRollbackRecord as ProviderThreadRollbackRecordModel } from '../../domain/records.js';
import type { RunPreviewRecord as RunPreviewRecordModel } from '../../operations/switching.js';
import type { ProviderDefinition as ProviderDefinitionModel } from '../../domain/providers.js';
import type { CoverageMatrixRecord as CoverageMatrixRecordModel, CoverageRowRecord as CoverageRowRecordModel, AnalyticsWindow as AnalyticsWindowModel } from '../../operations/analytics.js';
import type { ThreadChangeEvent as ThreadChangeEventModel } from '../../operations/changeFeed.js';
import type { RequestContext } from '../context.js';
export type Maybe<T> = T | null;
export type InputMaybe<T> = T | null | undefined;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** An ISO-8601 date-time with offset, e.g. 2026-12-02T12:00:00.000Z. */
  DateTime: { input: string; output: string; }
};

export type Analytics = {
  __typename?: 'Analytics';
  /** Per (from provider -> to provider) pair, most switches first. first is clamped to 1..200. */
  crossProvider: Array<ProviderPairStats>;
  from: Scalars['DateTime']['output'];
  /** Per provider and staleness signal, most frequent first. first is clamped to 1..200. */
  staleness: Array<StalenessStats>;
  /** Per summary source and writing provider, most handoffs first. first is clamped to 1..200. */
  summaryProvenance: Array<ProvenanceStats>;
  to: Scalars['DateTime']['output'];
};


export type AnalyticsCrossProviderArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
};


export type AnalyticsStalenessArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
};


export type AnalyticsSummaryProvenanceArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
};

export type BindNativeThreadPayload = {
  __typename?: 'BindNativeThreadPayload';
  /** The provider thread named, as it is now: RESUME_FAILED after a resumed blank. */
  providerThread: ProviderThread;
  /** After a resumed blank: the run, its new plan (FULL_HANDOFF_NEW, RESUME_FAILED), the new provider thread and the dispatch to send instead; null otherwise. */
  replanned: Maybe<StartRunPayload>;
  /** The provider reported another native id than the dispatch asked it to resume: the run was re-planned. */
  resumedBlank: Scalars['Boolean']['output'];
};

export type BindProviderThreadInput = {
  /** The Dispatch.fencingToken of the dispatch this session answers; without it the call is not fenced. */
  fencingToken?: InputMaybe<Scalars['String']['input']>;
  /** 1..500 characters. */
  nativeThreadRef: Scalars['String']['input'];
  providerThreadId: Scalars['ID']['input'];
};

export type Checkpoint = {
  __typename?: 'Checkpoint';
  diffSummary: Maybe<Scalars['String']['output']>;
  files: Array<FileChange>;
  id: Scalars['ID']['output'];
  ref: Scalars['String']['output'];
  runOrdinal: Scalars['Int']['output'];
  /** current, or stale once its run is rolled back. */
  status: Scalars['String']['output'];
};

export type CheckpointInput = {
  /** At most 20000 characters. */
  diffSummary?: InputMaybe<Scalars['String']['input']>;
  /** At most 2000 files. */
  files?: InputMaybe<Array<FileChangeInput>>;
  /** 1..500 characters, e.g. a git commit or stash ref. */
  ref: Scalars['String']['input'];
};

export type CompleteRunInput = {
  /** At most 100000 characters. */
  assistantMessage?: InputMaybe<Scalars['String']['input']>;
  checkpoint?: InputMaybe<CheckpointInput>;
  /** At most 500 facts. */
  facts?: InputMaybe<Array<RunFactInput>>;
  /** The Dispatch.fencingToken of the dispatch this completion answers; without it the call is not fenced. */
  fencingToken?: InputMaybe<Scalars['String']['input']>;
  /**
   * The provider's own records of this turn: the service reads them with the session adapters of
   * npm run import and appends the facts they hold (files changed, commands and tests, plan, failures,
   * open questions) after facts, up to 500 facts in all.
   */
  rawEvents?: InputMaybe<RawEventsInput>;
  runId: Scalars['ID']['input'];
};

export type CompleteSubagentInput = {
  childThreadId: Scalars['ID']['input'];
  /** 1..20000 characters. */
  result: Scalars['String']['input'];
};

export type ContextDelivery =
  | 'developer'
  | 'preamble'
  | 'synthetic_user'
  | 'system';

export type ContextHandoff = {
  __typename?: 'ContextHandoff';
  /** The target's budget when it was written; null: no limit. */
  budgetChars: Maybe<Scalars['Int']['output']>;
  coveredRunOrdinals: OrdinalRange;
  createdAt: Scalars['DateTime']['output'];
  /** null: written by the local deterministic summarizer. */
  createdByProvider: Maybe<Scalars['String']['output']>;
  delivery: ContextDelivery;
  /** When it stopped standing; null while it stands. */
  endedAt: Maybe<Scalars['DateTime']['output']>;
  /** Why it stopped standing (FAILED or SUPERSEDED); null while it stands. */
  endedBecause: Maybe<EndReason>;
  /** Why it FAILED (a summarizer error or timeout, or no submission in time). */
  failureReason: Maybe<Scalars['String']['output']>;
  fromProviderThreadIds: Array<Scalars['ID']['output']>;
  id: Scalars['ID']['output'];
  /** SHA-256 of the structured input the handoff was written from: same input, same digest. */
  inputDigest: Maybe<Scalars['String']['output']>;
  /** Length of the whole summaryText in characters (Unicode code points), however much of it was asked for. */
  length: Scalars['Int']['output'];
  /** Facts of the covered runs that a non-local summary left out; they are appended to summaryText. */
  omissions: Array<Scalars['String']['output']>;
  /**
   * The continuity receipt: what the covered runs hold at the moment of the handoff, per kind, and how
   * much of it summaryText keeps. Computed when the text is written (locally, or when a provider or a
   * summarizer submits it) and stored with the handoff. null while PENDING, for manual context and a
   * subagent's task or result, and for handoffs written before receipts existed.
   */
  receipt: Maybe<ContinuityReceipt>;
  requestedAt: Scalars['DateTime']['output'];
  /** local, configured:<name>, provider:<id>, user (manual context) or subagent (a subagent's result). */
  source: Scalars['String']['output'];
  status: HandoffStatus;
  strategy: HandoffStrategy;
  /** Set while a provider is asked to write it (PENDING). */
  summaryRequest: Maybe<SummaryRequest>;
  /**
   * The context the handoff delivers. With maxChars (0 or more), only its first maxChars characters
   * (Unicode code points, as Run.userMessage); length is the whole text's length.
   */
  summaryText: Scalars['String']['output'];
  supersededBy: Maybe<ContextHandoff>;
  supersedes: Maybe<ContextHandoff>;
  targetRunId: Scalars['ID']['output'];
  threadId: Scalars['ID']['output'];
  toProviderThreadId: Scalars['ID']['output'];
  transferId: Scalars['ID']['output'];
  updatedAt: Scalars['DateTime']['output'];
  /** When it became its run's context. */
  usedAt: Maybe<Scalars['DateTime']['output']>;
  writtenAt: Maybe<Scalars['DateTime']['output']>;
};


export type ContextHandoffSummaryTextArgs = {
  maxChars?: InputMaybe<Scalars['Int']['input']>;
};

export type ContextTransfer = {
  __typename?: 'ContextTransfer';
  basePoint: Maybe<SourcePoint>;
  consumedAt: Maybe<Scalars['DateTime']['output']>;
  createdAt: Scalars['DateTime']['output'];
  createdBy: TransferActor;
  endedAt: Maybe<Scalars['DateTime']['output']>;
  /** Why it was superseded; null while pending or consumed. */
  endedBecause: Maybe<EndReason>;
  handoff: Maybe<ContextHandoff>;
  id: Scalars['ID']['output'];
  kind: TransferKind;
  resolution: Maybe<TransferResolution>;
  sourcePoint: SourcePoint;
  sourceProvider: Maybe<Scalars['String']['output']>;
  sourceThreadId: Scalars['ID']['output'];
  status: TransferStatus;
  targetProvider: Maybe<Scalars['String']['output']>;
  targetThreadId: Scalars['ID']['output'];
};

/**
 * Per kind, what the runs a handoff covers hold at its moment and what its text keeps. The runs read
 * are those the summary read: a budgeted summary stops reading once its budget is full, and says how
 * many earlier runs it did not load.
 */
export type ContinuityReceipt = {
  __typename?: 'ContinuityReceipt';
  /** State-changing and verifying commands and tests, once each; read-only exploration is not counted. */
  commands: ReceiptLine;
  /** Failures not fixed by a later run of the same command (nor left behind by a later completed run). */
  failures: ReceiptLine;
  /** Files changed, in their final state (a file added then deleted is not one). */
  files: ReceiptLine;
  /** Open questions and approvals; a question a later user turn replied to is closed. */
  questions: ReceiptLine;
  /** The open items of the newest plan or todo list. */
  todos: ReceiptLine;
};

export type CoverageCell = {
  __typename?: 'CoverageCell';
  kind: CoverageKind;
  providerThreadId: Scalars['ID']['output'];
};

/** NATIVE: the provider thread served the run (or inherited it through a native fork). HANDOFF: a standing handoff delivered to it covers the run. MISSING: neither. */
export type CoverageKind =
  | 'handoff'
  | 'missing'
  | 'native';

export type CoverageMatrix = {
  __typename?: 'CoverageMatrix';
  /** Whether the thread has provider threads after this page's columns. */
  hasMoreColumns: Scalars['Boolean']['output'];
  hasNextPage: Scalars['Boolean']['output'];
  /** columnsFrom of the next page of columns; null on the last one. */
  nextColumnsFrom: Maybe<Scalars['Int']['output']>;
  /** fromOrdinal of the next page; null on the last one. */
  nextFromOrdinal: Maybe<Scalars['Int']['output']>;
  /**
   * The columns: the page's provider threads in creation order, the order of every row's cells; empty
   * when the page has no rows.
   */
  providerThreads: Array<ProviderThread>;
  /** One page of runs, in ordinal order. */
  rows: Array<CoverageRow>;
};

export type CoverageRow = {
  __typename?: 'CoverageRow';
  /** One cell per column, in the order of providerThreads. */
  cells: Array<CoverageCell>;
  ordinal: Scalars['Int']['output'];
  /** The run; for a fork's inherited ordinals, a run of an ancestor thread. */
  run: Run;
};

export type CreateThreadInput = {
  /** Optional client-chosen id (1..200 characters); creating an existing id again returns that thread unchanged. */
  id?: InputMaybe<Scalars['ID']['input']>;
  /**
   * The project the thread's work belongs to, as the client names it (a working directory or its git
   * root, for the import and watch tools), at most 4000 characters. Threads are found by it.
   */
  project?: InputMaybe<Scalars['String']['input']>;
  /** At most 500 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
};

export type DeleteThreadInput = {
  id: Scalars['ID']['input'];
};

export type Dispatch = {
  __typename?: 'Dispatch';
  /** The handoff text to send as leading context; null when no handoff. */
  context: Maybe<Scalars['String']['output']>;
  delivery: Maybe<ContextDelivery>;
  /**
   * Names this dispatch of the run. Echo it in bindNativeThread, completeRun, failRun and
   * reportResumeFailure: once the dispatch is replaced (a resume failure or a resumed blank moved the
   * run to another provider thread, or its provider thread was replaced), calls carrying it are refused
   * with STALE_DISPATCH and change nothing. Opaque: send it back as given.
   */
  fencingToken: Scalars['String']['output'];
  /** For NATIVE_FORK: how many of the source provider thread's turns the fork keeps. */
  forkFromTurn: Maybe<Scalars['Int']['output']>;
  /** Native id to resume or reuse; null when the provider must create a thread. */
  nativeThreadRef: Maybe<Scalars['String']['output']>;
  providerThreadAction: ProviderThreadAction;
  userMessage: Scalars['String']['output'];
};

/**
 * Why a handoff or a transfer stopped standing. REGENERATED: regenerateHandoff wrote a new one.
 * ROLLED_BACK: a rollback withdrew what it described (no newer one replaces it). EXPIRED: a PENDING
 * handoff was not submitted within the policy's pendingTimeoutSeconds; a local summary replaced it.
 * RESUME_FAILED: the provider thread it was for could not be resumed; a full summary into a new one
 * replaced it. SUMMARIZER_FAILED: the configured summarizer failed; a local summary replaced it.
 * REPLACED_BY_NEWER_MERGE_BACK: a newer merge-back of the same fork into the same thread (transfers only).
 */
export type EndReason =
  | 'expired'
  | 'regenerated'
  | 'replaced_by_newer_merge_back'
  | 'resume_failed'
  | 'rolled_back'
  | 'summarizer_failed';

export type FailRunInput = {
  /** 1..20000 characters. */
  error: Scalars['String']['input'];
  /** The Dispatch.fencingToken of the dispatch this failure answers; without it the call is not fenced. */
  fencingToken?: InputMaybe<Scalars['String']['input']>;
  /** true: INTERRUPTED (stopped by the user or the orchestrator), false: FAILED. */
  interrupted?: InputMaybe<Scalars['Boolean']['input']>;
  runId: Scalars['ID']['input'];
};

export type FileChange = {
  __typename?: 'FileChange';
  additions: Maybe<Scalars['Int']['output']>;
  change: FileChangeKind;
  deletions: Maybe<Scalars['Int']['output']>;
  path: Scalars['String']['output'];
  /** A rename's path before it; null otherwise. */
  previousPath: Maybe<Scalars['String']['output']>;
};

export type FileChangeInput = {
  additions?: InputMaybe<Scalars['Int']['input']>;
  change: FileChangeKind;
  deletions?: InputMaybe<Scalars['Int']['input']>;
  path: Scalars['String']['input'];
  /** RENAMED only (BAD_USER_INPUT on other changes): the path before the rename. At most 4000 characters. */
  previousPath?: InputMaybe<Scalars['String']['input']>;
};

export type FileChangeKind =
  | 'added'
  | 'deleted'
  | 'modified'
  | 'renamed';

export type ForkThreadInput = {
  checkpointId?: InputMaybe<Scalars['ID']['input']>;
  /** At most one of fromOrdinal, checkpointId and providerThreadId; none: the latest stable run. */
  fromOrdinal?: InputMaybe<Scalars['Int']['input']>;
  /** Optional client-chosen id for the fork (1..200 characters). */
  id?: InputMaybe<Scalars['ID']['input']>;
  /** Fork from where this provider thread last served a run (e.g. a subagent's). */
  providerThreadId?: InputMaybe<Scalars['ID']['input']>;
  sourceThreadId: Scalars['ID']['input'];
  title?: InputMaybe<Scalars['String']['input']>;
};

export type HandoffStatus =
  | 'failed'
  | 'pending'
  | 'ready'
  | 'superseded';

/**
 * FORK_DELTA_SUMMARY: a merge-back: a fork's decisions, files, commands and tests, conclusions and open
 * issues since its fork point, handed to its source thread.
 */
export type HandoffStrategy =
  | 'checkpoint_summary'
  | 'delta_since_target_last_seen'
  | 'fork_delta_summary'
  | 'full_thread_summary'
  | 'manual_context';

export type HistoryConnection = {
  __typename?: 'HistoryConnection';
  edges: Array<HistoryEdge>;
  pageInfo: PageInfo;
};

export type HistoryEdge = {
  __typename?: 'HistoryEdge';
  cursor: Scalars['String']['output'];
  /** Inherited from the fork's source (or its sources), not run on this thread. */
  inherited: Scalars['Boolean']['output'];
  /** Part of this thread's live history: not rolled back here, nor before the fork in its source. */
  live: Scalars['Boolean']['output'];
  /** The run at this ordinal of the history; for an inherited one, a run of the thread it was inherited from. */
  node: Run;
};

export type IdentityStrength =
  | 'none'
  | 'strong'
  | 'weak';

export type ImportRunsInput = {
  /** The session that served the runs: one provider thread per session. */
  providerThread: ImportedProviderThreadInput;
  /**
   * At most 100 runs, oldest first (startedAt never decreases); an importer sends a longer session in
   * batches. Empty: the call only finds or creates the session's provider thread.
   */
  runs: Array<ImportedRunInput>;
  threadId: Scalars['ID']['input'];
};

export type ImportRunsPayload = {
  __typename?: 'ImportRunsPayload';
  /** How many of the given runs the session had already imported: they added nothing. */
  alreadyPresent: Scalars['Int']['output'];
  /**
   * How many of the given runs were copies of a turn the thread already holds, known by their sourceId
   * (or given twice in this call): they added nothing.
   */
  duplicateTurns: Scalars['Int']['output'];
  providerThread: ProviderThread;
  /** The runs this call appended, in ordinal order. */
  runs: Array<Run>;
  thread: Thread;
};

export type ImportSubagentThreadInput = {
  /** The subagent thread's id, 1..200 characters; the same id on every import of the subagent. */
  id: Scalars['ID']['input'];
  /** The parent run that started the subagent, by id; null with parentRunOrdinal null: linked to the parent thread only. */
  parentRunId?: InputMaybe<Scalars['ID']['input']>;
  /** The parent run that started the subagent, by its ordinal in the parent; at most one of this and parentRunId. */
  parentRunOrdinal?: InputMaybe<Scalars['Int']['input']>;
  /** The thread that holds the session the subagent worked for. */
  parentThreadId: Scalars['ID']['input'];
  /** What the subagent was asked to do, 1..20000 characters. */
  task: Scalars['String']['input'];
  /** At most 500 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
};

export type ImportedProviderThreadInput = {
  /** The model the session used, at most 200 characters. */
  model?: InputMaybe<Scalars['String']['input']>;
  /** The provider's own id of the session, 1..500 characters. */
  nativeThreadRef: Scalars['String']['input'];
  /** A configured provider, e.g. codex or claude. */
  provider: Scalars['String']['input'];
};

export type ImportedRunInput = {
  /** At most 100000 characters. */
  assistantMessage?: InputMaybe<Scalars['String']['input']>;
  /** When the turn ended, at or after startedAt; null when the session does not say. */
  completedAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** FAILED and INTERRUPTED runs only, at most 20000 characters. */
  error?: InputMaybe<Scalars['String']['input']>;
  /** At most 500 facts. */
  facts?: InputMaybe<Array<RunFactInput>>;
  /** At most 200 characters. */
  model?: InputMaybe<Scalars['String']['input']>;
  /**
   * The provider's own id of the turn's record (a Codex user message item id, a Claude Code message
   * uuid), 1..200 characters: a resume or a fork copies it with the turn, so the thread stores the turn
   * once whichever session it is read from. Null when the session does not say.
   */
  sourceId?: InputMaybe<Scalars['String']['input']>;
  /** The turn's key within its session, stable from one import to the next (e.g. its start time), 1..200 characters. */
  sourceKey: Scalars['String']['input'];
  /** When the user's message was sent. */
  startedAt: Scalars['DateTime']['input'];
  status: ImportedRunStatus;
  /** 1..100000 characters. */
  userMessage: Scalars['String']['input'];
};

export type ImportedRunStatus =
  | 'completed'
  | 'failed'
  | 'interrupted';

export type MergeBackInput = {
  forkThreadId: Scalars['ID']['input'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /**
   * Records the provider's native id for a provider thread once the provider created or resumed it.
   * When the running run it serves was dispatched to RESUME or REUSE another native id (the provider
   * silently started a fresh session), that is not the same continuity: the provider thread becomes
   * RESUME_FAILED, the run moves to a new one with a full summary of its live history, and the answer
   * says resumedBlank with the new dispatch to send. STALE_DISPATCH when fencingToken is a replaced
   * dispatch's.
   */
  bindNativeThread: BindNativeThreadPayload;
  /**
   * Records the provider's native id for a provider thread once the provider created or resumed it.
   * When the running run it serves was dispatched to RESUME or REUSE another native id, the provider
   * resumed blank: the run is re-planned as after reportResumeFailure and the provider thread returned
   * is RESUME_FAILED. bindNativeThread answers the same call with what to send then.
   * @deprecated Use bindNativeThread: it says when the provider resumed blank and what to send instead.
   */
  bindProviderThread: ProviderThread;
  /** STALE_DISPATCH when fencingToken is a replaced dispatch's; CONFLICT when the run is not running. */
  completeRun: Run;
  /**
   * Returns a subagent's result to its parent run, where every later summary of the parent includes it.
   * BAD_USER_INPUT when the subagent has no parent run (one imported without it has nowhere to return).
   */
  completeSubagent: ContextTransfer;
  /** The orchestrator performed the native rollback asked for: the provider thread is IDLE again, knowing the thread through the rollback point. */
  confirmProviderRollback: ProviderThread;
  /** Refused with THREAD_DELETED when the id names a deleted thread. */
  createThread: Thread;
  /**
   * Marks the thread deleted: it keeps its runs, handoffs and lineage as recorded, leaves the threads
   * list, and every operation that would change it, or plan a run on it, is refused with
   * THREAD_DELETED; thread(id) still reads it, with deletedAt set. Refused with RUN_IN_PROGRESS while a
   * run is running. Deleting a deleted thread answers it unchanged.
   */
  deleteThread: Thread;
  /** STALE_DISPATCH when fencingToken is a replaced dispatch's; CONFLICT when the run is not running. */
  failRun: Run;
  /** A new app thread from a stable source point; no provider is chosen until its first run. */
  forkThread: Thread;
  /**
   * Records runs that already happened in a provider's own session (npm run import reads them from
   * Codex and Claude Code session files): they are appended to the thread, after its existing runs and
   * in the order given, with their original times, served by the provider thread that holds the
   * session (nativeThreadRef), which is created on the first call for it. One transaction under the
   * thread's lock; RUN_IN_PROGRESS while the thread has a running run; CONFLICT when another thread
   * holds the session. Each run's plan says it was imported (NO_HANDOFF, CREATE for the provider
   * thread's first run, else REUSE or RESUME, reason "imported from <provider> session <id>"); no
   * handoff is made up for the past. A run whose sourceKey this session already imported adds
   * nothing, so importing a session again adds only its new turns; a run whose sourceId a run of the
   * thread already carries (a turn a resumed or forked session copied from another session) adds
   * nothing either, and is counted in duplicateTurns.
   */
  importRuns: ImportRunsPayload;
  /**
   * Records a subagent a provider's session ran (a Claude Code Task, a Codex spawned agent) as a
   * SUBAGENT child thread of the thread that holds the main session, linked to the parent run that
   * started it when given (SPAWNED_BY), before importRuns records the subagent's turns into it. Its
   * subagent_spawn transfer, holding the task, is written already consumed (resolution IMPORTED): the
   * provider gave the subagent its task itself, so no run receives it again. One transaction under
   * the parent's lock. Importing the same id again answers the existing child unchanged (its parent
   * run and title included); CONFLICT when the id is a thread that is not a subagent of this parent.
   * NOT_FOUND for an unknown parent thread or run; BAD_USER_INPUT for a run that is not a live run
   * of the parent, or for both parentRunOrdinal and parentRunId.
   */
  importSubagentThread: Thread;
  /** Offers the fork's work since the fork point back to its source thread; the source's next run takes it in. */
  mergeBack: ContextTransfer;
  /**
   * Records a fact (a note, a decision, a constraint, a goal) on the thread's newest live run of its
   * own, after that run's facts, as if the run had recorded it: the summaries and handoffs made after it
   * carry it. BAD_USER_INPUT when the thread has no live run of its own yet, or that run already holds
   * 500 facts; THREAD_DELETED on a deleted thread.
   */
  recordFact: RecordedFact;
  /** Writes a new handoff with the same coverage, target run and provider thread; the old one becomes SUPERSEDED. */
  regenerateHandoff: ContextHandoff;
  /** Sets the thread's title. Refused with THREAD_DELETED on a deleted thread. */
  renameThread: Thread;
  /** The native rollback failed: the provider thread becomes DIVERGENT and its provider's next run starts a new one. */
  reportProviderRollbackFailure: ProviderThread;
  /**
   * The provider could not resume the planned provider thread: re-plan onto a new one with a full summary.
   * STALE_DISPATCH when fencingToken is a replaced dispatch's.
   */
  reportResumeFailure: StartRunPayload;
  /** Rolls the thread back to toOrdinal (0: before its first run). Runs above it are kept as ROLLED_BACK; their ordinals are never reused. */
  rollbackThread: RollbackPayload;
  /** A child thread for a subagent working for a running parent run. */
  spawnSubagent: Thread;
  /** Allocates the next ordinal, decides the strategy, creates provider thread / handoff / transfer as needed. */
  startRun: StartRunPayload;
  /** The text a provider wrote for a PENDING handoff; makes it READY. Refused over the target's budget. */
  submitHandoffSummary: ContextHandoff;
};


export type MutationBindNativeThreadArgs = {
  input: BindProviderThreadInput;
};


export type MutationBindProviderThreadArgs = {
  input: BindProviderThreadInput;
};


export type MutationCompleteRunArgs = {
  input: CompleteRunInput;
};


export type MutationCompleteSubagentArgs = {
  input: CompleteSubagentInput;
};


export type MutationConfirmProviderRollbackArgs = {
  input: ProviderRollbackInput;
};


export type MutationCreateThreadArgs = {
  input: CreateThreadInput;
};


export type MutationDeleteThreadArgs = {
  input: DeleteThreadInput;
};


export type MutationFailRunArgs = {
  input: FailRunInput;
};


export type MutationForkThreadArgs = {
  input: ForkThreadInput;
};


export type MutationImportRunsArgs = {
  input: ImportRunsInput;
};


export type MutationImportSubagentThreadArgs = {
  input: ImportSubagentThreadInput;
};


export type MutationMergeBackArgs = {
  input: MergeBackInput;
};


export type MutationRecordFactArgs = {
  input: RecordFactInput;
};


export type MutationRegenerateHandoffArgs = {
  input: RegenerateHandoffInput;
};


export type MutationRenameThreadArgs = {
  input: RenameThreadInput;
};


export type MutationReportProviderRollbackFailureArgs = {
  input: ProviderRollbackFailureInput;
};


export type MutationReportResumeFailureArgs = {
  input: ReportResumeFailureInput;
};


export type MutationRollbackThreadArgs = {
  input: RollbackThreadInput;
};


export type MutationSpawnSubagentArgs = {
  input: SpawnSubagentInput;
};


export type MutationStartRunArgs = {
  input: StartRunInput;
};


export type MutationSubmitHandoffSummaryArgs = {
  input: SubmitHandoffSummaryInput;
};

/** The native rollback the orchestrator must perform. */
export type NativeRollback = {
  __typename?: 'NativeRollback';
  nativeThreadRef: Maybe<Scalars['String']['output']>;
  providerThreadId: Scalars['ID']['output'];
  /** The app-thread ordinal it returns to. */
  toOrdinal: Scalars['Int']['output'];
  /** How many of the provider thread's own turns to drop, newest first. */
  turnsToDrop: Scalars['Int']['output'];
};

export type OrdinalRange = {
  __typename?: 'OrdinalRange';
  from: Scalars['Int']['output'];
  to: Scalars['Int']['output'];
};

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  /** Whether there are edges before startCursor; a list paged only forwards (threads) answers false. */
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor: Maybe<Scalars['String']['output']>;
};

export type PlanDecision =
  | 'delta_handoff'
  | 'full_handoff_existing'
  | 'full_handoff_new'
  | 'no_handoff'
  | 'unsupported';

export type PlanRunInput = {
  cleanContext?: InputMaybe<Scalars['Boolean']['input']>;
  model?: InputMaybe<Scalars['String']['input']>;
  provider: Scalars['String']['input'];
  runtimeMode?: InputMaybe<Scalars['String']['input']>;
  threadId: Scalars['ID']['input'];
};

/** Handoffs created in the window, by who wrote them. */
export type ProvenanceStats = {
  __typename?: 'ProvenanceStats';
  createdByProvider: Maybe<Scalars['String']['output']>;
  failed: Scalars['Int']['output'];
  failedRate: Scalars['Float']['output'];
  handoffs: Scalars['Int']['output'];
  /** Mean number of omissions (facts a non-local summary left out). */
  meanOmissions: Scalars['Float']['output'];
  pending: Scalars['Int']['output'];
  /** local, provider:<id>, configured:<name> or user. */
  source: Scalars['String']['output'];
  superseded: Scalars['Int']['output'];
  supersededRate: Scalars['Float']['output'];
  totalOmissions: Scalars['Int']['output'];
  /** Superseded because a rollback withdrew them. */
  withdrawnByRollback: Scalars['Int']['output'];
};

export type Provider = {
  __typename?: 'Provider';
  capabilities: ProviderCapabilities;
  displayName: Scalars['String']['output'];
  id: Scalars['String']['output'];
};

export type ProviderCapabilities = {
  __typename?: 'ProviderCapabilities';
  acceptsDeveloperContext: Scalars['Boolean']['output'];
  acceptsSyntheticUserContext: Scalars['Boolean']['output'];
  acceptsSystemContext: Scalars['Boolean']['output'];
  canConsumeHandoffSummaries: Scalars['Boolean']['output'];
  canForkFromTurn: Scalars['Boolean']['output'];
  canForkThread: Scalars['Boolean']['output'];
  canGenerateSummaries: Scalars['Boolean']['output'];
  canRollbackThread: Scalars['Boolean']['output'];
  maxRecommendedHandoffChars: Maybe<Scalars['Int']['output']>;
  nativeThreadIds: IdentityStrength;
  supportsDeltaHandoff: Scalars['Boolean']['output'];
  supportsFullThreadHandoff: Scalars['Boolean']['output'];
  supportsModelSwitchInThread: Scalars['Boolean']['output'];
};

/** Runs that switched provider with a PROVIDER_HANDOFF handoff created in the window; a run's newest such handoff describes its switch. */
export type ProviderPairStats = {
  __typename?: 'ProviderPairStats';
  checkpointShare: Scalars['Float']['output'];
  /** Shares of switches by handoff strategy, 0..1. */
  deltaShare: Scalars['Float']['output'];
  /** Provider of the run before the switch; unknown when it was not recorded. */
  fromProvider: Scalars['String']['output'];
  fullShare: Scalars['Float']['output'];
  /** Handoffs written for those switches (regenerations and replacements included). */
  handoffs: Scalars['Int']['output'];
  manualShare: Scalars['Float']['output'];
  /** Mean number of runs a switch's handoff covers. */
  meanRunsCovered: Scalars['Float']['output'];
  /** Median budget of the written handoffs; null when none had one. */
  medianBudgetChars: Maybe<Scalars['Int']['output']>;
  /** Median of length / budgetChars; null when no written handoff had a budget. */
  medianBudgetUse: Maybe<Scalars['Float']['output']>;
  /** Median length of the written handoffs; null when none was written yet. */
  medianLength: Maybe<Scalars['Int']['output']>;
  /** Returns that created a new provider thread instead. */
  recreated: Scalars['Int']['output'];
  /** Returns that resumed that provider thread. */
  resumed: Scalars['Int']['output'];
  /** Switches back to a provider that already had a provider thread on the thread. */
  returns: Scalars['Int']['output'];
  switches: Scalars['Int']['output'];
  toProvider: Scalars['String']['output'];
};

export type ProviderRollbackAction =
  /** No safe native rollback: the provider's next run starts a new provider thread with a full summary. */
  | 'divergent'
  /** The provider rolls back natively: the orchestrator must perform nativeRollback, then confirm. */
  | 'rolled_back';

export type ProviderRollbackFailureInput = {
  /** 1..20000 characters. */
  error: Scalars['String']['input'];
  providerThreadId: Scalars['ID']['input'];
};

export type ProviderRollbackInput = {
  providerThreadId: Scalars['ID']['input'];
};

export type ProviderThread = {
  __typename?: 'ProviderThread';
  /**
   * What it knows of its app thread's live history. With fromOrdinal and toOrdinal (together, from 1
   * up, at most 1000 ordinals), only that window: every range, count, ordinal list and handoff id of the answer is
   * cut to it, so its size and cost follow the window, not the thread (the viewer asks for the runs it
   * draws). Without them, the whole history, whose ranges grow with the thread's switches and rollbacks.
   */
  coverage: ProviderThreadCoverage;
  createdAt: Scalars['DateTime']['output'];
  /** Lowest ordinal of the live runs it served; null when it served none. */
  firstRunOrdinal: Maybe<Scalars['Int']['output']>;
  /** The provider thread this one was natively forked from. */
  forkedFrom: Maybe<ProviderThread>;
  handoffIds: Array<Scalars['ID']['output']>;
  id: Scalars['ID']['output'];
  /** Highest ordinal of the live runs it served; null when it served none. */
  lastRunOrdinal: Maybe<Scalars['Int']['output']>;
  model: Maybe<Scalars['String']['output']>;
  nativeThreadRef: Maybe<Scalars['String']['output']>;
  provider: Scalars['String']['output'];
  /** The error reportResumeFailure gave when it became RESUME_FAILED. */
  resumeError: Maybe<Scalars['String']['output']>;
  /** The error reportProviderRollbackFailure gave when its native rollback failed. */
  rollbackError: Maybe<Scalars['String']['output']>;
  runtimeMode: Maybe<Scalars['String']['output']>;
  /** Its number on its app thread, in creation order from 1. */
  seq: Scalars['Int']['output'];
  status: ProviderThreadStatus;
  /** Why it is in its status, in words, for the statuses a rollback or a resume failure set (and a native rollback's outcome); null otherwise. */
  statusReason: Maybe<Scalars['String']['output']>;
  threadId: Scalars['ID']['output'];
};


export type ProviderThreadCoverageArgs = {
  fromOrdinal?: InputMaybe<Scalars['Int']['input']>;
  toOrdinal?: InputMaybe<Scalars['Int']['input']>;
};

/**
 * REUSE: same provider thread as the previous run. RESUME: an older one of this provider. CREATE: a new one.
 * NATIVE_FORK: a new one forked natively from the fork source's provider thread (dispatch.nativeThreadRef, dispatch.forkFromTurn).
 */
export type ProviderThreadAction =
  | 'create'
  | 'native_fork'
  | 'none'
  | 'resume'
  | 'reuse';

/**
 * What a provider thread knows of its app thread's live history, as ordinal ranges (ascending,
 * disjoint, rolled-back runs left out): its size follows the number of switches, not the number of runs.
 */
export type ProviderThreadCoverage = {
  __typename?: 'ProviderThreadCoverage';
  /** Highest ordinal it knows, natively or by handoff (within the window, for a window); 0 when none. */
  coveredThroughOrdinal: Scalars['Int']['output'];
  /** Handoffs it received that still stand (not superseded or failed), oldest first; for a window, those whose range meets it or whose target run lies in it. */
  handoffIds: Array<Scalars['ID']['output']>;
  /** Live runs it knows only through its standing handoffs. */
  handoffRanges: Array<OrdinalRange>;
  handoffs: Array<ContextHandoff>;
  /** Live runs of the thread's history it knows neither natively nor by handoff. */
  missingRanges: Array<OrdinalRange>;
  missingRunCount: Scalars['Int']['output'];
  /** The first ordinals of missingRanges, ascending: at most first (default 1000, at most 10000). */
  missingRunOrdinals: Array<Scalars['Int']['output']>;
  /** Live runs it knows natively: served itself, or inherited through a native fork. */
  nativeRanges: Array<OrdinalRange>;
  nativeRunCount: Scalars['Int']['output'];
  /** The first ordinals of nativeRanges, ascending: at most first (default 1000, at most 10000). */
  nativeRunOrdinals: Array<Scalars['Int']['output']>;
  providerThreadId: Scalars['ID']['output'];
};


/**
 * What a provider thread knows of its app thread's live history, as ordinal ranges (ascending,
 * disjoint, rolled-back runs left out): its size follows the number of switches, not the number of runs.
 */
export type ProviderThreadCoverageMissingRunOrdinalsArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
};


/**
 * What a provider thread knows of its app thread's live history, as ordinal ranges (ascending,
 * disjoint, rolled-back runs left out): its size follows the number of switches, not the number of runs.
 */
export type ProviderThreadCoverageNativeRunOrdinalsArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
};

export type ProviderThreadRollback = {
  __typename?: 'ProviderThreadRollback';
  action: ProviderRollbackAction;
  /** Set for ROLLED_BACK. */
  nativeRollback: Maybe<NativeRollback>;
  providerThread: ProviderThread;
};

/** STALE: replaced by a newer provider thread of the same provider on this app thread. */
export type ProviderThreadStatus =
  | 'active'
  | 'closed'
  | 'divergent'
  | 'idle'
  | 'resume_failed'
  | 'rolled_back'
  | 'stale';

export type Query = {
  __typename?: 'Query';
  /** The caller's tenant between from (inclusive) and to (exclusive); from must be before to. */
  analytics: Analytics;
  contextHandoff: Maybe<ContextHandoff>;
  /** What startRun would decide for this provider now. Writes nothing. */
  planRun: RunPlan;
  /**
   * The plan and the exact leading context a startRun on this provider would deliver now, composed by
   * the code startRun writes with. Writes nothing: no run, handoff or provider thread, so it never
   * leaves a running run behind. Refuses what planRun refuses (NOT_FOUND, BAD_USER_INPUT).
   */
  previewRun: RunPreview;
  providerThread: Maybe<ProviderThread>;
  /**
   * The provider threads that hold a provider's own conversation (a Codex thread, a Claude Code session),
   * as imported by importRuns or recorded by bindProviderThread, newest first, at most 20: how an
   * importer finds the app thread that already holds a session.
   */
  providerThreadsByNativeRef: Array<ProviderThread>;
  /** Providers the service knows, built-in and configured. */
  providers: Array<Provider>;
  run: Maybe<Run>;
  /** null when no thread of the caller's tenant has this id. */
  thread: Maybe<Thread>;
  /**
   * Threads of the caller's tenant, newest first, deleted ones left out, narrowed by filter. first is
   * clamped to 1..100; pass the same filter with after.
   */
  threads: ThreadConnection;
};


export type QueryAnalyticsArgs = {
  from: Scalars['DateTime']['input'];
  to: Scalars['DateTime']['input'];
};


export type QueryContextHandoffArgs = {
  id: Scalars['ID']['input'];
};


export type QueryPlanRunArgs = {
  input: PlanRunInput;
};


export type QueryPreviewRunArgs = {
  input: PlanRunInput;
};


export type QueryProviderThreadArgs = {
  id: Scalars['ID']['input'];
};


export type QueryProviderThreadsByNativeRefArgs = {
  nativeThreadRef: Scalars['String']['input'];
  provider: Scalars['String']['input'];
};


export type QueryRunArgs = {
  id: Scalars['ID']['input'];
};


export type QueryThreadArgs = {
  id: Scalars['ID']['input'];
};


export type QueryThreadsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<ThreadFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
};

/**
 * Lines of the provider's session file for one turn, as the provider wrote them, from the turn's user
 * message on (a Codex rollout's user_message event, which its turn_context may precede; a Claude Code
 * session's user message). Refused with BAD_USER_INPUT when they are not records of that format, when a
 * line is not a JSON object, or when they hold no turn (no user message).
 */
export type RawEventsInput = {
  format: SessionFormat;
  /** At most 2000 lines, each one JSON record of 1..100000 characters. */
  lines: Array<Scalars['String']['input']>;
};

export type ReceiptLine = {
  __typename?: 'ReceiptLine';
  /** How many the covered runs hold. */
  held: Scalars['Int']['output'];
  /** How many of them the text names. */
  kept: Scalars['Int']['output'];
  /** The first 20 the text leaves out, as the runs name them (held - kept says how many in all). */
  omitted: Array<Scalars['String']['output']>;
};

export type RecordFactInput = {
  /** What a later fact of the same kind and key supersedes (at most 200 characters). */
  key?: InputMaybe<Scalars['String']['input']>;
  /** NOTE, DECISION, CONSTRAINT or GOAL. */
  kind: RunFactKind;
  /** 1..20000 characters. */
  text: Scalars['String']['input'];
  threadId: Scalars['ID']['input'];
};

export type RecordedFact = {
  __typename?: 'RecordedFact';
  fact: RunFact;
  /** The run it was recorded on. */
  run: Run;
};

export type RegenerateHandoffInput = {
  handoffId: Scalars['ID']['input'];
  /**
   * local, leaving, entering, or the name of a configured summarizer; default: the policy for the
   * target provider. A handoff that also delivers a merge-back is always written locally.
   */
  source?: InputMaybe<Scalars['String']['input']>;
};

export type RenameThreadInput = {
  id: Scalars['ID']['input'];
  /** 1..500 characters. */
  title: Scalars['String']['input'];
};

export type ReportResumeFailureInput = {
  /** 1..20000 characters. */
  error: Scalars['String']['input'];
  /** The Dispatch.fencingToken of the dispatch that failed to resume; without it the call is not fenced. */
  fencingToken?: InputMaybe<Scalars['String']['input']>;
  runId: Scalars['ID']['input'];
};

/** What a rollback changed. */
export type RollbackPayload = {
  __typename?: 'RollbackPayload';
  providerThreads: Array<ProviderThreadRollback>;
  /** The ordinals this rollback withdrew (its live runs above toOrdinal). */
  rolledBackRanges: Array<OrdinalRange>;
  rolledBackRunCount: Scalars['Int']['output'];
  /** The first 100 of those runs, lowest ordinal first; Thread.runs pages through all of them. */
  rolledBackRuns: Array<Run>;
  supersededHandoffs: Array<ContextHandoff>;
  thread: Thread;
};

export type RollbackThreadInput = {
  threadId: Scalars['ID']['input'];
  /** 0, or the ordinal of a live run below the head (for a fork: not below its fork point). */
  toOrdinal: Scalars['Int']['input'];
};

export type Run = {
  __typename?: 'Run';
  /** The provider's answer, once completeRun sent one. maxChars as for userMessage. */
  assistantMessage: Maybe<Scalars['String']['output']>;
  /** The length of the whole assistantMessage in characters (Unicode code points); null without one. */
  assistantMessageLength: Maybe<Scalars['Int']['output']>;
  checkpoint: Maybe<Checkpoint>;
  completedAt: Maybe<Scalars['DateTime']['output']>;
  contextHandoff: Maybe<ContextHandoff>;
  createdAt: Scalars['DateTime']['output'];
  /** What the orchestrator must send to the provider for this run. */
  dispatch: Dispatch;
  /** The error reported by failRun, for FAILED and INTERRUPTED runs. */
  error: Maybe<Scalars['String']['output']>;
  /** How many facts the run recorded (at most 500). */
  factCount: Scalars['Int']['output'];
  /**
   * The facts the run recorded, in the order they were sent: first (clamped to 1..500; default all) of
   * them from offset (0 or more; BAD_USER_INPUT below). A fact's text may be 20,000 characters: a list
   * asks for text(maxChars:), and factCount says how many there are.
   */
  facts: Array<RunFact>;
  id: Scalars['ID']['output'];
  model: Maybe<Scalars['String']['output']>;
  ordinal: Scalars['Int']['output'];
  /** The decision startRun (or reportResumeFailure) made for this run. */
  plan: RunPlan;
  provider: Scalars['String']['output'];
  providerThread: ProviderThread;
  runtimeMode: Maybe<Scalars['String']['output']>;
  status: RunStatus;
  threadId: Scalars['ID']['output'];
  /**
   * The user's message. With maxChars (0 or more), only its first maxChars characters: a list view asks
   * for a few hundred and userMessageLength, and reads the rest for the one run opened; the whole text
   * may be 100,000 characters, and every answer is bounded (RESPONSE_TOO_LARGE). Characters here are
   * Unicode code points, so a cut never splits one (the input limits count UTF-16 code units, in which
   * an emoji counts two).
   */
  userMessage: Scalars['String']['output'];
  /** The length of the whole userMessage in characters (Unicode code points), however much of it was asked for. */
  userMessageLength: Scalars['Int']['output'];
};


export type RunAssistantMessageArgs = {
  maxChars?: InputMaybe<Scalars['Int']['input']>;
};


export type RunFactsArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
};


export type RunUserMessageArgs = {
  maxChars?: InputMaybe<Scalars['Int']['input']>;
};

export type RunConnection = {
  __typename?: 'RunConnection';
  edges: Array<RunEdge>;
  pageInfo: PageInfo;
};

export type RunEdge = {
  __typename?: 'RunEdge';
  cursor: Scalars['String']['output'];
  node: Run;
};

export type RunFact = {
  __typename?: 'RunFact';
  /** A FILE_CHANGE fact's typed change, when it was recorded with one (RunFactInput.file, or raw events); null otherwise. */
  file: Maybe<FileChange>;
  key: Maybe<Scalars['String']['output']>;
  kind: RunFactKind;
  runOrdinal: Scalars['Int']['output'];
  status: Maybe<Scalars['String']['output']>;
  /** The fact. With maxChars (0 or more), only its first maxChars characters (Unicode code points), as Run.userMessage. */
  text: Scalars['String']['output'];
  /** The length of the whole text in characters (Unicode code points), however much of it was asked for. */
  textLength: Scalars['Int']['output'];
};


export type RunFactTextArgs = {
  maxChars?: InputMaybe<Scalars['Int']['input']>;
};

/** Structured facts a run produced; the local summarizer builds handoffs from these. */
export type RunFactInput = {
  /**
   * FILE_CHANGE only (BAD_USER_INPUT on other kinds): the change, typed like a checkpoint's files.
   * key defaults to its path and status to its change in lower case, so readers of key and status
   * (the form FILE_CHANGE facts had before) see what they saw. Summaries sum its line counts per path.
   */
  file?: InputMaybe<FileChangeInput>;
  /** Facts with the same kind and key: the newest run's one supersedes older ones (e.g. the last result of one test command). */
  key?: InputMaybe<Scalars['String']['input']>;
  kind: RunFactKind;
  /** Free status for the fact, e.g. open/resolved for approvals and questions, done/pending for plan items. */
  status?: InputMaybe<Scalars['String']['input']>;
  /** 1..20000 characters. */
  text: Scalars['String']['input'];
};

export type RunFactKind =
  | 'approval_request'
  | 'command'
  | 'constraint'
  | 'decision'
  | 'failure'
  | 'file_change'
  | 'goal'
  | 'note'
  | 'plan_item'
  /** Provider protocol noise: never put into a summary. */
  | 'protocol'
  | 'question'
  /** Hidden reasoning: stored only if sent, never put into a summary. */
  | 'reasoning'
  | 'subagent_result'
  | 'test'
  /** Kept for audit, never put into a summary. */
  | 'tool_output';

export type RunPlan = {
  __typename?: 'RunPlan';
  coveredRunOrdinals: Maybe<OrdinalRange>;
  decision: PlanDecision;
  /** null for NO_HANDOFF and UNSUPPORTED. */
  handoffStrategy: Maybe<HandoffStrategy>;
  /** The existing provider thread to reuse or resume; null when a new one is created. */
  providerThread: Maybe<ProviderThread>;
  providerThreadAction: ProviderThreadAction;
  /** One plain sentence per signal and per choice made, for audit and UIs. */
  reasons: Array<Scalars['String']['output']>;
  stalenessSignals: Array<StalenessSignal>;
};

/** What a startRun would plan and deliver now (Query.previewRun). Its fields mirror the Dispatch's. */
export type RunPreview = {
  __typename?: 'RunPreview';
  /**
   * The leading context the dispatch would carry; null when the run needs none, when the plan is
   * UNSUPPORTED (startRun would refuse with HANDOFF_UNSUPPORTED), or when pendingWriter is set.
   */
  context: Maybe<Scalars['String']['output']>;
  delivery: Maybe<ContextDelivery>;
  /** Native id the dispatch would resume or reuse; null when the provider would create a thread. */
  nativeThreadRef: Maybe<Scalars['String']['output']>;
  /** Who startRun would ask to write the summary (a provider, or configured:<name>); null when it is written at once. */
  pendingWriter: Maybe<Scalars['String']['output']>;
  /** The plan as the run would record it, with the reasons composing its context adds. */
  plan: RunPlan;
  providerThreadAction: ProviderThreadAction;
};

export type RunStatus =
  | 'completed'
  | 'failed'
  | 'interrupted'
  | 'rolled_back'
  | 'running';

export type SessionFormat =
  | 'claude'
  | 'codex';

export type SourcePoint = {
  __typename?: 'SourcePoint';
  checkpointId: Maybe<Scalars['ID']['output']>;
  providerThreadId: Maybe<Scalars['ID']['output']>;
  runId: Maybe<Scalars['ID']['output']>;
  runOrdinal: Maybe<Scalars['Int']['output']>;
  threadId: Scalars['ID']['output'];
};

export type SpawnSubagentInput = {
  id?: InputMaybe<Scalars['ID']['input']>;
  parentRunId: Scalars['ID']['input'];
  /** The provider the subagent runs on. */
  provider: Scalars['String']['input'];
  /** What the subagent is asked to do (1..20000 characters); its first run receives it as MANUAL_CONTEXT. */
  task: Scalars['String']['input'];
  title?: InputMaybe<Scalars['String']['input']>;
};

export type StalenessSignal =
  | 'clean_context_requested'
  | 'incompatible_config'
  | 'resume_failed'
  | 'rolled_back_or_divergent'
  | 'summary_exceeds_policy'
  | 'too_many_chained_handoffs'
  | 'too_many_runs_elsewhere';

/** How often a staleness signal fired in the plans of a provider's runs started in the window. */
export type StalenessStats = {
  __typename?: 'StalenessStats';
  provider: Scalars['String']['output'];
  /** All runs of the provider in the window. */
  providerRuns: Scalars['Int']['output'];
  /** runs / providerRuns. */
  rate: Scalars['Float']['output'];
  runs: Scalars['Int']['output'];
  signal: StalenessSignal;
  threads: Scalars['Int']['output'];
};

export type StartRunInput = {
  cleanContext?: InputMaybe<Scalars['Boolean']['input']>;
  /** Retrying with the same key returns the first result and creates nothing new. At most 200 characters. */
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  /** Operator-written context (1..budget characters): delivered as a MANUAL_CONTEXT handoff over the range the planner chose, instead of a summary. */
  manualContext?: InputMaybe<Scalars['String']['input']>;
  /** At most 200 characters. */
  model?: InputMaybe<Scalars['String']['input']>;
  provider: Scalars['String']['input'];
  /** At most 200 characters. */
  runtimeMode?: InputMaybe<Scalars['String']['input']>;
  threadId: Scalars['ID']['input'];
  /** 1..100000 characters. */
  userMessage: Scalars['String']['input'];
};

export type StartRunPayload = {
  __typename?: 'StartRunPayload';
  dispatch: Dispatch;
  handoff: Maybe<ContextHandoff>;
  plan: RunPlan;
  providerThread: ProviderThread;
  run: Run;
};

export type SubmitHandoffSummaryInput = {
  /** Who wrote it: the provider asked (see summaryRequest.writer). */
  createdByProvider: Scalars['String']['input'];
  handoffId: Scalars['ID']['input'];
  summaryText: Scalars['String']['input'];
};

export type Subscription = {
  __typename?: 'Subscription';
  /**
   * The changes of one thread of the caller's tenant, in order, one event per committed change,
   * whichever instance made it. An unknown thread, or another tenant's, is NOT_FOUND, as for every
   * read. Without afterSequence the events start with the next change; with it, the changes after that
   * number come first (the feed keeps each thread's newest 500: when older ones are gone, the first
   * event says resync). Read Thread.changeSequence together with the thread, then subscribe with it
   * as afterSequence, and no change falls between the two. Events arrive within about one poll
   * interval (THREADLINE_SUBSCRIPTION_POLL_MS) of the commit.
   */
  threadChanged: ThreadChange;
};


export type SubscriptionThreadChangedArgs = {
  afterSequence?: InputMaybe<Scalars['Int']['input']>;
  threadId: Scalars['ID']['input'];
};

/** What the orchestrator must have a provider write for a PENDING handoff. */
export type SummaryRequest = {
  __typename?: 'SummaryRequest';
  /** The most characters the summary may have; null: no limit. */
  budgetChars: Maybe<Scalars['Int']['output']>;
  /** The structured facts to summarize, as the local summarizer's document. */
  document: Scalars['String']['output'];
  handoffId: Scalars['ID']['output'];
  strategy: HandoffStrategy;
  /** For whom: the provider that will read it. */
  targetProvider: Scalars['String']['output'];
  /** The provider asked to write it. */
  writer: Scalars['String']['output'];
};

export type Thread = {
  __typename?: 'Thread';
  /** Parent, grandparent, ... up to the root, nearest first. depth is clamped to 1..50. */
  ancestors: Array<Thread>;
  /** The number of the thread's newest change (ThreadChange.sequence); 0 before any. */
  changeSequence: Scalars['Int']['output'];
  /**
   * Runs x provider threads: for each live run of the thread's history (inherited runs of a fork
   * included, rolled-back runs not), from ordinal fromOrdinal on, how each of the thread's provider
   * threads knows it. Paged both ways: first (runs per page) is clamped to 1..200; the columns are the
   * provider threads numbered columnsFrom on (the N of their caption "codex #N"), at most columns,
   * clamped to 1..100.
   */
  coverageMatrix: CoverageMatrix;
  createdAt: Scalars['DateTime']['output'];
  /** When deleteThread marked it deleted; null for a thread in use. */
  deletedAt: Maybe<Scalars['DateTime']['output']>;
  /**
   * Forks of this thread, oldest first. first is clamped to 1..100. With fromOrdinal and toOrdinal
   * (together, at most 1000 ordinals) only those that branched off a run of that window, by its ordinal:
   * what a window of runs draws, read at the same cost whatever the thread's length.
   */
  forks: Array<Thread>;
  /**
   * Without arguments, every handoff of the thread, superseded ones included, oldest first. With
   * fromOrdinal and toOrdinal (together, 1 <= fromOrdinal <= toOrdinal, at most 1000 ordinals), the
   * handoffs made for the runs of that range, superseded ones included, in the order of those runs, at
   * most 2000 (the lowest ordinals when a range holds more). A handoff's covered runs may start before
   * the range.
   */
  handoffs: Array<ContextHandoff>;
  /** Highest ordinal that is not rolled back; 0 when the thread has no runs. */
  headOrdinal: Scalars['Int']['output'];
  /**
   * The thread's whole history in ordinal order, a fork's inherited runs included (read from the
   * threads that hold them, marked inherited), each marked live or not as this thread sees it: an
   * inherited run its source rolled back after the fork is still live here. liveOnly leaves out what
   * is not live. Pages forwards: first is clamped to 1..500. fromOrdinal (1 or more) starts the page at
   * that ordinal instead of after a cursor; passing it with after is BAD_USER_INPUT.
   */
  history: HistoryConnection;
  id: Scalars['ID']['output'];
  /** When its newest run started or ended (for imported runs, their own times); its creation time before any run. */
  lastActivityAt: Scalars['DateTime']['output'];
  /** Checkpoint of the newest live run of the thread's history (a fork's inherited runs included) that captured one. */
  latestCheckpoint: Maybe<Checkpoint>;
  lineage: ThreadLineage;
  /** The project given at creation; a fork or subagent thread has its parent's. */
  project: Maybe<Scalars['String']['output']>;
  /** How many provider threads it has: their seq runs from 1 to it. */
  providerThreadCount: Scalars['Int']['output'];
  /**
   * Provider threads in creation order (seq), at most first (default 100, clamped to 1..500); after, the
   * id of the last one of a page, goes on after it (a provider thread of another thread is
   * BAD_USER_INPUT). With fromOrdinal and toOrdinal (together, as for handoffs, at most 1000 ordinals)
   * only those that served a run of that range or received a handoff made for one: what a window of
   * runs draws, read at the same cost whatever the thread's length.
   */
  providerThreads: Array<ProviderThread>;
  /** The providers that ran runs on the thread itself, in order of first use (a fork's inherited runs not counted). */
  providers: Array<Scalars['String']['output']>;
  /** How many runs were recorded on the thread itself, rolled-back ones included, a fork's inherited ones not. */
  runCount: Scalars['Int']['output'];
  /**
   * Runs in ordinal order, rolled-back ones included. first/after page forwards from the oldest run.
   * last/before page backwards: the newest last runs before the before cursor (or the newest of all),
   * still returned oldest first; pageInfo.hasPreviousPage and startCursor go on to earlier runs. first
   * and last are clamped to 1..500, last defaults to 50 like first; passing first or after together
   * with last or before is BAD_USER_INPUT.
   */
  runs: RunConnection;
  /**
   * Subagent threads spawned from this thread's runs, oldest first. first is clamped to 1..100. With
   * fromOrdinal and toOrdinal, only those spawned by a run of that window, as for forks.
   */
  subagents: Array<Thread>;
  title: Maybe<Scalars['String']['output']>;
  /**
   * Without arguments, every context transfer into or out of the thread, oldest first. With
   * fromOrdinal and toOrdinal (as for handoffs), the transfers with a point in this thread within that
   * range, oldest first, at most 2000: one out of the thread from a run of the range (its source
   * point), one into it taken in by a run of the range (its handoff's run), the transfer that created a
   * fork or subagent thread at the thread's first own ordinal, and a pending one at the ordinal the
   * thread's next run will get (one above its newest run; for a fork without runs, its fork point + 1).
   * A merge-back superseded while pending was never taken in and is in no range.
   */
  transfers: Array<ContextTransfer>;
};


export type ThreadAncestorsArgs = {
  depth?: InputMaybe<Scalars['Int']['input']>;
};


export type ThreadCoverageMatrixArgs = {
  columns?: InputMaybe<Scalars['Int']['input']>;
  columnsFrom?: InputMaybe<Scalars['Int']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  fromOrdinal?: InputMaybe<Scalars['Int']['input']>;
};


export type ThreadForksArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
  fromOrdinal?: InputMaybe<Scalars['Int']['input']>;
  toOrdinal?: InputMaybe<Scalars['Int']['input']>;
};


export type ThreadHandoffsArgs = {
  fromOrdinal?: InputMaybe<Scalars['Int']['input']>;
  toOrdinal?: InputMaybe<Scalars['Int']['input']>;
};


export type ThreadHistoryArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  fromOrdinal?: InputMaybe<Scalars['Int']['input']>;
  liveOnly?: InputMaybe<Scalars['Boolean']['input']>;
};


export type ThreadProviderThreadsArgs = {
  after?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  fromOrdinal?: InputMaybe<Scalars['Int']['input']>;
  toOrdinal?: InputMaybe<Scalars['Int']['input']>;
};


export type ThreadRunsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type ThreadSubagentsArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
  fromOrdinal?: InputMaybe<Scalars['Int']['input']>;
  toOrdinal?: InputMaybe<Scalars['Int']['input']>;
};


export type ThreadTransfersArgs = {
  fromOrdinal?: InputMaybe<Scalars['Int']['input']>;
  toOrdinal?: InputMaybe<Scalars['Int']['input']>;
};

/**
 * One committed change of a thread. An instance sends a bounded number of bytes per change
 * (docs/live-updates.md): a subscriber whose selection would not fit gets the event without its thread,
 * with withheld saying why and resync true, and reads the thread again over HTTP.
 */
export type ThreadChange = {
  __typename?: 'ThreadChange';
  at: Scalars['DateTime']['output'];
  kind: ThreadChangeKind;
  /**
   * Read the thread again: changes before this one were not delivered (they left the feed, or this
   * subscriber fell far behind), or this event was withheld.
   */
  resync: Scalars['Boolean']['output'];
  /** 1, 2, 3... per thread, in commit order, without gaps; pass the last one seen as afterSequence when subscribing again. */
  sequence: Scalars['Int']['output'];
  /**
   * The thread as it is when the event is sent, which may already include later changes; select what
   * the view shows. Null when the event is withheld.
   */
  thread: Maybe<Thread>;
  /** The thread that changed (the one subscribed to). */
  threadId: Scalars['ID']['output'];
  /** Why this event comes without its thread; null when the thread is there. */
  withheld: Maybe<ThreadChangeWithheld>;
};

/** What an operation changed; the operation names the field to read again. */
export type ThreadChangeKind =
  /** deleteThread: it is deleted. */
  | 'deleted'
  /** recordFact: a fact on its newest run. */
  | 'fact_recorded'
  /** forkThread made a fork of this thread. */
  | 'forked'
  /** A PENDING handoff got its summary (submitHandoffSummary or a configured summarizer). */
  | 'handoff_ready'
  /** regenerateHandoff, or a PENDING handoff that failed or expired and was replaced by a local summary. */
  | 'handoff_replaced'
  /** mergeBack, on the fork and on the thread it merges back into. */
  | 'merged_back'
  /** confirmProviderRollback or reportProviderRollbackFailure. */
  | 'provider_rollback_settled'
  /** bindNativeThread: a provider thread's native id. */
  | 'provider_thread_bound'
  /** renameThread: its title. */
  | 'renamed'
  /** rollbackThread: runs, handoffs and provider-thread statuses. */
  | 'rolled_back'
  /** importRuns added runs. */
  | 'runs_imported'
  | 'run_completed'
  /** failRun, interrupted or not. */
  | 'run_failed'
  /** reportResumeFailure, or bindNativeThread finding a resumed blank: the run's new provider thread and handoff. */
  | 'run_replanned'
  /** startRun: a new run, its plan and its handoff. */
  | 'run_started'
  /** completeSubagent, on the subagent's thread and on its parent thread. */
  | 'subagent_completed'
  /** spawnSubagent, on the parent thread. */
  | 'subagent_spawned';

/** Why a change's event was sent without its thread (docs/live-updates.md). */
export type ThreadChangeWithheld =
  /** The selection's answer for this one event would pass THREADLINE_SUBSCRIPTION_EVENT_MAX_BYTES. */
  | 'event_too_large'
  /**
   * The instance's budget for one change (THREADLINE_SUBSCRIPTION_CHANGE_MAX_BYTES), shared equally
   * by the thread's subscribers on it, has no room for the selection's answer.
   */
  | 'fan_out_budget';

export type ThreadConnection = {
  __typename?: 'ThreadConnection';
  edges: Array<ThreadEdge>;
  pageInfo: PageInfo;
};

export type ThreadEdge = {
  __typename?: 'ThreadEdge';
  cursor: Scalars['String']['output'];
  node: Thread;
};

/** Every given condition must hold. */
export type ThreadFilter = {
  /** Threads whose project is exactly this (at most 4000 characters). */
  project?: InputMaybe<Scalars['String']['input']>;
  /** Threads on which a run of this provider ran (at most 200 characters). */
  provider?: InputMaybe<Scalars['String']['input']>;
  /** Threads whose title, id or project contain this, ignoring case (1..200 characters). */
  text?: InputMaybe<Scalars['String']['input']>;
};

export type ThreadLineage = {
  __typename?: 'ThreadLineage';
  parent: Maybe<Thread>;
  relationshipToParent: Maybe<ThreadRelationship>;
  root: Thread;
  /** Where the thread branched off its parent; null for a root thread. */
  sourcePoint: Maybe<SourcePoint>;
};

export type ThreadRelationship =
  | 'fork'
  | 'subagent';

export type TransferActor =
  | 'agent'
  | 'system'
  | 'user';

export type TransferKind =
  | 'fork'
  | 'merge_back'
  | 'provider_handoff'
  | 'subagent_result'
  | 'subagent_spawn';

export type TransferResolution =
  | 'checkpoint_context'
  | 'delta_context'
  /** The provider delivered it itself, in a session recorded by importSubagentThread. */
  | 'imported'
  | 'native_fork'
  | 'portable_context';

/**
 * PENDING: created, waiting for the target's next run. CONSUMED: resolved, natively or by a handoff
 * (resolution says which). SUPERSEDED: will never be resolved (endedBecause says why).
 */
export type TransferStatus =
  | 'consumed'
  | 'pending'
  | 'superseded';



export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;





/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  Analytics: ResolverTypeWrapper<AnalyticsWindowModel>;
  BindNativeThreadPayload: ResolverTypeWrapper<Omit<BindNativeThreadPayload, 'providerThread' | 'replanned'> & { providerThread: ResolversTypes['ProviderThread'], replanned?: Maybe<ResolversTypes['StartRunPayload']> }>;
  BindProviderThreadInput: BindProviderThreadInput;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  Checkpoint: ResolverTypeWrapper<CheckpointRecordModel>;
  CheckpointInput: CheckpointInput;
  CompleteRunInput: CompleteRunInput;
  CompleteSubagentInput: CompleteSubagentInput;
  ContextDelivery: null;
  ContextHandoff: ResolverTypeWrapper<HandoffRecordModel>;
  ContextTransfer: ResolverTypeWrapper<TransferRecordModel>;
  ContinuityReceipt: ResolverTypeWrapper<ContinuityReceipt>;
  CoverageCell: ResolverTypeWrapper<CoverageCell>;
  CoverageKind: null;
  CoverageMatrix: ResolverTypeWrapper<CoverageMatrixRecordModel>;
  CoverageRow: ResolverTypeWrapper<CoverageRowRecordModel>;
  CreateThreadInput: CreateThreadInput;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  DeleteThreadInput: DeleteThreadInput;
  Dispatch: ResolverTypeWrapper<DispatchRecordModel>;
  EndReason: null;
  FailRunInput: FailRunInput;
  FileChange: ResolverTypeWrapper<FileChange>;
  FileChangeInput: FileChangeInput;
  FileChangeKind: null;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  ForkThreadInput: ForkThreadInput;
  HandoffStatus: null;
  HandoffStrategy: null;
  HistoryConnection: ResolverTypeWrapper<Omit<HistoryConnection, 'edges'> & { edges: Array<ResolversTypes['HistoryEdge']> }>;
  HistoryEdge: ResolverTypeWrapper<Omit<HistoryEdge, 'node'> & { node: ResolversTypes['Run'] }>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  IdentityStrength: null;
  ImportRunsInput: ImportRunsInput;
  ImportRunsPayload: ResolverTypeWrapper<Omit<ImportRunsPayload, 'providerThread' | 'runs' | 'thread'> & { providerThread: ResolversTypes['ProviderThread'], runs: Array<ResolversTypes['Run']>, thread: ResolversTypes['Thread'] }>;
  ImportSubagentThreadInput: ImportSubagentThreadInput;
  ImportedProviderThreadInput: ImportedProviderThreadInput;
  ImportedRunInput: ImportedRunInput;
  ImportedRunStatus: null;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  MergeBackInput: MergeBackInput;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  NativeRollback: ResolverTypeWrapper<NativeRollback>;
  OrdinalRange: ResolverTypeWrapper<OrdinalRange>;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  PlanDecision: null;
  PlanRunInput: PlanRunInput;
  ProvenanceStats: ResolverTypeWrapper<ProvenanceStats>;
  Provider: ResolverTypeWrapper<ProviderDefinitionModel>;
  ProviderCapabilities: ResolverTypeWrapper<ProviderCapabilities>;
  ProviderPairStats: ResolverTypeWrapper<ProviderPairStats>;
  ProviderRollbackAction: null;
  ProviderRollbackFailureInput: ProviderRollbackFailureInput;
  ProviderRollbackInput: ProviderRollbackInput;
  ProviderThread: ResolverTypeWrapper<ProviderThreadRecordModel>;
  ProviderThreadAction: null;
  ProviderThreadCoverage: ResolverTypeWrapper<CoverageRecordModel>;
  ProviderThreadRollback: ResolverTypeWrapper<ProviderThreadRollbackRecordModel>;
  ProviderThreadStatus: null;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  RawEventsInput: RawEventsInput;
  ReceiptLine: ResolverTypeWrapper<ReceiptLine>;
  RecordFactInput: RecordFactInput;
  RecordedFact: ResolverTypeWrapper<Omit<RecordedFact, 'run'> & { run: ResolversTypes['Run'] }>;
  RegenerateHandoffInput: RegenerateHandoffInput;
  RenameThreadInput: RenameThreadInput;
  ReportResumeFailureInput: ReportResumeFailureInput;
  RollbackPayload: ResolverTypeWrapper<RollbackResultModel>;
  RollbackThreadInput: RollbackThreadInput;
  Run: ResolverTypeWrapper<RunViewModel>;
  RunConnection: ResolverTypeWrapper<Omit<RunConnection, 'edges'> & { edges: Array<ResolversTypes['RunEdge']> }>;
  RunEdge: ResolverTypeWrapper<Omit<RunEdge, 'node'> & { node: ResolversTypes['Run'] }>;
  RunFact: ResolverTypeWrapper<RunFact>;
  RunFactInput: RunFactInput;
  RunFactKind: null;
  RunPlan: ResolverTypeWrapper<RunPlanRecordModel>;
  RunPreview: ResolverTypeWrapper<RunPreviewRecordModel>;
  RunStatus: null;
  SessionFormat: null;
  SourcePoint: ResolverTypeWrapper<SourcePoint>;
  SpawnSubagentInput: SpawnSubagentInput;
  StalenessSignal: null;
  StalenessStats: ResolverTypeWrapper<StalenessStats>;
  StartRunInput: StartRunInput;
  StartRunPayload: ResolverTypeWrapper<StartRunResultModel>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  SubmitHandoffSummaryInput: SubmitHandoffSummaryInput;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
  SummaryRequest: ResolverTypeWrapper<SummaryRequest>;
  Thread: ResolverTypeWrapper<ThreadRecordModel>;
  ThreadChange: ResolverTypeWrapper<ThreadChangeEventModel>;
  ThreadChangeKind: null;
  ThreadChangeWithheld: null;
  ThreadConnection: ResolverTypeWrapper<Omit<ThreadConnection, 'edges'> & { edges: Array<ResolversTypes['ThreadEdge']> }>;
  ThreadEdge: ResolverTypeWrapper<Omit<ThreadEdge, 'node'> & { node: ResolversTypes['Thread'] }>;
  ThreadFilter: ThreadFilter;
  ThreadLineage: ResolverTypeWrapper<Omit<ThreadLineage, 'parent' | 'root'> & { parent?: Maybe<ResolversTypes['Thread']>, root: ResolversTypes['Thread'] }>;
  ThreadRelationship: null;
  TransferActor: null;
  TransferKind: null;
  TransferResolution: null;
  TransferStatus: null;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  Analytics: AnalyticsWindowModel;
  BindNativeThreadPayload: Omit<BindNativeThreadPayload, 'providerThread' | 'replanned'> & { providerThread: ResolversParentTypes['ProviderThread'], replanned?: Maybe<ResolversParentTypes['StartRunPayload']> };
  BindProviderThreadInput: BindProviderThreadInput;
  Boolean: Scalars['Boolean']['output'];
  Checkpoint: CheckpointRecordModel;
  CheckpointInput: CheckpointInput;
  CompleteRunInput: CompleteRunInput;
  CompleteSubagentInput: CompleteSubagentInput;
  ContextHandoff: HandoffRecordModel;
  ContextTransfer: TransferRecordModel;
  ContinuityReceipt: ContinuityReceipt;
  CoverageCell: CoverageCell;
  CoverageMatrix: CoverageMatrixRecordModel;
  CoverageRow: CoverageRowRecordModel;
  CreateThreadInput: CreateThreadInput;
  DateTime: Scalars['DateTime']['output'];
  DeleteThreadInput: DeleteThreadInput;
  Dispatch: DispatchRecordModel;
  FailRunInput: FailRunInput;
  FileChange: FileChange;
  FileChangeInput: FileChangeInput;
  Float: Scalars['Float']['output'];
  ForkThreadInput: ForkThreadInput;
  HistoryConnection: Omit<HistoryConnection, 'edges'> & { edges: Array<ResolversParentTypes['HistoryEdge']> };
  HistoryEdge: Omit<HistoryEdge, 'node'> & { node: ResolversParentTypes['Run'] };
  ID: Scalars['ID']['output'];
  ImportRunsInput: ImportRunsInput;
  ImportRunsPayload: Omit<ImportRunsPayload, 'providerThread' | 'runs' | 'thread'> & { providerThread: ResolversParentTypes['ProviderThread'], runs: Array<ResolversParentTypes['Run']>, thread: ResolversParentTypes['Thread'] };
  ImportSubagentThreadInput: ImportSubagentThreadInput;
  ImportedProviderThreadInput: ImportedProviderThreadInput;
  ImportedRunInput: ImportedRunInput;
  Int: Scalars['Int']['output'];
  MergeBackInput: MergeBackInput;
  Mutation: Record<PropertyKey, never>;
  NativeRollback: NativeRollback;
  OrdinalRange: OrdinalRange;
  PageInfo: PageInfo;
  PlanRunInput: PlanRunInput;
  ProvenanceStats: ProvenanceStats;
  Provider: ProviderDefinitionModel;
  ProviderCapabilities: ProviderCapabilities;
  ProviderPairStats: ProviderPairStats;
  ProviderRollbackFailureInput: ProviderRollbackFailureInput;
  ProviderRollbackInput: ProviderRollbackInput;
  ProviderThread: ProviderThreadRecordModel;
  ProviderThreadCoverage: CoverageRecordModel;
  ProviderThreadRollback: ProviderThreadRollbackRecordModel;
  Query: Record<PropertyKey, never>;
  RawEventsInput: RawEventsInput;
  ReceiptLine: ReceiptLine;
  RecordFactInput: RecordFactInput;
  RecordedFact: Omit<RecordedFact, 'run'> & { run: ResolversParentTypes['Run'] };
  RegenerateHandoffInput: RegenerateHandoffInput;
  RenameThreadInput: RenameThreadInput;
  ReportResumeFailureInput: ReportResumeFailureInput;
  RollbackPayload: RollbackResultModel;
  RollbackThreadInput: RollbackThreadInput;
  Run: RunViewModel;
  RunConnection: Omit<RunConnection, 'edges'> & { edges: Array<ResolversParentTypes['RunEdge']> };
  RunEdge: Omit<RunEdge, 'node'> & { node: ResolversParentTypes['Run'] };
  RunFact: RunFact;
  RunFactInput: RunFactInput;
  RunPlan: RunPlanRecordModel;
  RunPreview: RunPreviewRecordModel;
  SourcePoint: SourcePoint;
  SpawnSubagentInput: SpawnSubagentInput;
  StalenessStats: StalenessStats;
  StartRunInput: StartRunInput;
  StartRunPayload: StartRunResultModel;
  String: Scalars['String']['output'];
  SubmitHandoffSummaryInput: SubmitHandoffSummaryInput;
  Subscription: Record<PropertyKey, never>;
  SummaryRequest: SummaryRequest;
  Thread: ThreadRecordModel;
  ThreadChange: ThreadChangeEventModel;
  ThreadConnection: Omit<ThreadConnection, 'edges'> & { edges: Array<ResolversParentTypes['ThreadEdge']> };
  ThreadEdge: Omit<ThreadEdge, 'node'> & { node: ResolversParentTypes['Thread'] };
  ThreadFilter: ThreadFilter;
  ThreadLineage: Omit<ThreadLineage, 'parent' | 'root'> & { parent?: Maybe<ResolversParentTypes['Thread']>, root: ResolversParentTypes['Thread'] };
};

export type AnalyticsResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Analytics'] = ResolversParentTypes['Analytics']> = {
  crossProvider?: Resolver<Array<ResolversTypes['ProviderPairStats']>, ParentType, ContextType, RequireFields<AnalyticsCrossProviderArgs, 'first'>>;
  from?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  staleness?: Resolver<Array<ResolversTypes['StalenessStats']>, ParentType, ContextType, RequireFields<AnalyticsStalenessArgs, 'first'>>;
  summaryProvenance?: Resolver<Array<ResolversTypes['ProvenanceStats']>, ParentType, ContextType, RequireFields<AnalyticsSummaryProvenanceArgs, 'first'>>;
  to?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
};

export type BindNativeThreadPayloadResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['BindNativeThreadPayload'] = ResolversParentTypes['BindNativeThreadPayload']> = {
  providerThread?: Resolver<ResolversTypes['ProviderThread'], ParentType, ContextType>;
  replanned?: Resolver<Maybe<ResolversTypes['StartRunPayload']>, ParentType, ContextType>;
  resumedBlank?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type CheckpointResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Checkpoint'] = ResolversParentTypes['Checkpoint']> = {
  diffSummary?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  files?: Resolver<Array<ResolversTypes['FileChange']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  ref?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  runOrdinal?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ContextDeliveryResolvers = { DEVELOPER: 'developer', PREAMBLE: 'preamble', SYNTHETIC_USER: 'synthetic_user', SYSTEM: 'system' };

export type ContextHandoffResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ContextHandoff'] = ResolversParentTypes['ContextHandoff']> = {
  budgetChars?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  coveredRunOrdinals?: Resolver<ResolversTypes['OrdinalRange'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  createdByProvider?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  delivery?: Resolver<ResolversTypes['ContextDelivery'], ParentType, ContextType>;
  endedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  endedBecause?: Resolver<Maybe<ResolversTypes['EndReason']>, ParentType, ContextType>;
  failureReason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  fromProviderThreadIds?: Resolver<Array<ResolversTypes['ID']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  inputDigest?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  length?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  omissions?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  receipt?: Resolver<Maybe<ResolversTypes['ContinuityReceipt']>, ParentType, ContextType>;
  requestedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  source?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['HandoffStatus'], ParentType, ContextType>;
  strategy?: Resolver<ResolversTypes['HandoffStrategy'], ParentType, ContextType>;
  summaryRequest?: Resolver<Maybe<ResolversTypes['SummaryRequest']>, ParentType, ContextType>;
  summaryText?: Resolver<ResolversTypes['String'], ParentType, ContextType, Partial<ContextHandoffSummaryTextArgs>>;
  supersededBy?: Resolver<Maybe<ResolversTypes['ContextHandoff']>, ParentType, ContextType>;
  supersedes?: Resolver<Maybe<ResolversTypes['ContextHandoff']>, ParentType, ContextType>;
  targetRunId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  threadId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  toProviderThreadId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  transferId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  usedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  writtenAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
};

export type ContextTransferResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ContextTransfer'] = ResolversParentTypes['ContextTransfer']> = {
  basePoint?: Resolver<Maybe<ResolversTypes['SourcePoint']>, ParentType, ContextType>;
  consumedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  createdBy?: Resolver<ResolversTypes['TransferActor'], ParentType, ContextType>;
  endedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  endedBecause?: Resolver<Maybe<ResolversTypes['EndReason']>, ParentType, ContextType>;
  handoff?: Resolver<Maybe<ResolversTypes['ContextHandoff']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['TransferKind'], ParentType, ContextType>;
  resolution?: Resolver<Maybe<ResolversTypes['TransferResolution']>, ParentType, ContextType>;
  sourcePoint?: Resolver<ResolversTypes['SourcePoint'], ParentType, ContextType>;
  sourceProvider?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  sourceThreadId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['TransferStatus'], ParentType, ContextType>;
  targetProvider?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  targetThreadId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type ContinuityReceiptResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ContinuityReceipt'] = ResolversParentTypes['ContinuityReceipt']> = {
  commands?: Resolver<ResolversTypes['ReceiptLine'], ParentType, ContextType>;
  failures?: Resolver<ResolversTypes['ReceiptLine'], ParentType, ContextType>;
  files?: Resolver<ResolversTypes['ReceiptLine'], ParentType, ContextType>;
  questions?: Resolver<ResolversTypes['ReceiptLine'], ParentType, ContextType>;
  todos?: Resolver<ResolversTypes['ReceiptLine'], ParentType, ContextType>;
};

export type CoverageCellResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['CoverageCell'] = ResolversParentTypes['CoverageCell']> = {
  kind?: Resolver<ResolversTypes['CoverageKind'], ParentType, ContextType>;
  providerThreadId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type CoverageKindResolvers = { HANDOFF: 'handoff', MISSING: 'missing', NATIVE: 'native' };

export type CoverageMatrixResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['CoverageMatrix'] = ResolversParentTypes['CoverageMatrix']> = {
  hasMoreColumns?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  nextColumnsFrom?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  nextFromOrdinal?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  providerThreads?: Resolver<Array<ResolversTypes['ProviderThread']>, ParentType, ContextType>;
  rows?: Resolver<Array<ResolversTypes['CoverageRow']>, ParentType, ContextType>;
};

export type CoverageRowResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['CoverageRow'] = ResolversParentTypes['CoverageRow']> = {
  cells?: Resolver<Array<ResolversTypes['CoverageCell']>, ParentType, ContextType>;
  ordinal?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  run?: Resolver<ResolversTypes['Run'], ParentType, ContextType>;
};

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type DispatchResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Dispatch'] = ResolversParentTypes['Dispatch']> = {
  context?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  delivery?: Resolver<Maybe<ResolversTypes['ContextDelivery']>, ParentType, ContextType>;
  fencingToken?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  forkFromTurn?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  nativeThreadRef?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  providerThreadAction?: Resolver<ResolversTypes['ProviderThreadAction'], ParentType, ContextType>;
  userMessage?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type EndReasonResolvers = { EXPIRED: 'expired', REGENERATED: 'regenerated', REPLACED_BY_NEWER_MERGE_BACK: 'replaced_by_newer_merge_back', RESUME_FAILED: 'resume_failed', ROLLED_BACK: 'rolled_back', SUMMARIZER_FAILED: 'summarizer_failed' };

export type FileChangeResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['FileChange'] = ResolversParentTypes['FileChange']> = {
  additions?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  change?: Resolver<ResolversTypes['FileChangeKind'], ParentType, ContextType>;
  deletions?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  path?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  previousPath?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type FileChangeKindResolvers = { ADDED: 'added', DELETED: 'deleted', MODIFIED: 'modified', RENAMED: 'renamed' };

export type HandoffStatusResolvers = { FAILED: 'failed', PENDING: 'pending', READY: 'ready', SUPERSEDED: 'superseded' };

export type HandoffStrategyResolvers = { CHECKPOINT_SUMMARY: 'checkpoint_summary', DELTA_SINCE_TARGET_LAST_SEEN: 'delta_since_target_last_seen', FORK_DELTA_SUMMARY: 'fork_delta_summary', FULL_THREAD_SUMMARY: 'full_thread_summary', MANUAL_CONTEXT: 'manual_context' };

export type HistoryConnectionResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['HistoryConnection'] = ResolversParentTypes['HistoryConnection']> = {
  edges?: Resolver<Array<ResolversTypes['HistoryEdge']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type HistoryEdgeResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['HistoryEdge'] = ResolversParentTypes['HistoryEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  inherited?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  live?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Run'], ParentType, ContextType>;
};

export type IdentityStrengthResolvers = { NONE: 'none', STRONG: 'strong', WEAK: 'weak' };

export type ImportRunsPayloadResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ImportRunsPayload'] = ResolversParentTypes['ImportRunsPayload']> = {
  alreadyPresent?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  duplicateTurns?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  providerThread?: Resolver<ResolversTypes['ProviderThread'], ParentType, ContextType>;
  runs?: Resolver<Array<ResolversTypes['Run']>, ParentType, ContextType>;
  thread?: Resolver<ResolversTypes['Thread'], ParentType, ContextType>;
};

export type ImportedRunStatusResolvers = { COMPLETED: 'completed', FAILED: 'failed', INTERRUPTED: 'interrupted' };

export type MutationResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  bindNativeThread?: Resolver<ResolversTypes['BindNativeThreadPayload'], ParentType, ContextType, RequireFields<MutationBindNativeThreadArgs, 'input'>>;
  bindProviderThread?: Resolver<ResolversTypes['ProviderThread'], ParentType, ContextType, RequireFields<MutationBindProviderThreadArgs, 'input'>>;
  completeRun?: Resolver<ResolversTypes['Run'], ParentType, ContextType, RequireFields<MutationCompleteRunArgs, 'input'>>;
  completeSubagent?: Resolver<ResolversTypes['ContextTransfer'], ParentType, ContextType, RequireFields<MutationCompleteSubagentArgs, 'input'>>;
  confirmProviderRollback?: Resolver<ResolversTypes['ProviderThread'], ParentType, ContextType, RequireFields<MutationConfirmProviderRollbackArgs, 'input'>>;
  createThread?: Resolver<ResolversTypes['Thread'], ParentType, ContextType, RequireFields<MutationCreateThreadArgs, 'input'>>;
  deleteThread?: Resolver<ResolversTypes['Thread'], ParentType, ContextType, RequireFields<MutationDeleteThreadArgs, 'input'>>;
  failRun?: Resolver<ResolversTypes['Run'], ParentType, ContextType, RequireFields<MutationFailRunArgs, 'input'>>;
  forkThread?: Resolver<ResolversTypes['Thread'], ParentType, ContextType, RequireFields<MutationForkThreadArgs, 'input'>>;
  importRuns?: Resolver<ResolversTypes['ImportRunsPayload'], ParentType, ContextType, RequireFields<MutationImportRunsArgs, 'input'>>;
  importSubagentThread?: Resolver<ResolversTypes['Thread'], ParentType, ContextType, RequireFields<MutationImportSubagentThreadArgs, 'input'>>;
  mergeBack?: Resolver<ResolversTypes['ContextTransfer'], ParentType, ContextType, RequireFields<MutationMergeBackArgs, 'input'>>;
  recordFact?: Resolver<ResolversTypes['RecordedFact'], ParentType, ContextType, RequireFields<MutationRecordFactArgs, 'input'>>;
  regenerateHandoff?: Resolver<ResolversTypes['ContextHandoff'], ParentType, ContextType, RequireFields<MutationRegenerateHandoffArgs, 'input'>>;
  renameThread?: Resolver<ResolversTypes['Thread'], ParentType, ContextType, RequireFields<MutationRenameThreadArgs, 'input'>>;
  reportProviderRollbackFailure?: Resolver<ResolversTypes['ProviderThread'], ParentType, ContextType, RequireFields<MutationReportProviderRollbackFailureArgs, 'input'>>;
  reportResumeFailure?: Resolver<ResolversTypes['StartRunPayload'], ParentType, ContextType, RequireFields<MutationReportResumeFailureArgs, 'input'>>;
  rollbackThread?: Resolver<ResolversTypes['RollbackPayload'], ParentType, ContextType, RequireFields<MutationRollbackThreadArgs, 'input'>>;
  spawnSubagent?: Resolver<ResolversTypes['Thread'], ParentType, ContextType, RequireFields<MutationSpawnSubagentArgs, 'input'>>;
  startRun?: Resolver<ResolversTypes['StartRunPayload'], ParentType, ContextType, RequireFields<MutationStartRunArgs, 'input'>>;
  submitHandoffSummary?: Resolver<ResolversTypes['ContextHandoff'], ParentType, ContextType, RequireFields<MutationSubmitHandoffSummaryArgs, 'input'>>;
};

export type NativeRollbackResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['NativeRollback'] = ResolversParentTypes['NativeRollback']> = {
  nativeThreadRef?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  providerThreadId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  toOrdinal?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  turnsToDrop?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type OrdinalRangeResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['OrdinalRange'] = ResolversParentTypes['OrdinalRange']> = {
  from?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  to?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type PageInfoResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasPreviousPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  startCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PlanDecisionResolvers = { DELTA_HANDOFF: 'delta_handoff', FULL_HANDOFF_EXISTING: 'full_handoff_existing', FULL_HANDOFF_NEW: 'full_handoff_new', NO_HANDOFF: 'no_handoff', UNSUPPORTED: 'unsupported' };

export type ProvenanceStatsResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ProvenanceStats'] = ResolversParentTypes['ProvenanceStats']> = {
  createdByProvider?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  failed?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  failedRate?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  handoffs?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  meanOmissions?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  pending?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  source?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  superseded?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  supersededRate?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  totalOmissions?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  withdrawnByRollback?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type ProviderResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Provider'] = ResolversParentTypes['Provider']> = {
  capabilities?: Resolver<ResolversTypes['ProviderCapabilities'], ParentType, ContextType>;
  displayName?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ProviderCapabilitiesResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ProviderCapabilities'] = ResolversParentTypes['ProviderCapabilities']> = {
  acceptsDeveloperContext?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  acceptsSyntheticUserContext?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  acceptsSystemContext?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  canConsumeHandoffSummaries?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  canForkFromTurn?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  canForkThread?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  canGenerateSummaries?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  canRollbackThread?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  maxRecommendedHandoffChars?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  nativeThreadIds?: Resolver<ResolversTypes['IdentityStrength'], ParentType, ContextType>;
  supportsDeltaHandoff?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  supportsFullThreadHandoff?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  supportsModelSwitchInThread?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type ProviderPairStatsResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ProviderPairStats'] = ResolversParentTypes['ProviderPairStats']> = {
  checkpointShare?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  deltaShare?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  fromProvider?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  fullShare?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  handoffs?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  manualShare?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  meanRunsCovered?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  medianBudgetChars?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  medianBudgetUse?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  medianLength?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  recreated?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  resumed?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  returns?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  switches?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  toProvider?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ProviderRollbackActionResolvers = { DIVERGENT: 'divergent', ROLLED_BACK: 'rolled_back' };

export type ProviderThreadResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ProviderThread'] = ResolversParentTypes['ProviderThread']> = {
  coverage?: Resolver<ResolversTypes['ProviderThreadCoverage'], ParentType, ContextType, Partial<ProviderThreadCoverageArgs>>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  firstRunOrdinal?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  forkedFrom?: Resolver<Maybe<ResolversTypes['ProviderThread']>, ParentType, ContextType>;
  handoffIds?: Resolver<Array<ResolversTypes['ID']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lastRunOrdinal?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  model?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  nativeThreadRef?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  provider?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  resumeError?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  rollbackError?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  runtimeMode?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  seq?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['ProviderThreadStatus'], ParentType, ContextType>;
  statusReason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  threadId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type ProviderThreadActionResolvers = { CREATE: 'create', NATIVE_FORK: 'native_fork', NONE: 'none', RESUME: 'resume', REUSE: 'reuse' };

export type ProviderThreadCoverageResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ProviderThreadCoverage'] = ResolversParentTypes['ProviderThreadCoverage']> = {
  coveredThroughOrdinal?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  handoffIds?: Resolver<Array<ResolversTypes['ID']>, ParentType, ContextType>;
  handoffRanges?: Resolver<Array<ResolversTypes['OrdinalRange']>, ParentType, ContextType>;
  handoffs?: Resolver<Array<ResolversTypes['ContextHandoff']>, ParentType, ContextType>;
  missingRanges?: Resolver<Array<ResolversTypes['OrdinalRange']>, ParentType, ContextType>;
  missingRunCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  missingRunOrdinals?: Resolver<Array<ResolversTypes['Int']>, ParentType, ContextType, RequireFields<ProviderThreadCoverageMissingRunOrdinalsArgs, 'first'>>;
  nativeRanges?: Resolver<Array<ResolversTypes['OrdinalRange']>, ParentType, ContextType>;
  nativeRunCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  nativeRunOrdinals?: Resolver<Array<ResolversTypes['Int']>, ParentType, ContextType, RequireFields<ProviderThreadCoverageNativeRunOrdinalsArgs, 'first'>>;
  providerThreadId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type ProviderThreadRollbackResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ProviderThreadRollback'] = ResolversParentTypes['ProviderThreadRollback']> = {
  action?: Resolver<ResolversTypes['ProviderRollbackAction'], ParentType, ContextType>;
  nativeRollback?: Resolver<Maybe<ResolversTypes['NativeRollback']>, ParentType, ContextType>;
  providerThread?: Resolver<ResolversTypes['ProviderThread'], ParentType, ContextType>;
};

export type ProviderThreadStatusResolvers = { ACTIVE: 'active', CLOSED: 'closed', DIVERGENT: 'divergent', IDLE: 'idle', RESUME_FAILED: 'resume_failed', ROLLED_BACK: 'rolled_back', STALE: 'stale' };

export type QueryResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  analytics?: Resolver<ResolversTypes['Analytics'], ParentType, ContextType, RequireFields<QueryAnalyticsArgs, 'from' | 'to'>>;
  contextHandoff?: Resolver<Maybe<ResolversTypes['ContextHandoff']>, ParentType, ContextType, RequireFields<QueryContextHandoffArgs, 'id'>>;
  planRun?: Resolver<ResolversTypes['RunPlan'], ParentType, ContextType, RequireFields<QueryPlanRunArgs, 'input'>>;
  previewRun?: Resolver<ResolversTypes['RunPreview'], ParentType, ContextType, RequireFields<QueryPreviewRunArgs, 'input'>>;
  providerThread?: Resolver<Maybe<ResolversTypes['ProviderThread']>, ParentType, ContextType, RequireFields<QueryProviderThreadArgs, 'id'>>;
  providerThreadsByNativeRef?: Resolver<Array<ResolversTypes['ProviderThread']>, ParentType, ContextType, RequireFields<QueryProviderThreadsByNativeRefArgs, 'nativeThreadRef' | 'provider'>>;
  providers?: Resolver<Array<ResolversTypes['Provider']>, ParentType, ContextType>;
  run?: Resolver<Maybe<ResolversTypes['Run']>, ParentType, ContextType, RequireFields<QueryRunArgs, 'id'>>;
  thread?: Resolver<Maybe<ResolversTypes['Thread']>, ParentType, ContextType, RequireFields<QueryThreadArgs, 'id'>>;
  threads?: Resolver<ResolversTypes['ThreadConnection'], ParentType, ContextType, RequireFields<QueryThreadsArgs, 'first'>>;
};

export type ReceiptLineResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ReceiptLine'] = ResolversParentTypes['ReceiptLine']> = {
  held?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  kept?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  omitted?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
};

export type RecordedFactResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['RecordedFact'] = ResolversParentTypes['RecordedFact']> = {
  fact?: Resolver<ResolversTypes['RunFact'], ParentType, ContextType>;
  run?: Resolver<ResolversTypes['Run'], ParentType, ContextType>;
};

export type RollbackPayloadResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['RollbackPayload'] = ResolversParentTypes['RollbackPayload']> = {
  providerThreads?: Resolver<Array<ResolversTypes['ProviderThreadRollback']>, ParentType, ContextType>;
  rolledBackRanges?: Resolver<Array<ResolversTypes['OrdinalRange']>, ParentType, ContextType>;
  rolledBackRunCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  rolledBackRuns?: Resolver<Array<ResolversTypes['Run']>, ParentType, ContextType>;
  supersededHandoffs?: Resolver<Array<ResolversTypes['ContextHandoff']>, ParentType, ContextType>;
  thread?: Resolver<ResolversTypes['Thread'], ParentType, ContextType>;
};

export type RunResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Run'] = ResolversParentTypes['Run']> = {
  assistantMessage?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType, Partial<RunAssistantMessageArgs>>;
  assistantMessageLength?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  checkpoint?: Resolver<Maybe<ResolversTypes['Checkpoint']>, ParentType, ContextType>;
  completedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  contextHandoff?: Resolver<Maybe<ResolversTypes['ContextHandoff']>, ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  dispatch?: Resolver<ResolversTypes['Dispatch'], ParentType, ContextType>;
  error?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  factCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  facts?: Resolver<Array<ResolversTypes['RunFact']>, ParentType, ContextType, RequireFields<RunFactsArgs, 'offset'>>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  model?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  ordinal?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  plan?: Resolver<ResolversTypes['RunPlan'], ParentType, ContextType>;
  provider?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  providerThread?: Resolver<ResolversTypes['ProviderThread'], ParentType, ContextType>;
  runtimeMode?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['RunStatus'], ParentType, ContextType>;
  threadId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  userMessage?: Resolver<ResolversTypes['String'], ParentType, ContextType, Partial<RunUserMessageArgs>>;
  userMessageLength?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type RunConnectionResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['RunConnection'] = ResolversParentTypes['RunConnection']> = {
  edges?: Resolver<Array<ResolversTypes['RunEdge']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type RunEdgeResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['RunEdge'] = ResolversParentTypes['RunEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Run'], ParentType, ContextType>;
};

export type RunFactResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['RunFact'] = ResolversParentTypes['RunFact']> = {
  file?: Resolver<Maybe<ResolversTypes['FileChange']>, ParentType, ContextType>;
  key?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['RunFactKind'], ParentType, ContextType>;
  runOrdinal?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  status?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  text?: Resolver<ResolversTypes['String'], ParentType, ContextType, Partial<RunFactTextArgs>>;
  textLength?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type RunFactKindResolvers = { APPROVAL_REQUEST: 'approval_request', COMMAND: 'command', CONSTRAINT: 'constraint', DECISION: 'decision', FAILURE: 'failure', FILE_CHANGE: 'file_change', GOAL: 'goal', NOTE: 'note', PLAN_ITEM: 'plan_item', PROTOCOL: 'protocol', QUESTION: 'question', REASONING: 'reasoning', SUBAGENT_RESULT: 'subagent_result', TEST: 'test', TOOL_OUTPUT: 'tool_output' };

export type RunPlanResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['RunPlan'] = ResolversParentTypes['RunPlan']> = {
  coveredRunOrdinals?: Resolver<Maybe<ResolversTypes['OrdinalRange']>, ParentType, ContextType>;
  decision?: Resolver<ResolversTypes['PlanDecision'], ParentType, ContextType>;
  handoffStrategy?: Resolver<Maybe<ResolversTypes['HandoffStrategy']>, ParentType, ContextType>;
  providerThread?: Resolver<Maybe<ResolversTypes['ProviderThread']>, ParentType, ContextType>;
  providerThreadAction?: Resolver<ResolversTypes['ProviderThreadAction'], ParentType, ContextType>;
  reasons?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  stalenessSignals?: Resolver<Array<ResolversTypes['StalenessSignal']>, ParentType, ContextType>;
};

export type RunPreviewResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['RunPreview'] = ResolversParentTypes['RunPreview']> = {
  context?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  delivery?: Resolver<Maybe<ResolversTypes['ContextDelivery']>, ParentType, ContextType>;
  nativeThreadRef?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  pendingWriter?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  plan?: Resolver<ResolversTypes['RunPlan'], ParentType, ContextType>;
  providerThreadAction?: Resolver<ResolversTypes['ProviderThreadAction'], ParentType, ContextType>;
};

export type RunStatusResolvers = { COMPLETED: 'completed', FAILED: 'failed', INTERRUPTED: 'interrupted', ROLLED_BACK: 'rolled_back', RUNNING: 'running' };

export type SessionFormatResolvers = { CLAUDE: 'claude', CODEX: 'codex' };

export type SourcePointResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['SourcePoint'] = ResolversParentTypes['SourcePoint']> = {
  checkpointId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  providerThreadId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  runId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  runOrdinal?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  threadId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
};

export type StalenessSignalResolvers = { CLEAN_CONTEXT_REQUESTED: 'clean_context_requested', INCOMPATIBLE_CONFIG: 'incompatible_config', RESUME_FAILED: 'resume_failed', ROLLED_BACK_OR_DIVERGENT: 'rolled_back_or_divergent', SUMMARY_EXCEEDS_POLICY: 'summary_exceeds_policy', TOO_MANY_CHAINED_HANDOFFS: 'too_many_chained_handoffs', TOO_MANY_RUNS_ELSEWHERE: 'too_many_runs_elsewhere' };

export type StalenessStatsResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['StalenessStats'] = ResolversParentTypes['StalenessStats']> = {
  provider?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  providerRuns?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  rate?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  runs?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  signal?: Resolver<ResolversTypes['StalenessSignal'], ParentType, ContextType>;
  threads?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type StartRunPayloadResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['StartRunPayload'] = ResolversParentTypes['StartRunPayload']> = {
  dispatch?: Resolver<ResolversTypes['Dispatch'], ParentType, ContextType>;
  handoff?: Resolver<Maybe<ResolversTypes['ContextHandoff']>, ParentType, ContextType>;
  plan?: Resolver<ResolversTypes['RunPlan'], ParentType, ContextType>;
  providerThread?: Resolver<ResolversTypes['ProviderThread'], ParentType, ContextType>;
  run?: Resolver<ResolversTypes['Run'], ParentType, ContextType>;
};

export type SubscriptionResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = {
  threadChanged?: SubscriptionResolver<ResolversTypes['ThreadChange'], "threadChanged", ParentType, ContextType, RequireFields<SubscriptionThreadChangedArgs, 'threadId'>>;
};

export type SummaryRequestResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['SummaryRequest'] = ResolversParentTypes['SummaryRequest']> = {
  budgetChars?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  document?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  handoffId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  strategy?: Resolver<ResolversTypes['HandoffStrategy'], ParentType, ContextType>;
  targetProvider?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  writer?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type ThreadResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['Thread'] = ResolversParentTypes['Thread']> = {
  ancestors?: Resolver<Array<ResolversTypes['Thread']>, ParentType, ContextType, RequireFields<ThreadAncestorsArgs, 'depth'>>;
  changeSequence?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  coverageMatrix?: Resolver<ResolversTypes['CoverageMatrix'], ParentType, ContextType, RequireFields<ThreadCoverageMatrixArgs, 'columns' | 'columnsFrom' | 'first' | 'fromOrdinal'>>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  deletedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  forks?: Resolver<Array<ResolversTypes['Thread']>, ParentType, ContextType, RequireFields<ThreadForksArgs, 'first'>>;
  handoffs?: Resolver<Array<ResolversTypes['ContextHandoff']>, ParentType, ContextType, Partial<ThreadHandoffsArgs>>;
  headOrdinal?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  history?: Resolver<ResolversTypes['HistoryConnection'], ParentType, ContextType, RequireFields<ThreadHistoryArgs, 'first' | 'liveOnly'>>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lastActivityAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  latestCheckpoint?: Resolver<Maybe<ResolversTypes['Checkpoint']>, ParentType, ContextType>;
  lineage?: Resolver<ResolversTypes['ThreadLineage'], ParentType, ContextType>;
  project?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  providerThreadCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  providerThreads?: Resolver<Array<ResolversTypes['ProviderThread']>, ParentType, ContextType, RequireFields<ThreadProviderThreadsArgs, 'first'>>;
  providers?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  runCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  runs?: Resolver<ResolversTypes['RunConnection'], ParentType, ContextType, RequireFields<ThreadRunsArgs, 'first'>>;
  subagents?: Resolver<Array<ResolversTypes['Thread']>, ParentType, ContextType, RequireFields<ThreadSubagentsArgs, 'first'>>;
  title?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  transfers?: Resolver<Array<ResolversTypes['ContextTransfer']>, ParentType, ContextType, Partial<ThreadTransfersArgs>>;
};

export type ThreadChangeResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ThreadChange'] = ResolversParentTypes['ThreadChange']> = {
  at?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['ThreadChangeKind'], ParentType, ContextType>;
  resync?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  sequence?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  thread?: Resolver<Maybe<ResolversTypes['Thread']>, ParentType, ContextType>;
  threadId?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  withheld?: Resolver<Maybe<ResolversTypes['ThreadChangeWithheld']>, ParentType, ContextType>;
};

export type ThreadChangeKindResolvers = { DELETED: 'deleted', FACT_RECORDED: 'fact_recorded', FORKED: 'forked', HANDOFF_READY: 'handoff_ready', HANDOFF_REPLACED: 'handoff_replaced', MERGED_BACK: 'merged_back', PROVIDER_ROLLBACK_SETTLED: 'provider_rollback_settled', PROVIDER_THREAD_BOUND: 'provider_thread_bound', RENAMED: 'renamed', ROLLED_BACK: 'rolled_back', RUNS_IMPORTED: 'runs_imported', RUN_COMPLETED: 'run_completed', RUN_FAILED: 'run_failed', RUN_REPLANNED: 'run_replanned', RUN_STARTED: 'run_started', SUBAGENT_COMPLETED: 'subagent_completed', SUBAGENT_SPAWNED: 'subagent_spawned' };

export type ThreadChangeWithheldResolvers = { EVENT_TOO_LARGE: 'event_too_large', FAN_OUT_BUDGET: 'fan_out_budget' };

export type ThreadConnectionResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ThreadConnection'] = ResolversParentTypes['ThreadConnection']> = {
  edges?: Resolver<Array<ResolversTypes['ThreadEdge']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
};

export type ThreadEdgeResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ThreadEdge'] = ResolversParentTypes['ThreadEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Thread'], ParentType, ContextType>;
};

export type ThreadLineageResolvers<ContextType = RequestContext, ParentType extends ResolversParentTypes['ThreadLineage'] = ResolversParentTypes['ThreadLineage']> = {
  parent?: Resolver<Maybe<ResolversTypes['Thread']>, ParentType, ContextType>;
  relationshipToParent?: Resolver<Maybe<ResolversTypes['ThreadRelationship']>, ParentType, ContextType>;
  root?: Resolver<ResolversTypes['Thread'], ParentType, ContextType>;
  sourcePoint?: Resolver<Maybe<ResolversTypes['SourcePoint']>, ParentType, ContextType>;
};

export type ThreadRelationshipResolvers = { FORK: 'fork', SUBAGENT: 'subagent' };

export type TransferActorResolvers = { AGENT: 'agent', SYSTEM: 'system', USER: 'user' };

export type TransferKindResolvers = { FORK: 'fork', MERGE_BACK: 'merge_back', PROVIDER_HANDOFF: 'provider_handoff', SUBAGENT_RESULT: 'subagent_result', SUBAGENT_SPAWN: 'subagent_spawn' };

export type TransferResolutionResolvers = { CHECKPOINT_CONTEXT: 'checkpoint_context', DELTA_CONTEXT: 'delta_context', IMPORTED: 'imported', NATIVE_FORK: 'native_fork', PORTABLE_CONTEXT: 'portable_context' };

export type TransferStatusResolvers = { CONSUMED: 'consumed', PENDING: 'pending', SUPERSEDED: 'superseded' };

export type Resolvers<ContextType = RequestContext> = {
  Analytics?: AnalyticsResolvers<ContextType>;
  BindNativeThreadPayload?: BindNativeThreadPayloadResolvers<ContextType>;
  Checkpoint?: CheckpointResolvers<ContextType>;
  ContextDelivery?: ContextDeliveryResolvers;
  ContextHandoff?: ContextHandoffResolvers<ContextType>;
  ContextTransfer?: ContextTransferResolvers<ContextType>;
  ContinuityReceipt?: ContinuityReceiptResolvers<ContextType>;
  CoverageCell?: CoverageCellResolvers<ContextType>;
  CoverageKind?: CoverageKindResolvers;
  CoverageMatrix?: CoverageMatrixResolvers<ContextType>;
  CoverageRow?: CoverageRowResolvers<ContextType>;
  DateTime?: GraphQLScalarType;
  Dispatch?: DispatchResolvers<ContextType>;
  EndReason?: EndReasonResolvers;
  FileChange?: FileChangeResolvers<ContextType>;
  FileChangeKind?: FileChangeKindResolvers;
  HandoffStatus?: HandoffStatusResolvers;
  HandoffStrategy?: HandoffStrategyResolvers;
  HistoryConnection?: HistoryConnectionResolvers<ContextType>;
  HistoryEdge?: HistoryEdgeResolvers<ContextType>;
  IdentityStrength?: IdentityStrengthResolvers;
  ImportRunsPayload?: ImportRunsPayloadResolvers<ContextType>;
  ImportedRunStatus?: ImportedRunStatusResolvers;
  Mutation?: MutationResolvers<ContextType>;
  NativeRollback?: NativeRollbackResolvers<ContextType>;
  OrdinalRange?: OrdinalRangeResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  PlanDecision?: PlanDecisionResolvers;
  ProvenanceStats?: ProvenanceStatsResolvers<ContextType>;
  Provider?: ProviderResolvers<ContextType>;
  ProviderCapabilities?: ProviderCapabilitiesResolvers<ContextType>;
  ProviderPairStats?: ProviderPairStatsResolvers<ContextType>;
  ProviderRollbackAction?: ProviderRollbackActionResolvers;
  ProviderThread?: ProviderThreadResolvers<ContextType>;
  ProviderThreadAction?: ProviderThreadActionResolvers;
  ProviderThreadCoverage?: ProviderThreadCoverageResolvers<ContextType>;
  ProviderThreadRollback?: ProviderThreadRollbackResolvers<ContextType>;
  ProviderThreadStatus?: ProviderThreadStatusResolvers;
  Query?: QueryResolvers<ContextType>;
  ReceiptLine?: ReceiptLineResolvers<ContextType>;
  RecordedFact?: RecordedFactResolvers<ContextType>;
  RollbackPayload?: RollbackPayloadResolvers<ContextType>;
  Run?: RunResolvers<ContextType>;
  RunConnection?: RunConnectionResolvers<ContextType>;
  RunEdge?: RunEdgeResolvers<ContextType>;
  RunFact?: RunFactResolvers<ContextType>;
  RunFactKind?: RunFactKindResolvers;
  RunPlan?: RunPlanResolvers<ContextType>;
  RunPreview?: RunPreviewResolvers<ContextType>;
  RunStatus?: RunStatusResolvers;
  SessionFormat?: SessionFormatResolvers;
  SourcePoint?: SourcePointResolvers<ContextType>;
  StalenessSignal?: StalenessSignalResolvers;
  StalenessStats?: StalenessStatsResolvers<ContextType>;
  StartRunPayload?: StartRunPayloadResolvers<ContextType>;
  Subscription?: SubscriptionResolvers<ContextType>;
  SummaryRequest?: SummaryRequestResolvers<ContextType>;
  Thread?: ThreadResolvers<ContextType>;
  ThreadChange?: ThreadChangeResolvers<ContextType>;
  ThreadChangeKind?: ThreadChangeKindResolvers;
  ThreadChangeWithheld?: ThreadChangeWithheldResolvers;
  ThreadConnection?: ThreadConnectionResolvers<ContextType>;
  ThreadEdge?: ThreadEdgeResolvers<ContextType>;
  ThreadLineage?: ThreadLineageResolvers<ContextType>;
  ThreadRelationship?: ThreadRelationshipResolvers;
  TransferActor?: TransferActorResolvers;
  TransferKind?: TransferKindResolvers;
  TransferResolution?: TransferResolutionResolvers;
  TransferStatus?: TransferStatusResolvers;
};

