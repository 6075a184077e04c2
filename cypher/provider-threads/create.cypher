// Creates provider thread $id of provider $provider on the thread. seq numbers the app thread's
// provider threads in creation order, so a provider's most recent one is an index seek.
// The caller holds the thread lock.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
WITH thread, thread.providerThreadCount + 1 AS seq
SET thread.providerThreadCount = seq
CREATE (providerThread:ProviderThread {
  tenant: $tenant, id: $id, threadId: $threadId, provider: $provider, seq: seq,
  status: 'idle', servedFrom: [], servedTo: [], standingHandoffCount: 0, model: $model, runtimeMode: $runtimeMode, createdAt: datetime(),
  forkedFromId: $forkedFromId, inheritedThroughOrdinal: $inheritedThroughOrdinal,
  caption: $provider + ' #' + toString(seq)
})
CREATE (thread)-[:HAS_PROVIDER_THREAD]->(providerThread)
WITH providerThread
// A native fork: the new provider thread continues the source one's native conversation.
OPTIONAL MATCH (source:ProviderThread {tenant: $tenant, id: $forkedFromId})
FOREACH (_ IN CASE WHEN source IS NULL THEN [] ELSE [1] END | CREATE (providerThread)-[:FORKED_FROM]->(source))
RETURN providerThread {.*} AS providerThread
