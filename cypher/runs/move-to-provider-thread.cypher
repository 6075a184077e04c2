// Resume failure: running run $runId leaves provider thread $fromId, which becomes resume_failed
// and forgets the run natively, and is served by provider thread $toId instead.
MATCH (run:Run {tenant: $tenant, id: $runId})-[uses:USES]->(failed:ProviderThread {id: $fromId})
MATCH (replacement:ProviderThread {tenant: $tenant, id: $toId})
DELETE uses
CREATE (run)-[:USES]->(replacement)
SET run.providerThreadId = replacement.id,
    replacement.status = 'active',
    replacement.firstRunOrdinal = coalesce(replacement.firstRunOrdinal, run.ordinal),
    replacement.lastRunOrdinal = run.ordinal,
    failed.status = 'resume_failed',
    failed.resumeError = $error
WITH run, failed
CALL (failed) {
  OPTIONAL MATCH (failed)<-[:USES]-(served:Run)
  WHERE served.status <> 'rolled_back'
  RETURN min(served.ordinal) AS first, max(served.ordinal) AS last
}
SET failed.firstRunOrdinal = first, failed.lastRunOrdinal = last
RETURN run {.*} AS run
