// The thread index (Query.threads): a project's threads newest first, and each thread's last activity
// stored on it (runs/create, runs/finish and runs/import keep it), filled here for threads written before.
CREATE INDEX thread_by_project IF NOT EXISTS FOR (t:Thread) ON (t.tenant, t.project, t.createdAt);
MATCH (thread:Thread) WHERE thread.lastActivityAt IS NULL
CALL (thread) {
  OPTIONAL MATCH (run:Run {tenant: thread.tenant, threadId: thread.id})
  WITH thread, max(coalesce(run.completedAt, run.createdAt)) AS newest
  SET thread.lastActivityAt = coalesce(newest, thread.createdAt)
} IN TRANSACTIONS OF 1000 ROWS
