// Bloom search phrase: "Coverage of provider thread $providerThreadId in tenant $tenant"
// Parameters: $tenant (string), $providerThreadId (string: ProviderThread.id, `pt_...`).
// Shows what one provider thread knows: the runs it served natively (Run -USES-> it, newest 200),
// the handoffs DELIVERED_TO it (newest 100, any status: only `pending` and `ready` ones count as
// coverage, so colour handoffs by status) with the first and last run of each one's range (COVERS), and for a native fork the
// provider thread it was FORKED_FROM (it also knows the fork's inherited runs through that one).
// Returns paths, at most 1000. Design example: C1 with runs 1-5 and 9, H2 covering 6-8
// (11 nodes, 10 relationships); L1 with runs 6-8, H1 covering 1-5 (10 nodes, 9 relationships).
MATCH (pt:ProviderThread {tenant: $tenant, id: $providerThreadId})
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
