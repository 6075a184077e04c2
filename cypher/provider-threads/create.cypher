// Creates provider thread $id of provider $provider on the thread. seq orders a provider's
// threads on one app thread, so "the most recent one" is an index seek. Caller holds the thread lock.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
WITH thread, thread.providerThreadCount + 1 AS seq
SET thread.providerThreadCount = seq
CREATE (providerThread:ProviderThread {
  tenant: $tenant, id: $id, threadId: $threadId, provider: $provider, seq: seq,
  status: 'idle', model: $model, runtimeMode: $runtimeMode, createdAt: datetime(),
  caption: $provider + ' #' + toString(seq)
})
CREATE (thread)-[:HAS_PROVIDER_THREAD]->(providerThread)
RETURN providerThread {.*} AS providerThread
