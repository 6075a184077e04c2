// The runs the planner and the summaries read find the subagents they spawned by a seek on the run's
// ordinal, not by reading every child of the thread (its forks and subagents, which grow with it).
CREATE INDEX thread_by_parent_source_run IF NOT EXISTS FOR (t:Thread) ON (t.tenant, t.parentThreadId, t.sourceRunOrdinal);
