// Resume failure: running run $runId leaves provider thread $fromId, which becomes resume_failed
// and forgets the run natively, and is served by provider thread $toId instead. $fromServed and
// $toServed are both provider threads' native ranges after the move (src/domain/coverage.ts). The
// run's dispatch epoch moves on: the old dispatch's fencing token is stale (src/domain/fencing.ts).
MATCH (run:Run {tenant: $tenant, id: $runId})-[uses:USES]->(failed:ProviderThread {id: $fromId})
MATCH (replacement:ProviderThread {tenant: $tenant, id: $toId})
DELETE uses
CREATE (run)-[:USES]->(replacement)
SET run.providerThreadId = replacement.id,
    run.dispatchEpoch = coalesce(run.dispatchEpoch, 1) + 1,
    replacement += $toServed,
    replacement.status = 'active',
    failed += $fromServed,
    failed.status = 'resume_failed',
    failed.resumeError = $error,
    failed.statusReason = 'It could not be resumed: ' + $error
RETURN run {.*} AS run
