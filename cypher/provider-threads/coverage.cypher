// Coverage of each provider thread: the live runs it served (native), the standing handoffs it
// received, and the thread's live runs it knows neither way (missing).
UNWIND $ids AS id
MATCH (providerThread:ProviderThread {tenant: $tenant, id: id})
MATCH (thread:Thread {tenant: $tenant, id: providerThread.threadId})
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:USES]-(native:Run)
  WHERE native.status <> 'rolled_back'
  WITH native ORDER BY native.ordinal
  RETURN collect(native.ordinal) AS nativeRunOrdinals
}
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:DELIVERED_TO]-(handoff:ContextHandoff)
  WHERE handoff.status IN ['pending', 'ready']
  WITH handoff ORDER BY handoff.createdAt, handoff.id
  RETURN collect(handoff.id) AS handoffIds
}
CALL (providerThread, thread) {
  OPTIONAL MATCH (missing:Run {tenant: $tenant, threadId: thread.id})
  WHERE missing.ordinal IS NOT NULL AND missing.status <> 'rolled_back'
    AND NOT (missing)-[:USES]->(providerThread)
    AND NOT EXISTS {
      MATCH (missing)<-[:COVERS]-(covering:ContextHandoff)-[:DELIVERED_TO]->(providerThread)
      WHERE covering.status IN ['pending', 'ready']
    }
  WITH missing ORDER BY missing.ordinal
  RETURN collect(missing.ordinal) AS missingRunOrdinals
}
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:DELIVERED_TO]-(handoff:ContextHandoff)
  WHERE handoff.status IN ['pending', 'ready']
  RETURN max(handoff.coveredTo) AS handoffCoveredThrough
}
RETURN id AS providerThreadId, nativeRunOrdinals, handoffIds, missingRunOrdinals,
       CASE WHEN coalesce(handoffCoveredThrough, 0) > coalesce(providerThread.lastRunOrdinal, 0)
            THEN handoffCoveredThrough ELSE coalesce(providerThread.lastRunOrdinal, 0) END AS coveredThroughOrdinal
