// Rollback step 2: every standing handoff that covers a rolled-back run, or was made for one, is
// superseded: nothing replaces it, the rollback withdrew what it described.
UNWIND $runIds AS runId
MATCH (run:Run {tenant: $tenant, id: runId})
CALL (run) {
  MATCH (handoff:ContextHandoff)-[:COVERS]->(run)
  RETURN handoff
  UNION
  MATCH (run)-[:USES]->(handoff:ContextHandoff)
  RETURN handoff
}
WITH DISTINCT handoff
// Only this thread's handoffs: a fork keeps the context it inherited, a source keeps its merge-backs.
WHERE handoff.status IN ['pending', 'ready'] AND handoff.threadId = $threadId
SET handoff.status = 'superseded', handoff.updatedAt = datetime(), handoff.supersededByRollback = true
RETURN handoff {.*} AS handoff
ORDER BY handoff.createdAt, handoff.id
