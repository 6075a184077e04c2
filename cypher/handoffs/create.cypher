// Materializes a context transfer as handoff $handoff for run $handoff.targetRunId: the transfer,
// the handoff, and the edges that make it auditable: the run USES it, it is DELIVERED_TO the target
// provider thread, DRAWN_FROM the provider threads that served the covered runs, and it COVERS each
// live run in its range.
MATCH (thread:Thread {tenant: $tenant, id: $handoff.threadId})
MATCH (run:Run {tenant: $tenant, id: $handoff.targetRunId})
MATCH (target:ProviderThread {tenant: $tenant, id: $handoff.toProviderThreadId})
CREATE (transfer:ContextTransfer)
SET transfer = $transfer,
    transfer.tenant = $tenant,
    transfer.handoffId = $handoff.id,
    transfer.caption = $transfer.kind + ' ' + $handoff.id,
    transfer.createdAt = datetime(),
    transfer.consumedAt = CASE WHEN $transfer.status = 'consumed' THEN datetime() END
CREATE (handoff:ContextHandoff)
SET handoff = $handoff,
    handoff.tenant = $tenant,
    handoff.transferId = $transfer.id,
    handoff.caption = $handoff.strategy + ' ' + toString($handoff.coveredFrom) + '-' + toString($handoff.coveredTo),
    handoff.createdAt = datetime(),
    handoff.updatedAt = datetime()
CREATE (transfer)-[:MATERIALIZED_AS]->(handoff)
CREATE (transfer)-[:FROM_THREAD]->(thread)
CREATE (transfer)-[:TO_THREAD]->(thread)
CREATE (run)-[:USES]->(handoff)
CREATE (handoff)-[:DELIVERED_TO]->(target)
SET run.contextHandoffId = handoff.id
WITH thread, transfer, handoff
CALL (transfer) {
  OPTIONAL MATCH (source:Run {tenant: $tenant, threadId: transfer.sourceThreadId, ordinal: transfer.sourceRunOrdinal})
  FOREACH (_ IN CASE WHEN source IS NULL THEN [] ELSE [1] END |
    CREATE (transfer)-[:FROM_RUN]->(source)
    SET transfer.sourceRunId = source.id, transfer.sourceProvider = coalesce(transfer.sourceProvider, source.provider))
}
CALL (transfer) {
  OPTIONAL MATCH (base:Run {tenant: $tenant, threadId: transfer.sourceThreadId, ordinal: transfer.baseRunOrdinal})
  FOREACH (_ IN CASE WHEN base IS NULL THEN [] ELSE [1] END |
    CREATE (transfer)-[:BASE_RUN]->(base)
    SET transfer.baseRunId = base.id)
}
CALL (handoff) {
  UNWIND handoff.fromProviderThreadIds AS sourceId
  MATCH (source:ProviderThread {tenant: $tenant, id: sourceId})
  CREATE (handoff)-[:DRAWN_FROM]->(source)
}
CALL (handoff) {
  MATCH (covered:Run {tenant: $tenant, threadId: handoff.threadId})
  WHERE covered.ordinal >= handoff.coveredFrom AND covered.ordinal <= handoff.coveredTo AND covered.status <> 'rolled_back'
  CREATE (handoff)-[:COVERS]->(covered)
}
RETURN handoff {.*} AS handoff
