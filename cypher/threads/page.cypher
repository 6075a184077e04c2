// One page of the tenant's threads, newest first; the cursor is the last row's (createdAt, id).
MATCH (thread:Thread {tenant: $tenant})
WHERE $afterCreatedAt IS NULL
   OR thread.createdAt < datetime($afterCreatedAt)
   OR (thread.createdAt = datetime($afterCreatedAt) AND thread.id < $afterId)
RETURN thread {.*} AS thread
ORDER BY thread.createdAt DESC, thread.id DESC
LIMIT $limit
