// One page of the tenant's threads, newest first, deleted ones left out; the cursor is the last row's
// (createdAt, id). The range on createdAt lets the (tenant, createdAt) index drive the read, and
// ordering by that index's keys lets it stop at the LIMIT (id only breaks ties among threads of one
// instant). The provider and text filters are checked on the threads walked in that order, so a rare
// match walks further; a project filter reads threads/page-of-project instead.
MATCH (thread:Thread {tenant: $tenant})
WHERE thread.createdAt <= coalesce(datetime($afterCreatedAt), datetime('9999-12-31T23:59:59Z'))
  AND ($afterCreatedAt IS NULL
       OR thread.createdAt < datetime($afterCreatedAt)
       OR thread.id < $afterId)
  AND thread.deletedAt IS NULL
  AND ($provider IS NULL OR $provider IN thread.providers)
  AND ($text IS NULL
       OR toLower(thread.id) CONTAINS $text
       OR toLower(coalesce(thread.title, '')) CONTAINS $text
       OR toLower(coalesce(thread.project, '')) CONTAINS $text)
WITH thread ORDER BY thread.tenant DESC, thread.createdAt DESC, thread.id DESC
LIMIT $limit
RETURN thread {.*} AS thread
