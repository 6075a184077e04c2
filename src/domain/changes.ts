// What a thread's change feed says about one committed change (docs/live-updates.md). One operation
// that changes a thread records one change of one kind on it; a merge-back or a subagent's result also
// records one on the thread it is delivered to.
export const THREAD_CHANGE_KINDS = [
  'run_started',
  'run_replanned',
  'provider_thread_bound',
  'run_completed',
  'run_failed',
  'rolled_back',
  'provider_rollback_settled',
  'handoff_ready',
  'handoff_replaced',
  'forked',
  'merged_back',
  'subagent_spawned',
  'subagent_completed',
  'runs_imported',
  'renamed',
  'deleted',
  'fact_recorded',
] as const;
export type ThreadChangeKind = (typeof THREAD_CHANGE_KINDS)[number];

export interface ThreadChangeRecord {
  tenant: string;
  threadId: string;
  /** 1, 2, 3... per thread, in commit order, without gaps. */
  sequence: number;
  kind: ThreadChangeKind;
  at: string;
}
