// The transfers with a point in thread $threadId within $fromOrdinal..$toOrdinal, oldest first, at
// most $limit. Each part is an index seek that reads the window only, whatever the thread's length;
// the range seeks are ordered by their index's full key, so their LIMIT stops the read:
// - out of the thread from a run of the range (transfer_by_source_ordinal);
// - into it, taken in by a run of the range: the transfers materialized as its handoffs
//   (handoff_by_target_ordinal);
// - the transfer that created a fork or subagent thread, at its first own ordinal: a native fork
//   has no handoff, so it is found from the parent's side, at the thread's source run;
// - pending ones, which its next run (lastOrdinal + 1) takes in (transfer_by_target_status).
// The hints keep the planner from the two-key (tenant, sourceThreadId | targetThreadId | threadId)
// indexes, which it may estimate cheaper but which read every transfer or handoff of the thread.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
CALL (thread) {
  MATCH (transfer:ContextTransfer {tenant: $tenant, sourceThreadId: $threadId})
  USING INDEX transfer:ContextTransfer(tenant, sourceThreadId, sourceRunOrdinal)
  WHERE $fromOrdinal <= transfer.sourceRunOrdinal <= $toOrdinal
  WITH transfer ORDER BY transfer.tenant, transfer.sourceThreadId, transfer.sourceRunOrdinal
  LIMIT $limit
  RETURN transfer
  UNION
  MATCH (handoff:ContextHandoff {tenant: $tenant, threadId: $threadId})
  USING INDEX handoff:ContextHandoff(tenant, threadId, targetRunOrdinal)
  WHERE $fromOrdinal <= handoff.targetRunOrdinal <= $toOrdinal
  WITH handoff ORDER BY handoff.tenant, handoff.threadId, handoff.targetRunOrdinal
  LIMIT $limit
  MATCH (transfer:ContextTransfer)-[:MATERIALIZED_AS]->(handoff)
  RETURN transfer
  UNION
  MATCH (transfer:ContextTransfer {tenant: $tenant, sourceThreadId: thread.parentThreadId, sourceRunOrdinal: thread.sourceRunOrdinal})
  USING INDEX transfer:ContextTransfer(tenant, sourceThreadId, sourceRunOrdinal)
  WHERE transfer.targetThreadId = $threadId AND $fromOrdinal <= coalesce(thread.forkOrdinal, 0) + 1 <= $toOrdinal
  RETURN transfer
  UNION
  MATCH (transfer:ContextTransfer {tenant: $tenant, targetThreadId: $threadId, status: 'pending'})
  USING INDEX transfer:ContextTransfer(tenant, targetThreadId, status)
  WHERE $fromOrdinal <= thread.lastOrdinal + 1 <= $toOrdinal
  WITH transfer ORDER BY transfer.tenant, transfer.targetThreadId, transfer.status
  LIMIT $limit
  RETURN transfer
}
WITH transfer ORDER BY transfer.createdAt, transfer.id
LIMIT $limit
RETURN transfer {.*} AS transfer
