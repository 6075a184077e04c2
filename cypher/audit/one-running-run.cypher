// A thread has at most one running run, the one its runningRunId names, at its head (ordinal = headOrdinal = lastOrdinal); runningRunId is absent when no run is running.
MATCH (thread:Thread)
WHERE $tenant IS NULL OR thread.tenant = $tenant
CALL (thread) {
  MATCH (run:Run {tenant: thread.tenant, threadId: thread.id})
  WHERE run.ordinal IS NOT NULL AND run.status = 'running'
  WITH run ORDER BY run.ordinal
  RETURN collect(run {.id, .ordinal}) AS running
}
WITH thread, running
WHERE size(running) > 1
   OR (size(running) = 1 AND NOT coalesce(running[0].id = thread.runningRunId AND running[0].ordinal = thread.headOrdinal AND running[0].ordinal = thread.lastOrdinal, false))
   OR (size(running) = 0 AND thread.runningRunId IS NOT NULL)
RETURN thread.tenant AS tenant, thread.id AS threadId, thread.runningRunId AS runningRunId,
       thread.headOrdinal AS headOrdinal, thread.lastOrdinal AS lastOrdinal, running
