// A provider thread's native ranges (servedFrom / servedTo: ascending, disjoint, not adjacent) hold exactly the ordinals of the live (not rolled-back) runs that USE it, and firstRunOrdinal / lastRunOrdinal are their lowest / highest ordinal, both absent when there is none.
MATCH (providerThread:ProviderThread)
WHERE $tenant IS NULL OR providerThread.tenant = $tenant
WITH providerThread, coalesce(providerThread.servedFrom, []) AS servedFrom, coalesce(providerThread.servedTo, []) AS servedTo
CALL (providerThread, servedFrom, servedTo) {
  OPTIONAL MATCH (providerThread)<-[:USES]-(served:Run)
  WHERE served.status <> 'rolled_back'
  RETURN min(served.ordinal) AS liveFirst, max(served.ordinal) AS liveLast, count(served) AS liveCount,
         count(CASE WHEN served IS NOT NULL AND NOT any(i IN range(0, size(servedFrom) - 1) WHERE servedFrom[i] <= served.ordinal <= servedTo[i]) THEN 1 END) AS outside
}
WITH providerThread, servedFrom, servedTo, liveFirst, liveLast, liveCount, outside,
     reduce(total = 0, i IN range(0, size(servedFrom) - 1) | total + servedTo[i] - servedFrom[i] + 1) AS rangeCount,
     size(servedFrom) = size(servedTo)
       AND all(i IN range(0, size(servedFrom) - 1) WHERE servedFrom[i] <= servedTo[i] AND (i = 0 OR servedFrom[i] > servedTo[i - 1] + 1)) AS wellFormed
WHERE NOT wellFormed OR outside > 0 OR rangeCount <> liveCount
   OR coalesce(providerThread.firstRunOrdinal, -1) <> coalesce(liveFirst, -1)
   OR coalesce(providerThread.lastRunOrdinal, -1) <> coalesce(liveLast, -1)
RETURN providerThread.tenant AS tenant, providerThread.threadId AS threadId, providerThread.id AS providerThreadId,
       servedFrom, servedTo, providerThread.firstRunOrdinal AS firstRunOrdinal, providerThread.lastRunOrdinal AS lastRunOrdinal,
       liveFirst, liveLast, liveCount
