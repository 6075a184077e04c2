// A run has at most one standing handoff besides its subagent results, and its contextHandoffId names it (on a live run, always a standing handoff written for it); no handoff that a newer one SUPERSEDES is standing.
MATCH (handoff:ContextHandoff)
WHERE handoff.status IN $standingStatuses AND handoff.transferKind <> 'subagent_result' AND ($tenant IS NULL OR handoff.tenant = $tenant)
WITH handoff ORDER BY handoff.id
WITH handoff.tenant AS tenant, handoff.targetRunId AS runId, collect(handoff.id) AS handoffIds
OPTIONAL MATCH (run:Run {tenant: tenant, id: runId})
WITH tenant, runId, handoffIds, run
WHERE size(handoffIds) > 1 OR NOT coalesce(run.contextHandoffId = handoffIds[0], false)
RETURN tenant, run.threadId AS threadId, runId, run.contextHandoffId AS contextHandoffId, handoffIds,
       CASE WHEN size(handoffIds) > 1 THEN 'several standing handoffs for one run' ELSE 'its contextHandoffId does not name its standing handoff' END AS problem
UNION
MATCH (run:Run)
WHERE run.contextHandoffId IS NOT NULL AND run.status <> 'rolled_back' AND ($tenant IS NULL OR run.tenant = $tenant)
OPTIONAL MATCH (handoff:ContextHandoff {tenant: run.tenant, id: run.contextHandoffId})
WITH run, handoff
WHERE NOT coalesce(handoff.status IN $standingStatuses AND handoff.targetRunId = run.id, false)
RETURN run.tenant AS tenant, run.threadId AS threadId, run.id AS runId, run.contextHandoffId AS contextHandoffId,
       [id IN [handoff.id] WHERE id IS NOT NULL] AS handoffIds, 'a live run whose contextHandoffId is not a standing handoff written for it' AS problem
UNION
MATCH (newer:ContextHandoff)-[:SUPERSEDES]->(older:ContextHandoff)
WHERE older.status IN $standingStatuses AND ($tenant IS NULL OR older.tenant = $tenant)
RETURN older.tenant AS tenant, older.threadId AS threadId, older.targetRunId AS runId, null AS contextHandoffId,
       [newer.id, older.id] AS handoffIds, 'a handoff that a newer one SUPERSEDES is still standing' AS problem
