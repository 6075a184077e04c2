// Bloom scene action: "Lineage", for selected threads (offered on the Thread category).
// Parameters: $nodes (set by Bloom: the element ids of the selected nodes; nodes that are not
// threads are ignored, at most 10 threads are expanded).
// Shows, for each selected thread, what the search phrase "Lineage of thread $threadId in tenant
// $tenant" (thread-lineage.cypher) shows: its newest 200 runs with the provider thread that served
// each, its provider threads, and its newest 100 handoffs with their DELIVERED_TO, DRAWN_FROM,
// COVERS, USES and SUPERSEDES edges. The tenant is the selected thread's own.
// Returns paths, at most 1000.
UNWIND $nodes AS nodeId
MATCH (thread:Thread)
WHERE elementId(thread) = nodeId
WITH DISTINCT thread
WITH thread LIMIT 10
CALL (thread) {
  MATCH (run:Run {tenant: thread.tenant, threadId: thread.id})
  WHERE run.ordinal IS NOT NULL
  WITH run ORDER BY run.ordinal DESC LIMIT 200
  MATCH path = (thread)-[:HAS_RUN]->(run)-[:USES]->(:ProviderThread)
  RETURN path
  UNION
  MATCH path = (thread)-[:HAS_PROVIDER_THREAD]->(:ProviderThread)
  RETURN path
  UNION
  MATCH (handoff:ContextHandoff {tenant: thread.tenant, threadId: thread.id})
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
