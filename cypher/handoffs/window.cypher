// The handoffs made for the runs $fromOrdinal..$toOrdinal of a thread, in the order of those runs,
// at most $limit, with their supersession links. Ordered by the full key of handoff_by_target_ordinal
// so the range seek stops at the LIMIT instead of reading every handoff of the thread. The hint keeps
// the planner from the (tenant, threadId) index, which it may estimate cheaper but which reads every
// handoff of the thread before the LIMIT.
MATCH (handoff:ContextHandoff {tenant: $tenant, threadId: $threadId})
USING INDEX handoff:ContextHandoff(tenant, threadId, targetRunOrdinal)
WHERE $fromOrdinal <= handoff.targetRunOrdinal <= $toOrdinal
WITH handoff ORDER BY handoff.tenant, handoff.threadId, handoff.targetRunOrdinal
LIMIT $limit
OPTIONAL MATCH (handoff)-[:SUPERSEDES]->(older:ContextHandoff)
OPTIONAL MATCH (newer:ContextHandoff)-[:SUPERSEDES]->(handoff)
RETURN handoff {.*, supersedesId: older.id, supersededById: newer.id} AS handoff
ORDER BY handoff.targetRunOrdinal, handoff.createdAt, handoff.id
