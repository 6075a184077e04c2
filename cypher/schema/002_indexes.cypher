// Indexes behind the planner's bounded reads: provider threads by provider, facts and
// checkpoints by ordinal, threads by creation time for paging.
CREATE INDEX provider_thread_by_provider IF NOT EXISTS FOR (p:ProviderThread) ON (p.tenant, p.threadId, p.provider, p.seq);
CREATE INDEX run_fact_by_ordinal IF NOT EXISTS FOR (f:RunFact) ON (f.tenant, f.threadId, f.runOrdinal);
CREATE INDEX checkpoint_by_ordinal IF NOT EXISTS FOR (c:Checkpoint) ON (c.tenant, c.threadId, c.runOrdinal);
CREATE INDEX thread_by_created IF NOT EXISTS FOR (t:Thread) ON (t.tenant, t.createdAt);
CREATE INDEX handoff_by_thread IF NOT EXISTS FOR (h:ContextHandoff) ON (h.tenant, h.threadId);
CREATE INDEX transfer_by_source IF NOT EXISTS FOR (c:ContextTransfer) ON (c.tenant, c.sourceThreadId);
CREATE INDEX transfer_by_target IF NOT EXISTS FOR (c:ContextTransfer) ON (c.tenant, c.targetThreadId);
