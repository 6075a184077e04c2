// Each thread's forks or subagent threads ($relationship) that branched off one of its runs with
// ordinal $fromOrdinal..$toOrdinal, by that ordinal, at most $limit each. A range seek on (tenant,
// parentThreadId, sourceRunOrdinal), ordered by that full key so that it stops at the LIMIT: a window
// reads the children of its runs, not every child of the thread (lineage/children.cypher sorts them
// all by creation, and a long thread has thousands).
UNWIND $threadIds AS threadId
CALL (threadId) {
  MATCH (child:Thread {tenant: $tenant, parentThreadId: threadId})
  USING INDEX child:Thread(tenant, parentThreadId, sourceRunOrdinal)
  WHERE child.sourceRunOrdinal >= $fromOrdinal AND child.sourceRunOrdinal <= $toOrdinal
    AND child.relationshipToParent = $relationship
  WITH child ORDER BY child.tenant, child.parentThreadId, child.sourceRunOrdinal LIMIT $limit
  RETURN collect(child {.*}) AS children
}
RETURN threadId, children
