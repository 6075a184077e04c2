// Each thread's forks or subagent threads ($relationship), oldest first, at most $limit each.
UNWIND $threadIds AS threadId
CALL (threadId) {
  MATCH (child:Thread {tenant: $tenant, parentThreadId: threadId})
  WHERE child.relationshipToParent = $relationship
  WITH child ORDER BY child.createdAt, child.id LIMIT $limit
  RETURN collect(child {.*}) AS children
}
RETURN threadId, children
