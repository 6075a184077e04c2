// Run $ordinal of thread $threadId: the thread that holds that ordinal of a history (for an
// inherited ordinal, a segment's thread). Whether it is live in that history is decided before,
// from the history's rolled-back ranges (src/domain/history.ts).
MATCH (run:Run {tenant: $tenant, threadId: $threadId, ordinal: $ordinal})
RETURN run {.id, .ordinal, .status, .providerThreadId} AS run
