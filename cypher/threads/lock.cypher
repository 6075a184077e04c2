// Takes the thread's write lock for the rest of the transaction, then reads its counters.
// Every mutation of a thread's runs starts here, so ordinals and the running run are serialized.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
SET thread._lock = true
REMOVE thread._lock
RETURN thread {.*} AS thread
