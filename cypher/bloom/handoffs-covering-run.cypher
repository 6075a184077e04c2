// Bloom search phrase: "Handoffs covering run $runId in tenant $tenant"
// Parameters: $tenant (string), $runId (string: Run.id, `run_...`).
// Shows how one run's work reached other provider threads: the run, the provider thread that served
// it (USES: native coverage), and every handoff of its thread, or of a direct fork that inherited
// it, whose range holds it (any status, newest 100), each with the first and last run of its range
// (COVERS), the provider thread it was
// DELIVERED_TO and the run it was written for (that run USES it; after a resume failure the
// superseded handoff no longer has this edge).
// Returns paths, at most 500. Design example, run 3: C1 served it; H1 covers it (COVERS runs 1 and
// 5), delivered to L1 and used by run 6 (7 nodes, 6 relationships).
MATCH (run:Run {tenant: $tenant, id: $runId})
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
