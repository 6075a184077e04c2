// One page of the tenant's threads, newest first; the cursor is the last row's (createdAt, id).
// The range on createdAt lets the (tenant, createdAt) index drive the read, and ordering by that
// index's keys lets it stop at the LIMIT (id only breaks ties among threads of one instant).
MATCH (thread:Thread {tenant: $tenant})
WHERE thread.createdAt <= coalesce(datetime($afterCreatedAt), datetime('9999-12-31T23:59:59Z'))
  AND ($afterCreatedAt IS NULL
       OR thread.createdAt < datetime($afterCreatedAt)
       OR thread.id < $afterId)
WITH thread ORDER BY thread.tenant DESC, thread.createdAt DESC, thread.id DESC
LIMIT $limit
RETURN thread {.*} AS thread
