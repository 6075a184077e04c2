// Run $ordinal of thread $threadId (a history segment's thread, for an inherited ordinal), when it
// was live as of $asOf (null: live now); a fork's inherited runs are those live when it forked.
MATCH (run:Run {tenant: $tenant, threadId: $threadId, ordinal: $ordinal})
WHERE run.status <> 'rolled_back' OR ($asOf IS NOT NULL AND run.rolledBackAt > datetime($asOf))
RETURN run {.id, .ordinal, .status, .providerThreadId} AS run
