// The provider threads of thread $threadId that a window of its runs draws: those that served a run
// with ordinal $fromOrdinal..$toOrdinal or received a handoff made for one, in creation order, seq
// above $afterSeq, at most $first. Found through the window's runs and handoffs (range seeks on
// (tenant, threadId, ordinal) and (tenant, threadId, targetRunOrdinal)), not through the thread's
// HAS_PROVIDER_THREAD edges, so a window costs the same whatever the thread's length.
CALL () {
  MATCH (run:Run {tenant: $tenant, threadId: $threadId})
  WHERE run.ordinal >= $fromOrdinal AND run.ordinal <= $toOrdinal
  RETURN run.providerThreadId AS id
  UNION
  MATCH (handoff:ContextHandoff {tenant: $tenant, threadId: $threadId})
  WHERE handoff.targetRunOrdinal >= $fromOrdinal AND handoff.targetRunOrdinal <= $toOrdinal
  RETURN handoff.toProviderThreadId AS id
}
// By its unique id, never through the (tenant, threadId, seq) index, which would read every provider
// thread of the thread for each id.
MATCH (providerThread:ProviderThread {id: id})
USING INDEX providerThread:ProviderThread(id)
WHERE providerThread.tenant = $tenant AND providerThread.threadId = $threadId AND providerThread.seq > $afterSeq
WITH providerThread
ORDER BY providerThread.seq
LIMIT $first
RETURN providerThread {.*} AS providerThread
