// Bloom scene action: "Handoffs covering", available on the Run category.
// Parameters: $nodes (set by Bloom: the element ids of the selected nodes; nodes that are not runs
// are ignored, at most 20 runs are expanded).
// Shows, for each selected run, what the search phrase "Handoffs covering run $runId in tenant
// $tenant" (handoffs-covering-run.cypher) shows: the provider thread that served it and every
// handoff that COVERS it (newest 100 per run), with the provider thread each was DELIVERED_TO and
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
  MATCH (run)<-[:COVERS]-(handoff:ContextHandoff)
  WITH handoff ORDER BY handoff.createdAt DESC, handoff.id LIMIT 100
  CALL (run, handoff) {
    MATCH path = (run)<-[:COVERS]-(handoff)-[:DELIVERED_TO]->(:ProviderThread)
    RETURN path
    UNION
    MATCH path = (run)<-[:COVERS]-(handoff)<-[:USES]-(:Run)
    RETURN path
  }
  RETURN path
}
RETURN path
LIMIT 500
