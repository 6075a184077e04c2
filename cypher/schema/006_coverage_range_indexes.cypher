// Coverage as ranges: a rollback finds what it withdraws by range seeks, never by walking the
// thread's history. Handoffs by the ordinal of the run they were made for, provider threads by the
// last ordinal they served.
CREATE INDEX handoff_by_target_ordinal IF NOT EXISTS FOR (h:ContextHandoff) ON (h.tenant, h.threadId, h.targetRunOrdinal);
CREATE INDEX provider_thread_by_last_run IF NOT EXISTS FOR (p:ProviderThread) ON (p.tenant, p.threadId, p.lastRunOrdinal);
// "Which handoffs cover run N": a thread's handoffs whose range ends at or after N.
CREATE INDEX handoff_by_covered_to IF NOT EXISTS FOR (h:ContextHandoff) ON (h.tenant, h.threadId, h.coveredTo);
