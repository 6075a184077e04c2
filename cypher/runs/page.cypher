// One page of a thread's runs in ordinal order, rolled-back runs included, above $afterOrdinal and up
// to $toOrdinal. Ordered by the index's full key, so a page reads $limit runs, not every run after
// the cursor.
MATCH (run:Run {tenant: $tenant, threadId: $threadId})
WHERE run.ordinal > $afterOrdinal AND run.ordinal <= $toOrdinal
WITH run ORDER BY run.tenant, run.threadId, run.ordinal
LIMIT $limit
RETURN run {.*} AS run
