// Rollback step 4: each affected provider thread is rolled_back (a native rollback is asked for) or
// divergent, and its native range shrinks to the live runs it served.
UNWIND $updates AS update
MATCH (providerThread:ProviderThread {tenant: $tenant, id: update.id})
SET providerThread.status = update.status
WITH providerThread
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:USES]-(served:Run)
  WHERE served.status <> 'rolled_back'
  RETURN min(served.ordinal) AS first, max(served.ordinal) AS last
}
SET providerThread.firstRunOrdinal = first, providerThread.lastRunOrdinal = last
RETURN providerThread {.*} AS providerThread
