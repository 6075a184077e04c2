// A standing handoff (pending or ready) was written for a live run of its own thread that USES it, and is DELIVERED_TO exactly one provider thread: its toProviderThreadId, of that thread.
MATCH (handoff:ContextHandoff)
WHERE handoff.status IN $standingStatuses AND ($tenant IS NULL OR handoff.tenant = $tenant)
OPTIONAL MATCH (run:Run {tenant: handoff.tenant, id: handoff.targetRunId})
CALL (handoff) {
  OPTIONAL MATCH (handoff)-[:DELIVERED_TO]->(providerThread:ProviderThread)
  WITH providerThread ORDER BY providerThread.id
  RETURN collect(providerThread {.id, .threadId}) AS deliveredTo
}
WITH handoff, run, deliveredTo, [problem IN [
       CASE WHEN run IS NULL THEN 'its target run does not exist' END,
       CASE WHEN run.threadId <> handoff.threadId THEN 'its target run belongs to another thread' END,
       CASE WHEN run.status = 'rolled_back' THEN 'its target run is rolled back' END,
       CASE WHEN run IS NOT NULL AND NOT EXISTS { (run)-[:USES]->(handoff) } THEN 'its target run does not USE it' END,
       CASE WHEN NOT coalesce(size(deliveredTo) = 1 AND deliveredTo[0].id = handoff.toProviderThreadId
                              AND deliveredTo[0].threadId = handoff.threadId, false)
            THEN 'it is not delivered to exactly its toProviderThreadId, of its thread' END
     ] WHERE problem IS NOT NULL] AS problems
WHERE size(problems) > 0
RETURN handoff.tenant AS tenant, handoff.threadId AS threadId, handoff.id AS handoffId, handoff.status AS status,
       handoff.targetRunId AS targetRunId, run.status AS targetRunStatus, handoff.toProviderThreadId AS toProviderThreadId,
       deliveredTo, problems
