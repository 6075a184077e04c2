// Resolves a source point on thread $threadId: run $ordinal of its own runs (null: its newest live
// run that is stable, $stableRunStatuses), the checkpoint $checkpointId, or where provider thread
// $providerThreadId last served a run. Returns the run, its status and its provider thread.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
OPTIONAL MATCH (checkpoint:Checkpoint {tenant: $tenant, id: $checkpointId, threadId: $threadId})
OPTIONAL MATCH (byProvider:ProviderThread {tenant: $tenant, id: $providerThreadId, threadId: $threadId})
WITH thread, checkpoint, byProvider,
     CASE
       WHEN $checkpointId IS NOT NULL THEN checkpoint.runOrdinal
       WHEN $providerThreadId IS NOT NULL THEN byProvider.lastRunOrdinal
       ELSE $ordinal
     END AS ordinal
CALL (thread, ordinal) {
  OPTIONAL MATCH (run:Run {tenant: $tenant, threadId: thread.id, ordinal: ordinal})
  RETURN run AS named
}
CALL (thread, ordinal) {
  // Ordering by every key of the (tenant, threadId, ordinal) index lets Neo4j read it backwards from
  // the head and stop at the first match instead of sorting the thread's history. A null bound (an
  // ordinal was named) makes the seek empty rather than a scan that filters out every run.
  OPTIONAL MATCH (run:Run {tenant: $tenant, threadId: thread.id})
  WHERE run.ordinal <= CASE WHEN ordinal IS NULL THEN thread.headOrdinal END
    AND run.status IN $stableRunStatuses
  RETURN run AS newest ORDER BY run.tenant DESC, run.threadId DESC, run.ordinal DESC LIMIT 1
}
WITH thread, checkpoint, byProvider, ordinal, coalesce(named, newest) AS run
RETURN thread {.*} AS thread, run {.id, .ordinal, .status, .providerThreadId} AS run,
       checkpoint {.id, .status} AS checkpoint, byProvider.id AS providerThreadId, ordinal
