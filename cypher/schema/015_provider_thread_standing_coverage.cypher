// Every provider thread keeps the count of the standing switch or fork handoffs delivered to it and
// the highest ordinal they cover (see handoffs/create): a store written before gets them from its
// edges, in batches, so it can run again.
MATCH (providerThread:ProviderThread)
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:DELIVERED_TO]-(handoff:ContextHandoff)
  WHERE handoff.status IN ['pending', 'ready'] AND handoff.transferKind IN ['provider_handoff', 'fork']
  WITH providerThread, count(handoff) AS standing, max(handoff.coveredTo) AS coveredThrough
  SET providerThread.standingHandoffCount = standing, providerThread.handoffCoveredThrough = coveredThrough
} IN TRANSACTIONS OF 500 ROWS;
