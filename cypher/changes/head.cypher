// Thread $threadId's newest change number (0 before its first change); no row when the tenant has no such thread.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
RETURN coalesce(thread.changeSequence, 0) AS sequence
