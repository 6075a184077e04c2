// A newer provider thread of the same provider replaces $id: it becomes stale, unless it already
// failed to resume, diverged or awaits a native rollback, which say more.
MATCH (providerThread:ProviderThread {tenant: $tenant, id: $id})
SET providerThread.status = CASE WHEN providerThread.status IN ['resume_failed', 'divergent', 'rolled_back'] THEN providerThread.status ELSE 'stale' END
RETURN providerThread {.*} AS providerThread
