// The newest current checkpoint of each thread at or below its head.
UNWIND $threadIds AS threadId
MATCH (thread:Thread {tenant: $tenant, id: threadId})
CALL (thread) {
  MATCH (checkpoint:Checkpoint {tenant: $tenant, threadId: thread.id})
  WHERE checkpoint.status = 'current' AND checkpoint.runOrdinal <= thread.headOrdinal
  // The index's full key, so the newest checkpoint is read first rather than all of them sorted.
  RETURN checkpoint ORDER BY checkpoint.tenant DESC, checkpoint.threadId DESC, checkpoint.runOrdinal DESC LIMIT 1
}
RETURN threadId, checkpoint {.*} AS checkpoint
