// A newer provider thread of the same provider replaces $id: it becomes stale, unless it already was
// replaced ($replacedProviderThreadStatuses: failed to resume, diverged or awaits a native rollback,
// which say more).
MATCH (providerThread:ProviderThread {tenant: $tenant, id: $id})
SET providerThread.status = CASE WHEN providerThread.status IN $replacedProviderThreadStatuses THEN providerThread.status ELSE 'stale' END
RETURN providerThread {.*} AS providerThread
