// Every run USES exactly one provider thread: the one its providerThreadId names, of the run's own thread and provider.
MATCH (run:Run)
WHERE $tenant IS NULL OR run.tenant = $tenant
CALL (run) {
  OPTIONAL MATCH (run)-[:USES]->(providerThread:ProviderThread)
  WITH providerThread ORDER BY providerThread.id
  RETURN collect(providerThread {.id, .threadId, .provider}) AS servedBy
}
WITH run, servedBy
WHERE NOT coalesce(size(servedBy) = 1 AND servedBy[0].id = run.providerThreadId AND servedBy[0].threadId = run.threadId
                   AND servedBy[0].provider = run.provider, false)
RETURN run.tenant AS tenant, run.threadId AS threadId, run.id AS runId, run.ordinal AS ordinal, run.provider AS provider,
       run.providerThreadId AS providerThreadId, servedBy
