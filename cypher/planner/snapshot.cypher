// The bounded neighbourhood the planner decides from (PlanningSnapshot in src/domain/planner.ts):
// the thread's head run, provider $provider's most recent provider thread on the thread (the
// target), what the target knows, and the live runs since its last native run, oldest first, at
// most $runWindow of them. Every read is an index seek on (tenant, threadId, ordinal | provider),
// so the cost does not depend on how long the thread is.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
OPTIONAL MATCH (head:Run {tenant: $tenant, threadId: $threadId, ordinal: thread.headOrdinal})
CALL (thread) {
  // Ordering by every key of the (tenant, threadId, provider, seq) index, not by seq alone, is what
  // lets Neo4j read the index backwards and stop at the first row instead of sorting every provider
  // thread of that provider.
  OPTIONAL MATCH (candidate:ProviderThread {tenant: $tenant, threadId: $threadId, provider: $provider})
  WHERE candidate.seq IS NOT NULL
  RETURN candidate AS target ORDER BY candidate.tenant DESC, candidate.threadId DESC, candidate.provider DESC, candidate.seq DESC LIMIT 1
}
CALL (target) {
  // Only handoffs of the thread's own history count as coverage, not merge-backs or subagent context.
  OPTIONAL MATCH (target)<-[:DELIVERED_TO]-(handoff:ContextHandoff)
  WHERE handoff.status IN $standingStatuses AND handoff.transferKind IN $coverageKinds
  RETURN count(handoff) AS standingHandoffs, max(handoff.coveredTo) AS handoffCoveredThrough
}
CALL (target) {
  OPTIONAL MATCH (later:Run {tenant: $tenant, threadId: $threadId})
  WHERE target IS NOT NULL AND later.ordinal > coalesce(target.lastRunOrdinal, target.inheritedThroughOrdinal, 0) AND later.status <> 'rolled_back'
  // The full key of the (tenant, threadId, ordinal) constraint's index again: read in order, the
  // LIMIT stops the read however many runs the target has missed.
  WITH later ORDER BY later.tenant, later.threadId, later.ordinal LIMIT $runWindow
  RETURN collect(later {.ordinal, .providerThreadId}) AS runsSinceLastNative
}
RETURN thread {.*} AS thread,
       thread.headOrdinal AS headOrdinal,
       head.providerThreadId AS headProviderThreadId,
       head.provider AS headProvider,
       target {.*} AS target,
       standingHandoffs,
       handoffCoveredThrough,
       runsSinceLastNative
