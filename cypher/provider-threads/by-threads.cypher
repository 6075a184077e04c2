// Each thread's provider threads in creation order.
UNWIND $threadIds AS threadId
MATCH (:Thread {tenant: $tenant, id: threadId})-[:HAS_PROVIDER_THREAD]->(providerThread:ProviderThread)
WITH threadId, providerThread ORDER BY providerThread.seq
RETURN threadId, collect(providerThread {.*}) AS providerThreads
