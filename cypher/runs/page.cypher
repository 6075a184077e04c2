// One page of a thread's runs in ordinal order, rolled-back runs included.
MATCH (run:Run {tenant: $tenant, threadId: $threadId})
WHERE run.ordinal > $afterOrdinal
RETURN run {.*} AS run
ORDER BY run.ordinal
LIMIT $limit
