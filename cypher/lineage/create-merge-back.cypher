// A pending merge-back of fork $forkId into its source thread: from the fork's run $ordinal, with
// the fork point as base. The source thread's next run takes it in.
MATCH (fork:Thread {tenant: $tenant, id: $forkId})
MATCH (source:Thread {tenant: $tenant, id: fork.parentThreadId})
MATCH (run:Run {tenant: $tenant, threadId: fork.id, ordinal: $ordinal})
CREATE (transfer:ContextTransfer {
  tenant: $tenant, id: $transferId, kind: 'merge_back', status: 'pending', createdBy: 'user',
  sourceThreadId: fork.id, targetThreadId: source.id,
  sourceRunId: run.id, sourceRunOrdinal: run.ordinal, sourceProviderThreadId: run.providerThreadId,
  sourceProvider: run.provider, baseRunOrdinal: fork.forkOrdinal, baseRunId: fork.sourceRunId,
  createdAt: datetime(), caption: 'merge_back ' + fork.id
})
CREATE (transfer)-[:FROM_THREAD]->(fork)
CREATE (transfer)-[:TO_THREAD]->(source)
CREATE (transfer)-[:FROM_RUN]->(run)
RETURN transfer {.*} AS transfer
