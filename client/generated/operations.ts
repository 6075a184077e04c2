import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = T | null | undefined;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
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

export type BindProviderThreadInput = {
  /** The Dispatch.fencingToken of the dispatch this session answers; without it the call is not fenced. */
  fencingToken?: InputMaybe<Scalars['String']['input']>;
  /** 1..500 characters. */
  nativeThreadRef: Scalars['String']['input'];
  providerThreadId: Scalars['ID']['input'];
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
  | 'DEVELOPER'
  | 'PREAMBLE'
  | 'SYNTHETIC_USER'
  | 'SYSTEM';

/** NATIVE: the provider thread served the run (or inherited it through a native fork). HANDOFF: a standing handoff delivered to it covers the run. MISSING: neither. */
export type CoverageKind =
  | 'HANDOFF'
  | 'MISSING'
  | 'NATIVE';

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

/**
 * Why a handoff or a transfer stopped standing. REGENERATED: regenerateHandoff wrote a new one.
 * ROLLED_BACK: a rollback withdrew what it described (no newer one replaces it). EXPIRED: a PENDING
 * handoff was not submitted within the policy's pendingTimeoutSeconds; a local summary replaced it.
 * RESUME_FAILED: the provider thread it was for could not be resumed; a full summary into a new one
 * replaced it. SUMMARIZER_FAILED: the configured summarizer failed; a local summary replaced it.
 * REPLACED_BY_NEWER_MERGE_BACK: a newer merge-back of the same fork into the same thread (transfers only).
 */
export type EndReason =
  | 'EXPIRED'
  | 'REGENERATED'
  | 'REPLACED_BY_NEWER_MERGE_BACK'
  | 'RESUME_FAILED'
  | 'ROLLED_BACK'
  | 'SUMMARIZER_FAILED';

export type FailRunInput = {
  /** 1..20000 characters. */
  error: Scalars['String']['input'];
  /** The Dispatch.fencingToken of the dispatch this failure answers; without it the call is not fenced. */
  fencingToken?: InputMaybe<Scalars['String']['input']>;
  /** true: INTERRUPTED (stopped by the user or the orchestrator), false: FAILED. */
  interrupted?: InputMaybe<Scalars['Boolean']['input']>;
  runId: Scalars['ID']['input'];
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
  | 'ADDED'
  | 'DELETED'
  | 'MODIFIED'
  | 'RENAMED';

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
  | 'FAILED'
  | 'PENDING'
  | 'READY'
  | 'SUPERSEDED';

/**
 * FORK_DELTA_SUMMARY: a merge-back: a fork's decisions, files, commands and tests, conclusions and open
 * issues since its fork point, handed to its source thread.
 */
export type HandoffStrategy =
  | 'CHECKPOINT_SUMMARY'
  | 'DELTA_SINCE_TARGET_LAST_SEEN'
  | 'FORK_DELTA_SUMMARY'
  | 'FULL_THREAD_SUMMARY'
  | 'MANUAL_CONTEXT';

export type IdentityStrength =
  | 'NONE'
  | 'STRONG'
  | 'WEAK';

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
  | 'COMPLETED'
  | 'FAILED'
  | 'INTERRUPTED';

export type MergeBackInput = {
  forkThreadId: Scalars['ID']['input'];
};

export type PlanDecision =
  | 'DELTA_HANDOFF'
  | 'FULL_HANDOFF_EXISTING'
  | 'FULL_HANDOFF_NEW'
  | 'NO_HANDOFF'
  | 'UNSUPPORTED';

export type PlanRunInput = {
  cleanContext?: InputMaybe<Scalars['Boolean']['input']>;
  model?: InputMaybe<Scalars['String']['input']>;
  provider: Scalars['String']['input'];
  runtimeMode?: InputMaybe<Scalars['String']['input']>;
  threadId: Scalars['ID']['input'];
};

export type ProviderRollbackAction =
  /** No safe native rollback: the provider's next run starts a new provider thread with a full summary. */
  | 'DIVERGENT'
  /** The provider rolls back natively: the orchestrator must perform nativeRollback, then confirm. */
  | 'ROLLED_BACK';

export type ProviderRollbackFailureInput = {
  /** 1..20000 characters. */
  error: Scalars['String']['input'];
  providerThreadId: Scalars['ID']['input'];
};

export type ProviderRollbackInput = {
  providerThreadId: Scalars['ID']['input'];
};

/**
 * REUSE: same provider thread as the previous run. RESUME: an older one of this provider. CREATE: a new one.
 * NATIVE_FORK: a new one forked natively from the fork source's provider thread (dispatch.nativeThreadRef, dispatch.forkFromTurn).
 */
export type ProviderThreadAction =
  | 'CREATE'
  | 'NATIVE_FORK'
  | 'NONE'
  | 'RESUME'
  | 'REUSE';

/** STALE: replaced by a newer provider thread of the same provider on this app thread. */
export type ProviderThreadStatus =
  | 'ACTIVE'
  | 'CLOSED'
  | 'DIVERGENT'
  | 'IDLE'
  | 'RESUME_FAILED'
  | 'ROLLED_BACK'
  | 'STALE';

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

export type RecordFactInput = {
  /** What a later fact of the same kind and key supersedes (at most 200 characters). */
  key?: InputMaybe<Scalars['String']['input']>;
  /** NOTE, DECISION, CONSTRAINT or GOAL. */
  kind: RunFactKind;
  /** 1..20000 characters. */
  text: Scalars['String']['input'];
  threadId: Scalars['ID']['input'];
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

export type RollbackThreadInput = {
  threadId: Scalars['ID']['input'];
  /** 0, or the ordinal of a live run below the head (for a fork: not below its fork point). */
  toOrdinal: Scalars['Int']['input'];
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
  | 'APPROVAL_REQUEST'
  | 'COMMAND'
  | 'CONSTRAINT'
  | 'DECISION'
  | 'FAILURE'
  | 'FILE_CHANGE'
  | 'GOAL'
  | 'NOTE'
  | 'PLAN_ITEM'
  /** Provider protocol noise: never put into a summary. */
  | 'PROTOCOL'
  | 'QUESTION'
  /** Hidden reasoning: stored only if sent, never put into a summary. */
  | 'REASONING'
  | 'SUBAGENT_RESULT'
  | 'TEST'
  /** Kept for audit, never put into a summary. */
  | 'TOOL_OUTPUT';

export type RunStatus =
  | 'COMPLETED'
  | 'FAILED'
  | 'INTERRUPTED'
  | 'ROLLED_BACK'
  | 'RUNNING';

export type SessionFormat =
  | 'CLAUDE'
  | 'CODEX';

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
  | 'CLEAN_CONTEXT_REQUESTED'
  | 'INCOMPATIBLE_CONFIG'
  | 'RESUME_FAILED'
  | 'ROLLED_BACK_OR_DIVERGENT'
  | 'SUMMARY_EXCEEDS_POLICY'
  | 'TOO_MANY_CHAINED_HANDOFFS'
  | 'TOO_MANY_RUNS_ELSEWHERE';

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

export type SubmitHandoffSummaryInput = {
  /** Who wrote it: the provider asked (see summaryRequest.writer). */
  createdByProvider: Scalars['String']['input'];
  handoffId: Scalars['ID']['input'];
  summaryText: Scalars['String']['input'];
};

/** What an operation changed; the operation names the field to read again. */
export type ThreadChangeKind =
  /** deleteThread: it is deleted. */
  | 'DELETED'
  /** recordFact: a fact on its newest run. */
  | 'FACT_RECORDED'
  /** forkThread made a fork of this thread. */
  | 'FORKED'
  /** A PENDING handoff got its summary (submitHandoffSummary or a configured summarizer). */
  | 'HANDOFF_READY'
  /** regenerateHandoff, or a PENDING handoff that failed or expired and was replaced by a local summary. */
  | 'HANDOFF_REPLACED'
  /** mergeBack, on the fork and on the thread it merges back into. */
  | 'MERGED_BACK'
  /** confirmProviderRollback or reportProviderRollbackFailure. */
  | 'PROVIDER_ROLLBACK_SETTLED'
  /** bindNativeThread: a provider thread's native id. */
  | 'PROVIDER_THREAD_BOUND'
  /** renameThread: its title. */
  | 'RENAMED'
  /** rollbackThread: runs, handoffs and provider-thread statuses. */
  | 'ROLLED_BACK'
  /** importRuns added runs. */
  | 'RUNS_IMPORTED'
  | 'RUN_COMPLETED'
  /** failRun, interrupted or not. */
  | 'RUN_FAILED'
  /** reportResumeFailure, or bindNativeThread finding a resumed blank: the run's new provider thread and handoff. */
  | 'RUN_REPLANNED'
  /** startRun: a new run, its plan and its handoff. */
  | 'RUN_STARTED'
  /** completeSubagent, on the subagent's thread and on its parent thread. */
  | 'SUBAGENT_COMPLETED'
  /** spawnSubagent, on the parent thread. */
  | 'SUBAGENT_SPAWNED';

/** Why a change's event was sent without its thread (docs/live-updates.md). */
export type ThreadChangeWithheld =
  /** The selection's answer for this one event would pass THREADLINE_SUBSCRIPTION_EVENT_MAX_BYTES. */
  | 'EVENT_TOO_LARGE'
  /**
   * The instance's budget for one change (THREADLINE_SUBSCRIPTION_CHANGE_MAX_BYTES), shared equally
   * by the thread's subscribers on it, has no room for the selection's answer.
   */
  | 'FAN_OUT_BUDGET';

/** Every given condition must hold. */
export type ThreadFilter = {
  /** Threads whose project is exactly this (at most 4000 characters). */
  project?: InputMaybe<Scalars['String']['input']>;
  /** Threads on which a run of this provider ran (at most 200 characters). */
  provider?: InputMaybe<Scalars['String']['input']>;
  /** Threads whose title, id or project contain this, ignoring case (1..200 characters). */
  text?: InputMaybe<Scalars['String']['input']>;
};

export type ThreadRelationship =
  | 'FORK'
  | 'SUBAGENT';

export type TransferActor =
  | 'AGENT'
  | 'SYSTEM'
  | 'USER';

export type TransferKind =
  | 'FORK'
  | 'MERGE_BACK'
  | 'PROVIDER_HANDOFF'
  | 'SUBAGENT_RESULT'
  | 'SUBAGENT_SPAWN';

export type TransferResolution =
  | 'CHECKPOINT_CONTEXT'
  | 'DELTA_CONTEXT'
  /** The provider delivered it itself, in a session recorded by importSubagentThread. */
  | 'IMPORTED'
  | 'NATIVE_FORK'
  | 'PORTABLE_CONTEXT';

/**
 * PENDING: created, waiting for the target's next run. CONSUMED: resolved, natively or by a handoff
 * (resolution says which). SUPERSEDED: will never be resolved (endedBecause says why).
 */
export type TransferStatus =
  | 'CONSUMED'
  | 'PENDING'
  | 'SUPERSEDED';

export type ThreadHistoryQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  fromOrdinal?: InputMaybe<Scalars['Int']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
}>;


export type ThreadHistoryQuery = { thread: { id: string, title: string | null, project: string | null, headOrdinal: number, history: { edges: Array<{ inherited: boolean, live: boolean, node: { ordinal: number, provider: string, status: RunStatus, createdAt: string, userMessage: string, userMessageLength: number, assistantMessage: string | null, assistantMessageLength: number | null, error: string | null, factCount: number, facts: Array<{ kind: RunFactKind, text: string, textLength: number, key: string | null, status: string | null }> } }>, pageInfo: { hasNextPage: boolean } } } | null };

export type ThreadLineageQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type ThreadLineageQuery = { thread: { id: string, title: string | null, project: string | null, headOrdinal: number, runCount: number, providers: Array<string>, lastActivityAt: string, deletedAt: string | null, lineage: { relationshipToParent: ThreadRelationship | null, parent: { id: string, title: string | null } | null, sourcePoint: { runOrdinal: number | null } | null }, forks: Array<{ id: string, title: string | null }>, subagents: Array<{ id: string, title: string | null }>, providerThreads: Array<{ id: string, provider: string, status: ProviderThreadStatus, nativeThreadRef: string | null, firstRunOrdinal: number | null, lastRunOrdinal: number | null, coverage: { coveredThroughOrdinal: number, nativeRanges: Array<{ from: number, to: number }>, handoffRanges: Array<{ from: number, to: number }>, missingRanges: Array<{ from: number, to: number }> } }> } | null };

export type RecordFactMutationVariables = Exact<{
  input: RecordFactInput;
}>;


export type RecordFactMutation = { recordFact: { run: { id: string, ordinal: number }, fact: { kind: RunFactKind, text: string, key: string | null } } };

export type ProviderThreadsByNativeRefQueryVariables = Exact<{
  provider: Scalars['String']['input'];
  nativeThreadRef: Scalars['String']['input'];
}>;


export type ProviderThreadsByNativeRefQuery = { providerThreadsByNativeRef: Array<{ id: string, threadId: string }> };

export type ImportRunsMutationVariables = Exact<{
  input: ImportRunsInput;
}>;


export type ImportRunsMutation = { importRuns: { alreadyPresent: number, duplicateTurns: number, providerThread: { id: string }, runs: Array<{ id: string }> } };

export type ImportSubagentThreadMutationVariables = Exact<{
  input: ImportSubagentThreadInput;
}>;


export type ImportSubagentThreadMutation = { importSubagentThread: { id: string, lineage: { sourcePoint: { runId: string | null, runOrdinal: number | null } | null } } };

export type ImportedRunTimesQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type ImportedRunTimesQuery = { thread: { runs: { edges: Array<{ node: { id: string, status: RunStatus, createdAt: string, providerThread: { id: string } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } } | null };

export type RollbackThreadMutationVariables = Exact<{
  input: RollbackThreadInput;
}>;


export type RollbackThreadMutation = { rollbackThread: { rolledBackRunCount: number, thread: { headOrdinal: number }, rolledBackRuns: Array<{ id: string, ordinal: number, status: RunStatus }>, supersededHandoffs: Array<{ id: string, coveredRunOrdinals: { from: number, to: number } }>, providerThreads: Array<{ action: ProviderRollbackAction, providerThread: { id: string, provider: string, status: ProviderThreadStatus }, nativeRollback: { providerThreadId: string, nativeThreadRef: string | null, turnsToDrop: number, toOrdinal: number } | null }> } };

export type ConfirmProviderRollbackMutationVariables = Exact<{
  input: ProviderRollbackInput;
}>;


export type ConfirmProviderRollbackMutation = { confirmProviderRollback: { id: string, provider: string, status: ProviderThreadStatus } };

export type ForkThreadMutationVariables = Exact<{
  input: ForkThreadInput;
}>;


export type ForkThreadMutation = { forkThread: { id: string, title: string | null, headOrdinal: number, lineage: { parent: { id: string } | null, sourcePoint: { runOrdinal: number | null, providerThreadId: string | null } | null } } };

export type MergeBackMutationVariables = Exact<{
  input: MergeBackInput;
}>;


export type MergeBackMutation = { mergeBack: { id: string, kind: TransferKind, status: TransferStatus, sourcePoint: { runOrdinal: number | null }, basePoint: { runOrdinal: number | null } | null } };

export type SpawnSubagentMutationVariables = Exact<{
  input: SpawnSubagentInput;
}>;


export type SpawnSubagentMutation = { spawnSubagent: { id: string, lineage: { sourcePoint: { runOrdinal: number | null } | null } } };

export type CompleteSubagentMutationVariables = Exact<{
  input: CompleteSubagentInput;
}>;


export type CompleteSubagentMutation = { completeSubagent: { id: string, kind: TransferKind, status: TransferStatus, handoff: { id: string, strategy: HandoffStrategy } | null } };

export type PlanFragment = { decision: PlanDecision, providerThreadAction: ProviderThreadAction, handoffStrategy: HandoffStrategy | null, stalenessSignals: Array<StalenessSignal>, reasons: Array<string>, providerThread: { id: string } | null, coveredRunOrdinals: { from: number, to: number } | null };

export type DispatchToSendFragment = { providerThreadAction: ProviderThreadAction, nativeThreadRef: string | null, forkFromTurn: number | null, delivery: ContextDelivery | null, context: string | null, userMessage: string, fencingToken: string };

export type RunHandoffFragment = { id: string, strategy: HandoffStrategy, status: HandoffStatus, source: string, createdByProvider: string | null, toProviderThreadId: string, coveredRunOrdinals: { from: number, to: number }, summaryRequest: { handoffId: string, writer: string, targetProvider: string, strategy: HandoffStrategy, document: string, budgetChars: number | null } | null };

export type StartedRunFragment = { run: { id: string, threadId: string, ordinal: number, provider: string, status: RunStatus }, plan: { decision: PlanDecision, providerThreadAction: ProviderThreadAction, handoffStrategy: HandoffStrategy | null, stalenessSignals: Array<StalenessSignal>, reasons: Array<string>, providerThread: { id: string } | null, coveredRunOrdinals: { from: number, to: number } | null }, providerThread: { id: string, provider: string, status: ProviderThreadStatus, nativeThreadRef: string | null }, handoff: { id: string, strategy: HandoffStrategy, status: HandoffStatus, source: string, createdByProvider: string | null, toProviderThreadId: string, coveredRunOrdinals: { from: number, to: number }, summaryRequest: { handoffId: string, writer: string, targetProvider: string, strategy: HandoffStrategy, document: string, budgetChars: number | null } | null } | null, dispatch: { providerThreadAction: ProviderThreadAction, nativeThreadRef: string | null, forkFromTurn: number | null, delivery: ContextDelivery | null, context: string | null, userMessage: string, fencingToken: string } };

export type RunContextQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type RunContextQuery = { run: { status: RunStatus, plan: { decision: PlanDecision, providerThreadAction: ProviderThreadAction, handoffStrategy: HandoffStrategy | null, stalenessSignals: Array<StalenessSignal>, reasons: Array<string>, providerThread: { id: string } | null, coveredRunOrdinals: { from: number, to: number } | null }, contextHandoff: { id: string, strategy: HandoffStrategy, status: HandoffStatus, source: string, createdByProvider: string | null, toProviderThreadId: string, coveredRunOrdinals: { from: number, to: number }, summaryRequest: { handoffId: string, writer: string, targetProvider: string, strategy: HandoffStrategy, document: string, budgetChars: number | null } | null } | null, dispatch: { providerThreadAction: ProviderThreadAction, nativeThreadRef: string | null, forkFromTurn: number | null, delivery: ContextDelivery | null, context: string | null, userMessage: string, fencingToken: string } } | null };

export type PlanRunQueryVariables = Exact<{
  input: PlanRunInput;
}>;


export type PlanRunQuery = { planRun: { decision: PlanDecision, providerThreadAction: ProviderThreadAction, handoffStrategy: HandoffStrategy | null, stalenessSignals: Array<StalenessSignal>, reasons: Array<string>, providerThread: { id: string } | null, coveredRunOrdinals: { from: number, to: number } | null } };

export type PreviewRunQueryVariables = Exact<{
  input: PlanRunInput;
}>;


export type PreviewRunQuery = { previewRun: { providerThreadAction: ProviderThreadAction, nativeThreadRef: string | null, delivery: ContextDelivery | null, context: string | null, pendingWriter: string | null, plan: { decision: PlanDecision, providerThreadAction: ProviderThreadAction, handoffStrategy: HandoffStrategy | null, stalenessSignals: Array<StalenessSignal>, reasons: Array<string>, providerThread: { id: string } | null, coveredRunOrdinals: { from: number, to: number } | null } } };

export type StartRunMutationVariables = Exact<{
  input: StartRunInput;
}>;


export type StartRunMutation = { startRun: { run: { id: string, threadId: string, ordinal: number, provider: string, status: RunStatus }, plan: { decision: PlanDecision, providerThreadAction: ProviderThreadAction, handoffStrategy: HandoffStrategy | null, stalenessSignals: Array<StalenessSignal>, reasons: Array<string>, providerThread: { id: string } | null, coveredRunOrdinals: { from: number, to: number } | null }, providerThread: { id: string, provider: string, status: ProviderThreadStatus, nativeThreadRef: string | null }, handoff: { id: string, strategy: HandoffStrategy, status: HandoffStatus, source: string, createdByProvider: string | null, toProviderThreadId: string, coveredRunOrdinals: { from: number, to: number }, summaryRequest: { handoffId: string, writer: string, targetProvider: string, strategy: HandoffStrategy, document: string, budgetChars: number | null } | null } | null, dispatch: { providerThreadAction: ProviderThreadAction, nativeThreadRef: string | null, forkFromTurn: number | null, delivery: ContextDelivery | null, context: string | null, userMessage: string, fencingToken: string } } };

export type BindNativeThreadMutationVariables = Exact<{
  input: BindProviderThreadInput;
}>;


export type BindNativeThreadMutation = { bindNativeThread: { resumedBlank: boolean, providerThread: { id: string, status: ProviderThreadStatus, nativeThreadRef: string | null, resumeError: string | null }, replanned: { run: { id: string, threadId: string, ordinal: number, provider: string, status: RunStatus }, plan: { decision: PlanDecision, providerThreadAction: ProviderThreadAction, handoffStrategy: HandoffStrategy | null, stalenessSignals: Array<StalenessSignal>, reasons: Array<string>, providerThread: { id: string } | null, coveredRunOrdinals: { from: number, to: number } | null }, providerThread: { id: string, provider: string, status: ProviderThreadStatus, nativeThreadRef: string | null }, handoff: { id: string, strategy: HandoffStrategy, status: HandoffStatus, source: string, createdByProvider: string | null, toProviderThreadId: string, coveredRunOrdinals: { from: number, to: number }, summaryRequest: { handoffId: string, writer: string, targetProvider: string, strategy: HandoffStrategy, document: string, budgetChars: number | null } | null } | null, dispatch: { providerThreadAction: ProviderThreadAction, nativeThreadRef: string | null, forkFromTurn: number | null, delivery: ContextDelivery | null, context: string | null, userMessage: string, fencingToken: string } } | null } };

export type ReportResumeFailureMutationVariables = Exact<{
  input: ReportResumeFailureInput;
}>;


export type ReportResumeFailureMutation = { reportResumeFailure: { run: { id: string, threadId: string, ordinal: number, provider: string, status: RunStatus }, plan: { decision: PlanDecision, providerThreadAction: ProviderThreadAction, handoffStrategy: HandoffStrategy | null, stalenessSignals: Array<StalenessSignal>, reasons: Array<string>, providerThread: { id: string } | null, coveredRunOrdinals: { from: number, to: number } | null }, providerThread: { id: string, provider: string, status: ProviderThreadStatus, nativeThreadRef: string | null }, handoff: { id: string, strategy: HandoffStrategy, status: HandoffStatus, source: string, createdByProvider: string | null, toProviderThreadId: string, coveredRunOrdinals: { from: number, to: number }, summaryRequest: { handoffId: string, writer: string, targetProvider: string, strategy: HandoffStrategy, document: string, budgetChars: number | null } | null } | null, dispatch: { providerThreadAction: ProviderThreadAction, nativeThreadRef: string | null, forkFromTurn: number | null, delivery: ContextDelivery | null, context: string | null, userMessage: string, fencingToken: string } } };

export type CompleteRunMutationVariables = Exact<{
  input: CompleteRunInput;
}>;


export type CompleteRunMutation = { completeRun: { id: string, ordinal: number, status: RunStatus } };

export type FailRunMutationVariables = Exact<{
  input: FailRunInput;
}>;


export type FailRunMutation = { failRun: { id: string, threadId: string, ordinal: number, provider: string, status: RunStatus, error: string | null } };

export type SubmitHandoffSummaryMutationVariables = Exact<{
  input: SubmitHandoffSummaryInput;
}>;


export type SubmitHandoffSummaryMutation = { submitHandoffSummary: { id: string, status: HandoffStatus, omissions: Array<string>, length: number } };

export type CreateThreadMutationVariables = Exact<{
  input: CreateThreadInput;
}>;


export type CreateThreadMutation = { createThread: { id: string, title: string | null, project: string | null, headOrdinal: number } };

export type ThreadRunsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  first?: InputMaybe<Scalars['Int']['input']>;
}>;


export type ThreadRunsQuery = { thread: { headOrdinal: number, runs: { edges: Array<{ node: { id: string, ordinal: number, status: RunStatus } }> } } | null };

export type ThreadsIndexQueryVariables = Exact<{
  filter?: InputMaybe<ThreadFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type ThreadsIndexQuery = { threads: { edges: Array<{ cursor: string, node: { id: string, title: string | null, project: string | null, providers: Array<string>, runCount: number, lastActivityAt: string, createdAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type RenameThreadMutationVariables = Exact<{
  input: RenameThreadInput;
}>;


export type RenameThreadMutation = { renameThread: { id: string, title: string | null } };

export type DeleteThreadMutationVariables = Exact<{
  input: DeleteThreadInput;
}>;


export type DeleteThreadMutation = { deleteThread: { id: string, deletedAt: string | null } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const PlanFragmentDoc = new TypedDocumentString(`
    fragment Plan on RunPlan {
  decision
  providerThreadAction
  providerThread {
    id
  }
  handoffStrategy
  coveredRunOrdinals {
    from
    to
  }
  stalenessSignals
  reasons
}
    `, {"fragmentName":"Plan"}) as unknown as TypedDocumentString<PlanFragment, unknown>;
export const RunHandoffFragmentDoc = new TypedDocumentString(`
    fragment RunHandoff on ContextHandoff {
  id
  strategy
  status
  source
  createdByProvider
  coveredRunOrdinals {
    from
    to
  }
  toProviderThreadId
  summaryRequest {
    handoffId
    writer
    targetProvider
    strategy
    document
    budgetChars
  }
}
    `, {"fragmentName":"RunHandoff"}) as unknown as TypedDocumentString<RunHandoffFragment, unknown>;
export const DispatchToSendFragmentDoc = new TypedDocumentString(`
    fragment DispatchToSend on Dispatch {
  providerThreadAction
  nativeThreadRef
  forkFromTurn
  delivery
  context
  userMessage
  fencingToken
}
    `, {"fragmentName":"DispatchToSend"}) as unknown as TypedDocumentString<DispatchToSendFragment, unknown>;
export const StartedRunFragmentDoc = new TypedDocumentString(`
    fragment StartedRun on StartRunPayload {
  run {
    id
    threadId
    ordinal
    provider
    status
  }
  plan {
    ...Plan
  }
  providerThread {
    id
    provider
    status
    nativeThreadRef
  }
  handoff {
    ...RunHandoff
  }
  dispatch {
    ...DispatchToSend
  }
}
    fragment Plan on RunPlan {
  decision
  providerThreadAction
  providerThread {
    id
  }
  handoffStrategy
  coveredRunOrdinals {
    from
    to
  }
  stalenessSignals
  reasons
}
fragment DispatchToSend on Dispatch {
  providerThreadAction
  nativeThreadRef
  forkFromTurn
  delivery
  context
  userMessage
  fencingToken
}
fragment RunHandoff on ContextHandoff {
  id
  strategy
  status
  source
  createdByProvider
  coveredRunOrdinals {
    from
    to
  }
  toProviderThreadId
  summaryRequest {
    handoffId
    writer
    targetProvider
    strategy
    document
    budgetChars
  }
}`, {"fragmentName":"StartedRun"}) as unknown as TypedDocumentString<StartedRunFragment, unknown>;
export const ThreadHistoryDocument = new TypedDocumentString(`
    query ThreadHistory($id: ID!, $fromOrdinal: Int, $first: Int) {
  thread(id: $id) {
    id
    title
    project
    headOrdinal
    history(fromOrdinal: $fromOrdinal, first: $first) {
      edges {
        inherited
        live
        node {
          ordinal
          provider
          status
          createdAt
          userMessage(maxChars: 600)
          userMessageLength
          assistantMessage(maxChars: 600)
          assistantMessageLength
          error
          factCount
          facts(first: 60) {
            kind
            text(maxChars: 300)
            textLength
            key
            status
          }
        }
      }
      pageInfo {
        hasNextPage
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ThreadHistoryQuery, ThreadHistoryQueryVariables>;
export const ThreadLineageDocument = new TypedDocumentString(`
    query ThreadLineage($id: ID!) {
  thread(id: $id) {
    id
    title
    project
    headOrdinal
    runCount
    providers
    lastActivityAt
    deletedAt
    lineage {
      parent {
        id
        title
      }
      relationshipToParent
      sourcePoint {
        runOrdinal
      }
    }
    forks(first: 20) {
      id
      title
    }
    subagents(first: 20) {
      id
      title
    }
    providerThreads {
      id
      provider
      status
      nativeThreadRef
      firstRunOrdinal
      lastRunOrdinal
      coverage {
        nativeRanges {
          from
          to
        }
        handoffRanges {
          from
          to
        }
        missingRanges {
          from
          to
        }
        coveredThroughOrdinal
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ThreadLineageQuery, ThreadLineageQueryVariables>;
export const RecordFactDocument = new TypedDocumentString(`
    mutation RecordFact($input: RecordFactInput!) {
  recordFact(input: $input) {
    run {
      id
      ordinal
    }
    fact {
      kind
      text(maxChars: 200)
      key
    }
  }
}
    `) as unknown as TypedDocumentString<RecordFactMutation, RecordFactMutationVariables>;
export const ProviderThreadsByNativeRefDocument = new TypedDocumentString(`
    query ProviderThreadsByNativeRef($provider: String!, $nativeThreadRef: String!) {
  providerThreadsByNativeRef(
    provider: $provider
    nativeThreadRef: $nativeThreadRef
  ) {
    id
    threadId
  }
}
    `) as unknown as TypedDocumentString<ProviderThreadsByNativeRefQuery, ProviderThreadsByNativeRefQueryVariables>;
export const ImportRunsDocument = new TypedDocumentString(`
    mutation ImportRuns($input: ImportRunsInput!) {
  importRuns(input: $input) {
    providerThread {
      id
    }
    runs {
      id
    }
    alreadyPresent
    duplicateTurns
  }
}
    `) as unknown as TypedDocumentString<ImportRunsMutation, ImportRunsMutationVariables>;
export const ImportSubagentThreadDocument = new TypedDocumentString(`
    mutation ImportSubagentThread($input: ImportSubagentThreadInput!) {
  importSubagentThread(input: $input) {
    id
    lineage {
      sourcePoint {
        runId
        runOrdinal
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ImportSubagentThreadMutation, ImportSubagentThreadMutationVariables>;
export const ImportedRunTimesDocument = new TypedDocumentString(`
    query ImportedRunTimes($id: ID!, $after: String) {
  thread(id: $id) {
    runs(first: 500, after: $after) {
      edges {
        node {
          id
          status
          createdAt
          providerThread {
            id
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ImportedRunTimesQuery, ImportedRunTimesQueryVariables>;
export const RollbackThreadDocument = new TypedDocumentString(`
    mutation RollbackThread($input: RollbackThreadInput!) {
  rollbackThread(input: $input) {
    thread {
      headOrdinal
    }
    rolledBackRunCount
    rolledBackRuns {
      id
      ordinal
      status
    }
    supersededHandoffs {
      id
      coveredRunOrdinals {
        from
        to
      }
    }
    providerThreads {
      providerThread {
        id
        provider
        status
      }
      action
      nativeRollback {
        providerThreadId
        nativeThreadRef
        turnsToDrop
        toOrdinal
      }
    }
  }
}
    `) as unknown as TypedDocumentString<RollbackThreadMutation, RollbackThreadMutationVariables>;
export const ConfirmProviderRollbackDocument = new TypedDocumentString(`
    mutation ConfirmProviderRollback($input: ProviderRollbackInput!) {
  confirmProviderRollback(input: $input) {
    id
    provider
    status
  }
}
    `) as unknown as TypedDocumentString<ConfirmProviderRollbackMutation, ConfirmProviderRollbackMutationVariables>;
export const ForkThreadDocument = new TypedDocumentString(`
    mutation ForkThread($input: ForkThreadInput!) {
  forkThread(input: $input) {
    id
    title
    headOrdinal
    lineage {
      parent {
        id
      }
      sourcePoint {
        runOrdinal
        providerThreadId
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ForkThreadMutation, ForkThreadMutationVariables>;
export const MergeBackDocument = new TypedDocumentString(`
    mutation MergeBack($input: MergeBackInput!) {
  mergeBack(input: $input) {
    id
    kind
    status
    sourcePoint {
      runOrdinal
    }
    basePoint {
      runOrdinal
    }
  }
}
    `) as unknown as TypedDocumentString<MergeBackMutation, MergeBackMutationVariables>;
export const SpawnSubagentDocument = new TypedDocumentString(`
    mutation SpawnSubagent($input: SpawnSubagentInput!) {
  spawnSubagent(input: $input) {
    id
    lineage {
      sourcePoint {
        runOrdinal
      }
    }
  }
}
    `) as unknown as TypedDocumentString<SpawnSubagentMutation, SpawnSubagentMutationVariables>;
export const CompleteSubagentDocument = new TypedDocumentString(`
    mutation CompleteSubagent($input: CompleteSubagentInput!) {
  completeSubagent(input: $input) {
    id
    kind
    status
    handoff {
      id
      strategy
    }
  }
}
    `) as unknown as TypedDocumentString<CompleteSubagentMutation, CompleteSubagentMutationVariables>;
export const RunContextDocument = new TypedDocumentString(`
    query RunContext($id: ID!) {
  run(id: $id) {
    status
    plan {
      ...Plan
    }
    contextHandoff {
      ...RunHandoff
    }
    dispatch {
      ...DispatchToSend
    }
  }
}
    fragment Plan on RunPlan {
  decision
  providerThreadAction
  providerThread {
    id
  }
  handoffStrategy
  coveredRunOrdinals {
    from
    to
  }
  stalenessSignals
  reasons
}
fragment DispatchToSend on Dispatch {
  providerThreadAction
  nativeThreadRef
  forkFromTurn
  delivery
  context
  userMessage
  fencingToken
}
fragment RunHandoff on ContextHandoff {
  id
  strategy
  status
  source
  createdByProvider
  coveredRunOrdinals {
    from
    to
  }
  toProviderThreadId
  summaryRequest {
    handoffId
    writer
    targetProvider
    strategy
    document
    budgetChars
  }
}`) as unknown as TypedDocumentString<RunContextQuery, RunContextQueryVariables>;
export const PlanRunDocument = new TypedDocumentString(`
    query PlanRun($input: PlanRunInput!) {
  planRun(input: $input) {
    ...Plan
  }
}
    fragment Plan on RunPlan {
  decision
  providerThreadAction
  providerThread {
    id
  }
  handoffStrategy
  coveredRunOrdinals {
    from
    to
  }
  stalenessSignals
  reasons
}`) as unknown as TypedDocumentString<PlanRunQuery, PlanRunQueryVariables>;
export const PreviewRunDocument = new TypedDocumentString(`
    query PreviewRun($input: PlanRunInput!) {
  previewRun(input: $input) {
    plan {
      ...Plan
    }
    providerThreadAction
    nativeThreadRef
    delivery
    context
    pendingWriter
  }
}
    fragment Plan on RunPlan {
  decision
  providerThreadAction
  providerThread {
    id
  }
  handoffStrategy
  coveredRunOrdinals {
    from
    to
  }
  stalenessSignals
  reasons
}`) as unknown as TypedDocumentString<PreviewRunQuery, PreviewRunQueryVariables>;
export const StartRunDocument = new TypedDocumentString(`
    mutation StartRun($input: StartRunInput!) {
  startRun(input: $input) {
    ...StartedRun
  }
}
    fragment Plan on RunPlan {
  decision
  providerThreadAction
  providerThread {
    id
  }
  handoffStrategy
  coveredRunOrdinals {
    from
    to
  }
  stalenessSignals
  reasons
}
fragment DispatchToSend on Dispatch {
  providerThreadAction
  nativeThreadRef
  forkFromTurn
  delivery
  context
  userMessage
  fencingToken
}
fragment RunHandoff on ContextHandoff {
  id
  strategy
  status
  source
  createdByProvider
  coveredRunOrdinals {
    from
    to
  }
  toProviderThreadId
  summaryRequest {
    handoffId
    writer
    targetProvider
    strategy
    document
    budgetChars
  }
}
fragment StartedRun on StartRunPayload {
  run {
    id
    threadId
    ordinal
    provider
    status
  }
  plan {
    ...Plan
  }
  providerThread {
    id
    provider
    status
    nativeThreadRef
  }
  handoff {
    ...RunHandoff
  }
  dispatch {
    ...DispatchToSend
  }
}`) as unknown as TypedDocumentString<StartRunMutation, StartRunMutationVariables>;
export const BindNativeThreadDocument = new TypedDocumentString(`
    mutation BindNativeThread($input: BindProviderThreadInput!) {
  bindNativeThread(input: $input) {
    providerThread {
      id
      status
      nativeThreadRef
      resumeError
    }
    resumedBlank
    replanned {
      ...StartedRun
    }
  }
}
    fragment Plan on RunPlan {
  decision
  providerThreadAction
  providerThread {
    id
  }
  handoffStrategy
  coveredRunOrdinals {
    from
    to
  }
  stalenessSignals
  reasons
}
fragment DispatchToSend on Dispatch {
  providerThreadAction
  nativeThreadRef
  forkFromTurn
  delivery
  context
  userMessage
  fencingToken
}
fragment RunHandoff on ContextHandoff {
  id
  strategy
  status
  source
  createdByProvider
  coveredRunOrdinals {
    from
    to
  }
  toProviderThreadId
  summaryRequest {
    handoffId
    writer
    targetProvider
    strategy
    document
    budgetChars
  }
}
fragment StartedRun on StartRunPayload {
  run {
    id
    threadId
    ordinal
    provider
    status
  }
  plan {
    ...Plan
  }
  providerThread {
    id
    provider
    status
    nativeThreadRef
  }
  handoff {
    ...RunHandoff
  }
  dispatch {
    ...DispatchToSend
  }
}`) as unknown as TypedDocumentString<BindNativeThreadMutation, BindNativeThreadMutationVariables>;
export const ReportResumeFailureDocument = new TypedDocumentString(`
    mutation ReportResumeFailure($input: ReportResumeFailureInput!) {
  reportResumeFailure(input: $input) {
    ...StartedRun
  }
}
    fragment Plan on RunPlan {
  decision
  providerThreadAction
  providerThread {
    id
  }
  handoffStrategy
  coveredRunOrdinals {
    from
    to
  }
  stalenessSignals
  reasons
}
fragment DispatchToSend on Dispatch {
  providerThreadAction
  nativeThreadRef
  forkFromTurn
  delivery
  context
  userMessage
  fencingToken
}
fragment RunHandoff on ContextHandoff {
  id
  strategy
  status
  source
  createdByProvider
  coveredRunOrdinals {
    from
    to
  }
  toProviderThreadId
  summaryRequest {
    handoffId
    writer
    targetProvider
    strategy
    document
    budgetChars
  }
}
fragment StartedRun on StartRunPayload {
  run {
    id
    threadId
    ordinal
    provider
    status
  }
  plan {
    ...Plan
  }
  providerThread {
    id
    provider
    status
    nativeThreadRef
  }
  handoff {
    ...RunHandoff
  }
  dispatch {
    ...DispatchToSend
  }
}`) as unknown as TypedDocumentString<ReportResumeFailureMutation, ReportResumeFailureMutationVariables>;
export const CompleteRunDocument = new TypedDocumentString(`
    mutation CompleteRun($input: CompleteRunInput!) {
  completeRun(input: $input) {
    id
    ordinal
    status
  }
}
    `) as unknown as TypedDocumentString<CompleteRunMutation, CompleteRunMutationVariables>;
export const FailRunDocument = new TypedDocumentString(`
    mutation FailRun($input: FailRunInput!) {
  failRun(input: $input) {
    id
    threadId
    ordinal
    provider
    status
    error
  }
}
    `) as unknown as TypedDocumentString<FailRunMutation, FailRunMutationVariables>;
export const SubmitHandoffSummaryDocument = new TypedDocumentString(`
    mutation SubmitHandoffSummary($input: SubmitHandoffSummaryInput!) {
  submitHandoffSummary(input: $input) {
    id
    status
    omissions
    length
  }
}
    `) as unknown as TypedDocumentString<SubmitHandoffSummaryMutation, SubmitHandoffSummaryMutationVariables>;
export const CreateThreadDocument = new TypedDocumentString(`
    mutation CreateThread($input: CreateThreadInput!) {
  createThread(input: $input) {
    id
    title
    project
    headOrdinal
  }
}
    `) as unknown as TypedDocumentString<CreateThreadMutation, CreateThreadMutationVariables>;
export const ThreadRunsDocument = new TypedDocumentString(`
    query ThreadRuns($id: ID!, $first: Int) {
  thread(id: $id) {
    headOrdinal
    runs(first: $first) {
      edges {
        node {
          id
          ordinal
          status
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ThreadRunsQuery, ThreadRunsQueryVariables>;
export const ThreadsIndexDocument = new TypedDocumentString(`
    query ThreadsIndex($filter: ThreadFilter, $first: Int, $after: String) {
  threads(filter: $filter, first: $first, after: $after) {
    edges {
      cursor
      node {
        id
        title
        project
        providers
        runCount
        lastActivityAt
        createdAt
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<ThreadsIndexQuery, ThreadsIndexQueryVariables>;
export const RenameThreadDocument = new TypedDocumentString(`
    mutation RenameThread($input: RenameThreadInput!) {
  renameThread(input: $input) {
    id
    title
  }
}
    `) as unknown as TypedDocumentString<RenameThreadMutation, RenameThreadMutationVariables>;
export const DeleteThreadDocument = new TypedDocumentString(`
    mutation DeleteThread($input: DeleteThreadInput!) {
  deleteThread(input: $input) {
    id
    deletedAt
  }
}
    `) as unknown as TypedDocumentString<DeleteThreadMutation, DeleteThreadMutationVariables>;