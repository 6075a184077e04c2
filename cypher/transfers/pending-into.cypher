// The pending transfers a thread's next run resolves (fork, subagent spawn, merge-back), oldest
// first, with the source provider thread of a fork and the number of its turns the fork keeps.
MATCH (transfer:ContextTransfer {tenant: $tenant, targetThreadId: $threadId})
WHERE transfer.status = 'pending'
OPTIONAL MATCH (source:ProviderThread {tenant: $tenant, id: transfer.sourceProviderThreadId})
CALL (transfer, source) {
  OPTIONAL MATCH (source)<-[:USES]-(turn:Run)
  WHERE turn.ordinal <= transfer.sourceRunOrdinal
    AND (turn.status <> 'rolled_back' OR turn.rolledBackAt > transfer.createdAt)
  RETURN count(turn) AS sourceTurns
}
RETURN transfer {.*} AS transfer, source {.*} AS sourceProviderThread, sourceTurns
ORDER BY transfer.createdAt, transfer.id
