// Two lineage rules that many reads share, kept here once and handed to every Cypher statement as
// parameters ($standingStatuses, $coverageKinds, like $tenant) so no statement spells them out.

import type { HandoffStatus, TransferKind } from './records.js';

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

/** The parameters every statement receives beside $tenant. */
export const LINEAGE_RULE_PARAMETERS = {
  standingStatuses: STANDING_HANDOFF_STATUSES,
  coverageKinds: COVERAGE_TRANSFER_KINDS,
} as const;
