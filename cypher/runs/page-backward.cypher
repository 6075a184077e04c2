// One page of a thread's runs read backwards: the newest $limit runs below $beforeOrdinal, newest
// first, rolled-back runs included. Ordered by the index's full key, descending, so Neo4j reads the
// (tenant, threadId, ordinal) index from the top down and stops after $limit runs, however long the
// thread is.
MATCH (run:Run {tenant: $tenant, threadId: $threadId})
WHERE run.ordinal < $beforeOrdinal
WITH run ORDER BY run.tenant DESC, run.threadId DESC, run.ordinal DESC
LIMIT $limit
RETURN run {.*} AS run
