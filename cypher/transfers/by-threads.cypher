// Every context transfer into or out of each thread, oldest first.
UNWIND $threadIds AS threadId
CALL (threadId) {
  MATCH (transfer:ContextTransfer {tenant: $tenant, sourceThreadId: threadId})
  RETURN transfer
  UNION
  MATCH (transfer:ContextTransfer {tenant: $tenant, targetThreadId: threadId})
  RETURN transfer
}
WITH threadId, transfer ORDER BY transfer.createdAt, transfer.id
RETURN threadId, collect(transfer {.*}) AS transfers
