// The lineage rules and status sets that code and statements share, kept here once and handed to
// every Cypher statement as parameters ($standingStatuses, $coverageKinds, $replacedProviderThreadStatuses,
// $stableRunStatuses, $subagentWorkKinds, like $tenant) so no statement spells them out.

import type { HandoffStatus, ProviderThreadStatus, RunFactKind, RunStatus, TransferKind } from './records.js';

/**
 * A handoff stands while it is pending or ready: it is, or will be once written, its run's context.
 * A failed or superseded one no longer tells anyone anything.
 */
const STANDING_HANDOFF_STATUSES: readonly HandoffStatus[] = ['pending', 'ready'];

/**
 * Only a switch's or a fork's handoff describes ordinals of its thread's own history: a merge-back's
 * range is in the fork's ordinals and a subagent's task or result covers nothing. So only they count
 * as handoff coverage, for the planner and for coverage.
 */
const COVERAGE_TRANSFER_KINDS: readonly TransferKind[] = ['provider_handoff', 'fork'];

/**
 * A provider thread in one of these was replaced: nothing more is recorded from its sessions, it is
 * not forked natively, and a newer one marking it stale leaves the more telling status it has.
 */
export const REPLACED_PROVIDER_THREAD_STATUSES: readonly ProviderThreadStatus[] = [
  'stale',
  'resume_failed',
  'divergent',
  'rolled_back',
];

/** A run in one of these has ended and is live: it can be forked from, rolled back to or merged back. */
export const STABLE_RUN_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'interrupted'];

/**
 * A question or approval request whose status is one of these (lowercased) was settled: it is not an open
 * question a handoff must carry.
 */
export const CLOSED_QUESTION_STATUSES: ReadonlySet<string> = new Set([
  'resolved',
  'answered',
  'closed',
  'approved',
  'rejected',
  'done',
]);

/**
 * What a subagent did that counts as the work of the run that spawned it, in that run's summaries:
 * the files it changed, the commands and tests it ran and its failures. Its notes and plans stay its own.
 */
const SUBAGENT_WORK_FACT_KINDS: readonly RunFactKind[] = ['file_change', 'command', 'test', 'failure'];

/** The parameters every statement receives beside $tenant. */
export const LINEAGE_RULE_PARAMETERS = {
  standingStatuses: STANDING_HANDOFF_STATUSES,
  coverageKinds: COVERAGE_TRANSFER_KINDS,
  replacedProviderThreadStatuses: REPLACED_PROVIDER_THREAD_STATUSES,
  stableRunStatuses: STABLE_RUN_STATUSES,
  subagentWorkKinds: SUBAGENT_WORK_FACT_KINDS,
} as const;
