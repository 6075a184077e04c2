// Bloom scene action: "Handoffs covering", for selected runs (offered on the Run category).
// Parameters: $nodes (set by Bloom: the element ids of the selected nodes; nodes that are not runs
// are ignored, at most 20 runs are expanded).
// Shows, for each selected run, what the search phrase "Handoffs covering run $runId in tenant
// $tenant" (handoffs-covering-run.cypher) shows: the provider thread that served it and every
// handoff of its thread whose range holds it (newest 100 per run, with the COVERS edges to the
// first and last run of each range), with the provider thread each was DELIVERED_TO and
// the run that USES it.
// Returns paths, at most 500.
UNWIND $nodes AS nodeId
MATCH (run:Run)
WHERE elementId(run) = nodeId
WITH DISTINCT run
WITH run LIMIT 20
CALL (run) {
  MATCH path = (run)-[:USES]->(:ProviderThread)
  RETURN path
  UNION
  // A handoff covers the live runs of its range: the handoffs of the run's thread, and of its direct
  // forks that inherited the run, whose range holds its ordinal (index seeks on (tenant, threadId,
  // coveredTo) and (tenant, parentThreadId)), drawn with the COVERS edges to the first and last run
  // of the range.
  CALL (run) {
    RETURN run.threadId AS holderId
    UNION
    MATCH (fork:Thread {tenant: run.tenant, parentThreadId: run.threadId})
    WHERE fork.relationshipToParent = 'fork' AND fork.forkOrdinal >= run.ordinal
    RETURN fork.id AS holderId
  }
  MATCH (handoff:ContextHandoff {tenant: run.tenant, threadId: holderId})
  WHERE handoff.coveredTo >= run.ordinal AND handoff.coveredFrom <= run.ordinal AND handoff.transferKind IN ['provider_handoff', 'fork']
  WITH handoff ORDER BY handoff.createdAt DESC, handoff.id LIMIT 100
  CALL (handoff) {
    MATCH path = (:Run)<-[:COVERS]-(handoff)-[:DELIVERED_TO]->(:ProviderThread)
    RETURN path
    UNION
    MATCH path = (:Run)<-[:COVERS]-(handoff)<-[:USES]-(:Run)
    RETURN path
  }
  RETURN path
}
RETURN path
LIMIT 500
