// Runs by id for the API's DataLoader, without their long texts (messages, error), as runs/page:
// the API reads those, and their lengths, only when they are asked for (runs/text-lengths, runs/texts).
UNWIND $ids AS id
MATCH (run:Run {tenant: $tenant, id: id})
RETURN run {.id, .threadId, .ordinal, .provider, .model, .runtimeMode, .status, .providerThreadId, .contextHandoffId, .createdAt, .completedAt,
            .planDecision, .planAction, .planProviderThreadId, .planStrategy, .planCoveredFrom, .planCoveredTo, .planSignals, .planReasons, .planForkFromTurn, .dispatchEpoch} AS run
