// A provider thread's stored standing coverage (standingHandoffCount, handoffCoveredThrough) agrees with the standing switch and fork handoffs DELIVERED_TO it.
// A store written before migration 015 lacks it until the migration runs (the service serves only after), so only a stored value is checked.
MATCH (providerThread:ProviderThread)
WHERE providerThread.standingHandoffCount IS NOT NULL AND ($tenant IS NULL OR providerThread.tenant = $tenant)
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:DELIVERED_TO]-(handoff:ContextHandoff)
  WHERE handoff.status IN $standingStatuses AND handoff.transferKind IN $coverageKinds
  RETURN count(handoff) AS standing, max(handoff.coveredTo) AS coveredThrough
}
WITH providerThread, standing, coveredThrough
WHERE providerThread.standingHandoffCount <> standing
   OR coalesce(providerThread.handoffCoveredThrough, -1) <> coalesce(coveredThrough, -1)
RETURN providerThread.tenant AS tenant, providerThread.threadId AS threadId, providerThread.id AS providerThreadId,
       providerThread.standingHandoffCount AS storedCount, standing AS standingCount,
       providerThread.handoffCoveredThrough AS storedCoveredThrough, coveredThrough
