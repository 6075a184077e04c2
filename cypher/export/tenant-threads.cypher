// Export: the ids of every thread of tenant $tenant (root threads, forks and subagent threads), for
// `npm run export -- --tenant ID`. Parameters: $tenant. Columns: threadId, ordered by id.
MATCH (thread:Thread {tenant: $tenant})
WHERE thread.id IS NOT NULL
RETURN thread.id AS threadId
ORDER BY threadId
