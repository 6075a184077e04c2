// A provider thread's firstRunOrdinal / lastRunOrdinal are the lowest / highest ordinals of the live (not rolled-back) runs that USE it, and both are absent when there is none.
MATCH (providerThread:ProviderThread)
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:USES]-(served:Run)
  WHERE served.status <> 'rolled_back'
  RETURN min(served.ordinal) AS liveFirst, max(served.ordinal) AS liveLast
}
WITH providerThread, liveFirst, liveLast
WHERE coalesce(providerThread.firstRunOrdinal, -1) <> coalesce(liveFirst, -1)
   OR coalesce(providerThread.lastRunOrdinal, -1) <> coalesce(liveLast, -1)
RETURN providerThread.tenant AS tenant, providerThread.threadId AS threadId, providerThread.id AS providerThreadId,
       providerThread.firstRunOrdinal AS firstRunOrdinal, providerThread.lastRunOrdinal AS lastRunOrdinal, liveFirst, liveLast
