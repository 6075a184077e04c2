// Bloom scene action: "Coverage", for selected provider threads (offered on the ProviderThread category).
// Parameters: $nodes (set by Bloom: the element ids of the selected nodes; nodes that are not
// provider threads are ignored, at most 10 are expanded).
// Shows, for each selected provider thread, what the search phrase "Coverage of provider thread
// $providerThreadId in tenant $tenant" (provider-thread-coverage.cypher) shows: the runs it served
// (USES, newest 200), the handoffs DELIVERED_TO it (newest 100, any status) with the first and
// last run of their ranges (COVERS), and the provider thread it was natively FORKED_FROM.
// Returns paths, at most 1000.
UNWIND $nodes AS nodeId
MATCH (pt:ProviderThread)
WHERE elementId(pt) = nodeId
WITH DISTINCT pt
WITH pt LIMIT 10
CALL (pt) {
  MATCH (run:Run)-[:USES]->(pt)
  WITH run ORDER BY run.ordinal DESC LIMIT 200
  MATCH path = (run)-[:USES]->(pt)
  RETURN path
  UNION
  MATCH (handoff:ContextHandoff)-[:DELIVERED_TO]->(pt)
  WITH handoff ORDER BY handoff.createdAt DESC, handoff.id LIMIT 100
  CALL (handoff, pt) {
    MATCH path = (handoff)-[:DELIVERED_TO]->(pt)
    RETURN path
    UNION
    MATCH path = (:Run)<-[:COVERS]-(handoff)-[:DELIVERED_TO]->(pt)
    RETURN path
  }
  RETURN path
  UNION
  MATCH path = (pt)-[:FORKED_FROM]->(:ProviderThread)
  RETURN path
}
RETURN path
LIMIT 1000
