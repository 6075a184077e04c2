// Rollback step 3: the provider threads that knew a rolled-back run: those that served a run above
// $toOrdinal (a range seek on their last native ordinal) and those a withdrawn handoff was
// delivered to ($handoffTargetIds). src/domain/coverage.ts decides what happens to each.
CALL () {
  MATCH (providerThread:ProviderThread {tenant: $tenant, threadId: $threadId})
  WHERE providerThread.lastRunOrdinal > $toOrdinal
  RETURN providerThread
  UNION
  UNWIND $handoffTargetIds AS id
  MATCH (providerThread:ProviderThread {tenant: $tenant, id: id})
  RETURN providerThread
}
RETURN providerThread {.*} AS providerThread
ORDER BY providerThread.seq
