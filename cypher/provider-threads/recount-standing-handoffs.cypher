// Provider threads $ids recount their standing coverage after a statement ended some of their
// handoffs (failed, superseded, replaced, withdrawn by a rollback): how many switch or fork handoffs
// delivered to each still stand, and the highest ordinal they cover. handoffs/create adds to it as a
// handoff is written; only these rarer endings read every handoff a provider thread received.
UNWIND $ids AS id
MATCH (providerThread:ProviderThread {tenant: $tenant, id: id})
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:DELIVERED_TO]-(handoff:ContextHandoff)
  WHERE handoff.status IN $standingStatuses AND handoff.transferKind IN $coverageKinds
  RETURN count(handoff) AS standing, max(handoff.coveredTo) AS coveredThrough
}
SET providerThread.standingHandoffCount = standing, providerThread.handoffCoveredThrough = coveredThrough
