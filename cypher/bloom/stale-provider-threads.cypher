// Bloom search phrase: "Stale provider threads in tenant $tenant"
// Parameters: $tenant (string).
// Shows the provider threads of the tenant that the planner will not resume as they are: status
// `stale` (replaced after a staleness signal), `divergent` (no safe native rollback),
// `resume_failed` (the provider could not resume it) or `rolled_back` (a native rollback awaits
// confirmation), newest 100, each with its thread (HAS_PROVIDER_THREAD). Expand a thread, or run
// "Lineage of thread", to see the provider thread that replaced it.
// Returns paths, at most 100. Design example: none (no provider thread went stale).
MATCH (pt:ProviderThread {tenant: $tenant})
WHERE pt.threadId IS NOT NULL AND pt.provider IS NOT NULL AND pt.seq IS NOT NULL
  AND pt.status IN ['stale', 'divergent', 'resume_failed', 'rolled_back']
WITH pt ORDER BY pt.createdAt DESC, pt.id LIMIT 100
MATCH path = (:Thread {tenant: $tenant, id: pt.threadId})-[:HAS_PROVIDER_THREAD]->(pt)
RETURN path
LIMIT 100
