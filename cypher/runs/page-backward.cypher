// One page of a thread's runs read backwards: the newest $limit runs below $beforeOrdinal, newest
// first, rolled-back runs included. Ordered by the index's full key, descending, so Neo4j reads the
// (tenant, threadId, ordinal) index from the top down and stops after $limit runs, however long the
// thread is. Without the runs' long texts, as runs/page.
MATCH (run:Run {tenant: $tenant, threadId: $threadId})
WHERE run.ordinal < $beforeOrdinal
WITH run ORDER BY run.tenant DESC, run.threadId DESC, run.ordinal DESC
LIMIT $limit
RETURN run {.id, .threadId, .ordinal, .provider, .model, .runtimeMode, .status, .providerThreadId, .contextHandoffId, .createdAt, .completedAt,
            .planDecision, .planAction, .planProviderThreadId, .planStrategy, .planCoveredFrom, .planCoveredTo, .planSignals, .planReasons, .planForkFromTurn, .dispatchEpoch} AS run
