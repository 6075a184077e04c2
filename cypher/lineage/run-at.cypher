// Run $ordinal of thread $threadId (a history segment's thread, for an inherited ordinal).
MATCH (run:Run {tenant: $tenant, threadId: $threadId, ordinal: $ordinal})
RETURN run {.id, .ordinal, .status, .providerThreadId} AS run
