// A deleted thread has no running run and no run started after its deletion: deleteThread waits for none running, and every operation refuses it after.
MATCH (thread:Thread)
WHERE thread.deletedAt IS NOT NULL AND ($tenant IS NULL OR thread.tenant = $tenant)
CALL (thread) {
  MATCH (run:Run {tenant: thread.tenant, threadId: thread.id})
  WHERE run.status = 'running' OR run.createdAt > thread.deletedAt
  RETURN collect(run.id) AS runs
}
WITH thread, runs
WHERE thread.runningRunId IS NOT NULL OR size(runs) > 0
RETURN thread.tenant AS tenant, thread.id AS threadId, thread.deletedAt AS deletedAt, thread.runningRunId AS runningRunId, runs
