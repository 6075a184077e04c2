// Resolves a source point on thread $threadId: run $ordinal of its own runs (null: its newest live
// run that is not running), the checkpoint $checkpointId, or where provider thread
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
  OPTIONAL MATCH (run:Run {tenant: $tenant, threadId: thread.id})
  WHERE (ordinal IS NOT NULL AND run.ordinal = ordinal)
     OR (ordinal IS NULL AND run.ordinal <= thread.headOrdinal AND run.status IN ['completed', 'failed', 'interrupted'])
  RETURN run ORDER BY run.ordinal DESC LIMIT 1
}
RETURN thread {.*} AS thread, run {.id, .ordinal, .status, .providerThreadId} AS run,
       checkpoint {.id, .status} AS checkpoint, byProvider.id AS providerThreadId, ordinal
