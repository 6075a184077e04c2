// Rollback step 4: each affected provider thread is rolled_back (a native rollback is asked for) or
// divergent, says why (update.reason), and its native ranges shrink to the live runs it served
// (update.served).
UNWIND $updates AS update
MATCH (providerThread:ProviderThread {tenant: $tenant, id: update.id})
SET providerThread.status = update.status, providerThread.statusReason = update.reason, providerThread += update.served
RETURN providerThread {.*} AS providerThread
