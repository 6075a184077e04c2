// Which of the source ids $sourceIds (a turn's record id in its provider's session) a run of
// $provider in thread $threadId already carries: importRuns stores a turn that a resumed or forked
// session copied only once.
UNWIND $sourceIds AS sourceId
MATCH (run:Run {tenant: $tenant, sourceId: sourceId})
WHERE run.threadId = $threadId AND run.provider = $provider
RETURN DISTINCT run.sourceId AS sourceId
