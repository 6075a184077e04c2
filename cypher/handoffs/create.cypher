// Materializes a context transfer as handoff $handoff for run $handoff.targetRunId: the transfer,
// the handoff, and the edges that make it auditable: the run USES it, it is DELIVERED_TO the target
// provider thread, DRAWN_FROM the provider threads that served the covered runs, and it COVERS the
// first and the last live run of its range. Which runs it covers is its range (coveredFrom..coveredTo)
// less the ordinals its thread's history had rolled back, so the edges it writes do not grow with
// the range.
MATCH (thread:Thread {tenant: $tenant, id: $handoff.threadId})
MATCH (run:Run {tenant: $tenant, id: $handoff.targetRunId})
MATCH (target:ProviderThread {tenant: $tenant, id: $handoff.toProviderThreadId})
// The transfer is new for a provider switch; a pending fork, merge-back or subagent transfer
// already exists and is resolved by this handoff.
MERGE (transfer:ContextTransfer {id: $transfer.id})
ON CREATE SET
    transfer += $transfer,
    transfer.tenant = $tenant,
    transfer.caption = $transfer.kind + ' ' + $handoff.id,
    transfer.createdAt = datetime()
SET transfer.status = $transfer.status,
    transfer.resolution = $transfer.resolution,
    transfer.targetProvider = $transfer.targetProvider,
    transfer.handoffId = $handoff.id,
    transfer.consumedAt = CASE WHEN $transfer.status = 'consumed' THEN datetime() END
CREATE (handoff:ContextHandoff)
SET handoff = $handoff,
    handoff.tenant = $tenant,
    handoff.transferId = $transfer.id,
    handoff.transferKind = transfer.kind,
    handoff.caption = $handoff.strategy + ' ' + toString($handoff.coveredFrom) + '-' + toString($handoff.coveredTo),
    handoff.targetRunOrdinal = run.ordinal,
    handoff.createdAt = datetime(),
    handoff.updatedAt = datetime(),
    handoff.length = size($handoff.summaryText),
    handoff.requestedAt = datetime(),
    handoff.writtenAt = CASE WHEN $handoff.status = 'ready' THEN datetime() END,
    handoff.usedAt = CASE WHEN $handoff.status = 'ready' THEN datetime() END,
    // The input document (the whole covered history, up to a few hundred thousand characters) is kept
    // only while a writer still has to read it: a handoff written now keeps its text, digest and receipt.
    handoff.inputDocument = CASE WHEN $handoff.status = 'pending' THEN $handoff.inputDocument END
CREATE (transfer)-[:MATERIALIZED_AS]->(handoff)
MERGE (transfer)-[:TO_THREAD]->(thread)
WITH thread, run, target, transfer, handoff
MATCH (source:Thread {tenant: $tenant, id: transfer.sourceThreadId})
MERGE (transfer)-[:FROM_THREAD]->(source)
CREATE (run)-[:USES]->(handoff)
CREATE (handoff)-[:DELIVERED_TO]->(target)
SET run.contextHandoffId = handoff.id
// The target keeps its standing coverage (count and highest covered ordinal) so the planner reads it
// without expanding every handoff the provider thread ever received; the statements that end a
// handoff recount it (provider-threads/recount-standing-handoffs).
FOREACH (_ IN CASE WHEN handoff.status IN $standingStatuses AND handoff.transferKind IN $coverageKinds THEN [1] ELSE [] END |
  SET target.standingHandoffCount = coalesce(target.standingHandoffCount, 0) + 1,
      target.handoffCoveredThrough = CASE WHEN coalesce(target.handoffCoveredThrough, -1) >= handoff.coveredTo
                                          THEN target.handoffCoveredThrough ELSE handoff.coveredTo END)
WITH transfer, handoff
CALL (transfer) {
  OPTIONAL MATCH (source:Run {tenant: $tenant, threadId: transfer.sourceThreadId, ordinal: transfer.sourceRunOrdinal})
  FOREACH (_ IN CASE WHEN source IS NULL THEN [] ELSE [1] END |
    MERGE (transfer)-[:FROM_RUN]->(source)
    SET transfer.sourceRunId = source.id, transfer.sourceProvider = coalesce(transfer.sourceProvider, source.provider))
}
CALL (transfer) {
  OPTIONAL MATCH (base:Run {tenant: $tenant, threadId: transfer.sourceThreadId, ordinal: transfer.baseRunOrdinal})
  FOREACH (_ IN CASE WHEN base IS NULL THEN [] ELSE [1] END |
    MERGE (transfer)-[:BASE_RUN]->(base)
    SET transfer.baseRunId = base.id)
}
// A merge-back taken in together with a provider switch: one handoff carries both parts.
CALL (handoff) {
  UNWIND $alsoResolves AS extraId
  MATCH (extra:ContextTransfer {tenant: $tenant, id: extraId})
  SET extra.status = 'consumed', extra.resolution = 'delta_context', extra.targetProvider = handoff.targetProvider,
      extra.handoffId = handoff.id, extra.consumedAt = datetime()
  CREATE (extra)-[:MATERIALIZED_AS]->(handoff)
}
CALL (handoff) {
  UNWIND handoff.fromProviderThreadIds AS sourceId
  MATCH (source:ProviderThread {tenant: $tenant, id: sourceId})
  CREATE (handoff)-[:DRAWN_FROM]->(source)
}
// The ends of the range may be runs of other threads: a fork's inherited runs live in its source,
// a merge-back covers the fork's runs.
CALL (handoff) {
  UNWIND $coverageEnds AS end
  MATCH (covered:Run {tenant: $tenant, threadId: end.threadId, ordinal: end.ordinal})
  CREATE (handoff)-[:COVERS]->(covered)
}
RETURN handoff {.*} AS handoff
