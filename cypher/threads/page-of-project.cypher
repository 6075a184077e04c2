// threads/page for the threads of one project: the (tenant, project, createdAt) index drives the
// read in its order, so it reads only that project's threads and stops at the LIMIT.
MATCH (thread:Thread {tenant: $tenant, project: $project})
WHERE thread.createdAt <= coalesce(datetime($afterCreatedAt), datetime('9999-12-31T23:59:59Z'))
  AND ($afterCreatedAt IS NULL
       OR thread.createdAt < datetime($afterCreatedAt)
       OR thread.id < $afterId)
  AND thread.deletedAt IS NULL
  AND ($provider IS NULL OR $provider IN thread.providers)
  AND ($text IS NULL
       OR toLower(thread.id) CONTAINS $text
       OR toLower(coalesce(thread.title, '')) CONTAINS $text
       OR toLower(thread.project) CONTAINS $text)
WITH thread ORDER BY thread.tenant DESC, thread.project DESC, thread.createdAt DESC, thread.id DESC
LIMIT $limit
RETURN thread {.*} AS thread
