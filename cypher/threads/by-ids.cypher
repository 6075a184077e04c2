// Threads by id, for the request's DataLoader.
UNWIND $ids AS id
MATCH (thread:Thread {tenant: $tenant, id: id})
RETURN thread {.*} AS thread
