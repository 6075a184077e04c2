// Appends one change of kind $changeKind to thread $threadId's feed, for an operation whose other
// statements do not take the record in themselves.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
INCLUDE changes/append
