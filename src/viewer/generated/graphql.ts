export type Maybe<T> = T | null;
export type InputMaybe<T> = T | null;
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

export type ThreadWindowQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  last?: InputMaybe<Scalars['Int']['input']>;
}>;


export type ThreadWindowQuery = { thread: { id: string, title: string | null, headOrdinal: number, changeSequence: number, providerThreadCount: number, lineage: { relationshipToParent: ThreadRelationship | null, parent: { id: string, title: string | null } | null, sourcePoint: { runOrdinal: number | null, checkpointId: string | null } | null }, ancestors: Array<{ id: string, title: string | null }>, runs: { pageInfo: { hasPreviousPage: boolean, startCursor: string | null }, edges: Array<{ node: { id: string, ordinal: number, provider: string, status: RunStatus, providerThread: { id: string }, plan: { decision: PlanDecision, providerThreadAction: ProviderThreadAction } } }> } } | null };

export type ThreadEarlierRunsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  last?: InputMaybe<Scalars['Int']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
}>;


export type ThreadEarlierRunsQuery = { thread: { runs: { pageInfo: { hasPreviousPage: boolean, startCursor: string | null }, edges: Array<{ node: { id: string, ordinal: number, provider: string, status: RunStatus, providerThread: { id: string }, plan: { decision: PlanDecision, providerThreadAction: ProviderThreadAction } } }> } } | null };

export type ThreadWindowLinksQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  from?: InputMaybe<Scalars['Int']['input']>;
  to?: InputMaybe<Scalars['Int']['input']>;
}>;


export type ThreadWindowLinksQuery = { thread: { handoffs: Array<{ id: string, targetRunId: string, fromProviderThreadIds: Array<string>, toProviderThreadId: string, strategy: HandoffStrategy, status: HandoffStatus, createdAt: string, coveredRunOrdinals: { from: number, to: number } }>, transfers: Array<{ id: string, kind: TransferKind, sourceThreadId: string, targetThreadId: string, status: TransferStatus, resolution: TransferResolution | null, createdAt: string, sourcePoint: { runOrdinal: number | null }, basePoint: { runOrdinal: number | null } | null, handoff: { id: string, targetRunId: string } | null }>, forks: Array<{ id: string, title: string | null, lineage: { sourcePoint: { runOrdinal: number | null, checkpointId: string | null } | null } }>, subagents: Array<{ id: string, title: string | null, lineage: { sourcePoint: { runOrdinal: number | null } | null } }>, providerThreads: Array<{ id: string, provider: string, seq: number, status: ProviderThreadStatus, nativeThreadRef: string | null, model: string | null, runtimeMode: string | null, createdAt: string, forkedFrom: { id: string, threadId: string, provider: string } | null, coverage: { coveredThroughOrdinal: number, handoffIds: Array<string>, nativeRanges: Array<{ from: number, to: number }>, missingRanges: Array<{ from: number, to: number }> } }> } | null };

export type RunDetailsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type RunDetailsQuery = { run: { id: string, model: string | null, runtimeMode: string | null, userMessage: string, userMessageLength: number, assistantMessage: string | null, assistantMessageLength: number | null, error: string | null, createdAt: string, completedAt: string | null, factCount: number, contextHandoff: { id: string } | null, facts: Array<{ kind: RunFactKind, text: string, textLength: number, status: string | null }>, plan: { handoffStrategy: HandoffStrategy | null, stalenessSignals: Array<StalenessSignal>, reasons: Array<string>, coveredRunOrdinals: { from: number, to: number } | null } } | null };

export type ReceiptLinePartsFragment = { held: number, kept: number, omitted: Array<string> };

export type HandoffDetailsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type HandoffDetailsQuery = { contextHandoff: { id: string, summaryText: string, createdByProvider: string | null, delivery: ContextDelivery, source: string, length: number, budgetChars: number | null, omissions: Array<string>, failureReason: string | null, receipt: { files: { held: number, kept: number, omitted: Array<string> }, commands: { held: number, kept: number, omitted: Array<string> }, failures: { held: number, kept: number, omitted: Array<string> }, todos: { held: number, kept: number, omitted: Array<string> }, questions: { held: number, kept: number, omitted: Array<string> } } | null, supersedes: { id: string } | null, supersededBy: { id: string } | null } | null };

export type FollowThreadSubscriptionVariables = Exact<{
  id: Scalars['ID']['input'];
  after?: InputMaybe<Scalars['Int']['input']>;
}>;


export type FollowThreadSubscription = { threadChanged: { sequence: number, kind: ThreadChangeKind, resync: boolean } };

export type ThreadIndexQueryVariables = Exact<{
  filter?: InputMaybe<ThreadFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type ThreadIndexQuery = { threads: { edges: Array<{ node: { id: string, title: string | null, project: string | null, providers: Array<string>, runCount: number, lastActivityAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };
