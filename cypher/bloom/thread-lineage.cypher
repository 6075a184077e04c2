// Bloom search phrase: "Lineage of thread $threadId in tenant $tenant"
// Parameters: $tenant (string: the tenant, `local` in single-tenant mode), $threadId (string: Thread.id).
// Shows: the thread; its newest 200 runs (HAS_RUN) each with the provider thread that served it
// (USES); every provider thread attached to it (HAS_PROVIDER_THREAD, also one that never served a
// run); its newest 100 handoffs, superseded and failed ones included (colour them by status), each
// with the provider thread it was DELIVERED_TO, those it was DRAWN_FROM, the runs it COVERS (for a
// fork's portable context: runs of the source thread), the run that USES it and its SUPERSEDES links.
// Facts, checkpoints and transfers are left out: expand a run (RECORDED, CAPTURED) to see them.
// Returns paths, at most 1000. Design example: 14 nodes (the thread, runs 1-9, C1, L1, H1, H2) and
// 34 relationships.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
CALL (thread) {
  MATCH (run:Run {tenant: $tenant, threadId: thread.id})
  WHERE run.ordinal IS NOT NULL
  WITH run ORDER BY run.ordinal DESC LIMIT 200
  MATCH path = (thread)-[:HAS_RUN]->(run)-[:USES]->(:ProviderThread)
  RETURN path
  UNION
  MATCH path = (thread)-[:HAS_PROVIDER_THREAD]->(:ProviderThread)
  RETURN path
  UNION
  MATCH (handoff:ContextHandoff {tenant: $tenant, threadId: thread.id})
  WITH handoff ORDER BY handoff.createdAt DESC, handoff.id LIMIT 100
  CALL (handoff) {
    MATCH path = (handoff)-[:DELIVERED_TO|DRAWN_FROM]->(:ProviderThread)
    RETURN path
    UNION
    MATCH path = (handoff)-[:COVERS]->(:Run)
    RETURN path
    UNION
    MATCH path = (:Run)-[:USES]->(handoff)
    RETURN path
    UNION
    MATCH path = (handoff)-[:SUPERSEDES]->(:ContextHandoff)
    RETURN path
  }
  RETURN path
}
RETURN path
LIMIT 1000
