// Marks thread $threadId deleted, once: its runs, handoffs and lineage stay as recorded. The caller
// holds the thread lock and has checked that no run is running.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
SET thread.deletedAt = coalesce(thread.deletedAt, datetime())
RETURN thread {.*} AS thread
