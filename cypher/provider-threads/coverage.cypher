// What each provider thread knows: its native ranges (stored on it), the standing handoffs it
// received, and the ranges of those that count as coverage (a switch's or a fork's context: a
// merge-back's range is in the fork's ordinals, a subagent's covers nothing), with its app thread's
// allocated ordinals and rolled-back ranges; src/domain/coverage.ts combines them. Each key asks for
// the whole history (from and to null) or a window of it: then only the handoffs whose range meets
// the window or whose target run lies in it and the rolled-back ranges that meet it are read, so a
// window's answer does not grow with the thread's switches and rollbacks.
UNWIND $keys AS key
MATCH (providerThread:ProviderThread {tenant: $tenant, id: key.id})
MATCH (thread:Thread {tenant: $tenant, id: providerThread.threadId})
CALL (providerThread, key) {
  OPTIONAL MATCH (providerThread)<-[:DELIVERED_TO]-(handoff:ContextHandoff)
  WHERE handoff.status IN $standingStatuses
    AND (key.from IS NULL
         OR (handoff.coveredTo >= key.from AND handoff.coveredFrom <= key.to)
         OR (handoff.targetRunOrdinal >= key.from AND handoff.targetRunOrdinal <= key.to))
  WITH handoff ORDER BY handoff.createdAt, handoff.id
  RETURN collect(handoff.id) AS handoffIds,
         collect(CASE WHEN handoff.transferKind IN $coverageKinds THEN {from: handoff.coveredFrom, to: handoff.coveredTo} END) AS handoffRanges
}
WITH key, providerThread, thread, handoffIds, handoffRanges,
     coalesce(thread.rolledBackFrom, []) AS rolledBackFrom, coalesce(thread.rolledBackTo, []) AS rolledBackTo
RETURN key.id AS providerThreadId, key.from AS fromOrdinal, key.to AS toOrdinal, providerThread.inheritedThroughOrdinal AS inheritedThroughOrdinal,
       coalesce(providerThread.servedFrom, []) AS servedFrom, coalesce(providerThread.servedTo, []) AS servedTo,
       handoffIds, handoffRanges, thread.lastOrdinal AS lastOrdinal,
       [i IN range(0, size(rolledBackFrom) - 1)
        WHERE key.from IS NULL OR (rolledBackTo[i] >= key.from AND rolledBackFrom[i] <= key.to)
        | {from: rolledBackFrom[i], to: rolledBackTo[i]}] AS rolledBack
