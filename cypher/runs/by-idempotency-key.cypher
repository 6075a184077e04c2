// The run a thread already started under idempotency key $key, if any.
MATCH (run:Run {tenant: $tenant, threadId: $threadId, idempotencyKey: $key})
RETURN run {.*} AS run
