// One page of the tenant's threads, newest first; the cursor is the last row's (createdAt, id).
// The range on createdAt lets the (tenant, createdAt) index drive the scan in order.
MATCH (thread:Thread {tenant: $tenant})
WHERE thread.createdAt <= coalesce(datetime($afterCreatedAt), datetime('9999-12-31T23:59:59Z'))
  AND ($afterCreatedAt IS NULL
       OR thread.createdAt < datetime($afterCreatedAt)
       OR thread.id < $afterId)
RETURN thread {.*} AS thread
ORDER BY thread.createdAt DESC, thread.id DESC
LIMIT $limit
