// Appends one change of kind $kind to thread $threadId's feed, in the transaction that made the change.
// Setting changeSequence takes the thread's write lock, so numbers follow commit order without gaps;
// the changes $kept or more numbers older leave the feed, which keeps it bounded per thread.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
SET thread.changeSequence = coalesce(thread.changeSequence, 0) + 1
CREATE (:ThreadChange {tenant: $tenant, threadId: $threadId, sequence: thread.changeSequence, kind: $kind, at: datetime()})
WITH thread
OPTIONAL MATCH (old:ThreadChange {tenant: $tenant, threadId: $threadId})
WHERE old.sequence <= thread.changeSequence - $kept
DELETE old
