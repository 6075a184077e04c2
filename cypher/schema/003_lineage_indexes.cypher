// Lineage: a thread's forks and subagents by parent.
CREATE INDEX thread_by_parent IF NOT EXISTS FOR (t:Thread) ON (t.tenant, t.parentThreadId);
