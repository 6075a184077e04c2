// A page of thread $threadId's provider threads in creation order: seq above $afterSeq, at most
// $first. A range seek on (tenant, threadId, seq), so a page costs the same whatever the thread's length.
MATCH (providerThread:ProviderThread {tenant: $tenant, threadId: $threadId})
WHERE providerThread.seq > $afterSeq
// Ordered by the whole index key and cut before the projection, so the seek is read in index order
// and stops at the limit.
WITH providerThread
ORDER BY providerThread.tenant, providerThread.threadId, providerThread.seq
LIMIT $first
RETURN providerThread {.*} AS providerThread
