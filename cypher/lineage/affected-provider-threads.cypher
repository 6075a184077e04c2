// Rollback step 3: the provider threads whose native or handoff coverage included a rolled-back run,
// with how many of their own turns were rolled back and whether they knew anything at or below
// $toOrdinal (natively, or inherited through a native fork).
MATCH (:Thread {tenant: $tenant, id: $threadId})-[:HAS_PROVIDER_THREAD]->(providerThread:ProviderThread)
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:USES]-(turn:Run)
  WHERE turn.id IN $runIds
  RETURN count(turn) AS turnsToDrop
}
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:DELIVERED_TO]-(handoff:ContextHandoff)
  WHERE handoff.id IN $handoffIds
  RETURN count(handoff) AS withdrawnHandoffs
}
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:USES]-(kept:Run)
  WHERE kept.ordinal <= $toOrdinal AND kept.status <> 'rolled_back'
  WITH count(kept) AS keptRuns
  RETURN keptRuns > 0 OR ($toOrdinal > 0 AND coalesce(providerThread.inheritedThroughOrdinal, 0) >= $toOrdinal) AS keepsEarlierRuns
}
WITH providerThread, turnsToDrop, withdrawnHandoffs, keepsEarlierRuns
WHERE turnsToDrop > 0 OR withdrawnHandoffs > 0
RETURN providerThread {.*} AS providerThread, turnsToDrop, keepsEarlierRuns
ORDER BY providerThread.seq
