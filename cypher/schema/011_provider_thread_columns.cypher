// A thread's provider threads in creation order (seq numbers them 1, 2, ... per thread): the coverage
// matrix pages its columns by it, so a page reads its columns' provider threads and no others.
CREATE INDEX provider_thread_by_seq IF NOT EXISTS FOR (p:ProviderThread) ON (p.tenant, p.threadId, p.seq);
