// One page of a thread's runs in ordinal order, rolled-back runs included, above $afterOrdinal and up
// to $toOrdinal. Ordered by the index's full key, so a page reads $limit runs, not every run after
// the cursor. The runs' long texts (messages, error) stay in the graph: the API reads them, and their
// lengths, only when they are asked for (runs/text-lengths, runs/texts).
MATCH (run:Run {tenant: $tenant, threadId: $threadId})
WHERE run.ordinal > $afterOrdinal AND run.ordinal <= $toOrdinal
WITH run ORDER BY run.tenant, run.threadId, run.ordinal
LIMIT $limit
RETURN run {.id, .threadId, .ordinal, .provider, .model, .runtimeMode, .status, .providerThreadId, .contextHandoffId, .createdAt, .completedAt,
            .planDecision, .planAction, .planProviderThreadId, .planStrategy, .planCoveredFrom, .planCoveredTo, .planSignals, .planReasons, .planForkFromTurn, .dispatchEpoch} AS run
