// A provider thread's stored standing coverage (standingHandoffCount, handoffCoveredThrough) agrees with the standing switch and fork handoffs DELIVERED_TO it.
// Every provider thread carries it since migration 015: a missing count is a violation too, since the planner would read it as 0.
MATCH (providerThread:ProviderThread)
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:DELIVERED_TO]-(handoff:ContextHandoff)
  WHERE handoff.status IN $standingStatuses AND handoff.transferKind IN $coverageKinds
  RETURN count(handoff) AS standing, max(handoff.coveredTo) AS coveredThrough
}
WITH providerThread, standing, coveredThrough
WHERE coalesce(providerThread.standingHandoffCount, -1) <> standing
   OR coalesce(providerThread.handoffCoveredThrough, -1) <> coalesce(coveredThrough, -1)
RETURN providerThread.tenant AS tenant, providerThread.threadId AS threadId, providerThread.id AS providerThreadId,
       providerThread.standingHandoffCount AS storedCount, standing AS standingCount,
       providerThread.handoffCoveredThrough AS storedCoveredThrough, coveredThrough
