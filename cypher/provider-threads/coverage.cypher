// What each provider thread knows: the live runs it served (native), the standing handoffs it
// received, and the ordinals those handoffs cover. Missing runs are worked out against the thread's
// history by src/domain/coverage.ts.
UNWIND $ids AS id
MATCH (providerThread:ProviderThread {tenant: $tenant, id: id})
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
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:DELIVERED_TO]-(handoff:ContextHandoff)-[:COVERS]->(covered:Run)
  WHERE handoff.status IN ['pending', 'ready'] AND handoff.transferKind IN ['provider_handoff', 'fork']
  RETURN collect(DISTINCT covered.ordinal) AS handoffOrdinals
}
RETURN id AS providerThreadId, providerThread.threadId AS threadId, providerThread.inheritedThroughOrdinal AS inheritedThroughOrdinal,
       nativeRunOrdinals, handoffIds, handoffOrdinals
