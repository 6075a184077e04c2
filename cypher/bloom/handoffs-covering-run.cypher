// Bloom search phrase: "Handoffs covering run $runId in tenant $tenant"
// Parameters: $tenant (string), $runId (string: Run.id, `run_...`).
// Shows how one run's work reached other provider threads: the run, the provider thread that served
// it (USES: native coverage), and every handoff that COVERS it (any status, newest 100; a fork's
// portable context covers runs of its source thread too), each with the provider thread it was
// DELIVERED_TO and the run it was written for (that run USES it; after a resume failure the
// superseded handoff no longer has this edge).
// Returns paths, at most 500. Design example, run 3: C1 served it; H1 covers it, delivered to L1 and
// used by run 6 (5 nodes, 4 relationships).
MATCH (run:Run {tenant: $tenant, id: $runId})
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
