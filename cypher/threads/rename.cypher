// Sets thread $threadId's title (and the caption Bloom shows). The caller holds the thread lock.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
SET thread.title = $title, thread.caption = $title
RETURN thread {.*} AS thread
