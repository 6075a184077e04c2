// The orchestrator reports how a native rollback went: rolled_back becomes $status (idle when it
// was performed, divergent when it failed). Any other status is left alone and returned as is.
MATCH (providerThread:ProviderThread {tenant: $tenant, id: $id})
// Every caller holds the thread's lock already (lockThreadOf), which serializes a confirmation and a
// failure report; the provider thread's own lock keeps this check safe for a caller that would not.
SET providerThread._lock = true
REMOVE providerThread._lock
WITH providerThread, providerThread.status = 'rolled_back' AS settles
SET providerThread.status = CASE WHEN settles THEN $status ELSE providerThread.status END,
    providerThread.rollbackError = CASE WHEN settles THEN $error ELSE providerThread.rollbackError END,
    providerThread.statusReason = CASE WHEN NOT settles THEN providerThread.statusReason
                                       WHEN $error IS NULL THEN 'Its native rollback was confirmed.'
                                       ELSE 'Its native rollback failed: ' + $error END
RETURN providerThread {.*} AS providerThread, settles
