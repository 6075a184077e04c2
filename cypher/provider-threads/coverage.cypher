// What each provider thread knows: its native ranges (stored on it), the standing handoffs it
// received, and the ranges of those that count as coverage (a switch's or a fork's context: a
// merge-back's range is in the fork's ordinals, a subagent's covers nothing). The reads are the
// provider thread's properties and its handoffs, whatever the length of the thread;
// src/domain/coverage.ts combines them with the thread's live history.
UNWIND $ids AS id
MATCH (providerThread:ProviderThread {tenant: $tenant, id: id})
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:DELIVERED_TO]-(handoff:ContextHandoff)
  WHERE handoff.status IN $standingStatuses
  WITH handoff ORDER BY handoff.createdAt, handoff.id
  RETURN collect(handoff.id) AS handoffIds,
         collect(CASE WHEN handoff.transferKind IN $coverageKinds THEN {from: handoff.coveredFrom, to: handoff.coveredTo} END) AS handoffRanges
}
RETURN id AS providerThreadId, providerThread.threadId AS threadId, providerThread.inheritedThroughOrdinal AS inheritedThroughOrdinal,
       coalesce(providerThread.servedFrom, []) AS servedFrom, coalesce(providerThread.servedTo, []) AS servedTo,
       handoffIds, handoffRanges
