// Appends one change of kind $changeKind to the feed of `thread`, in the transaction that made the
// change: the statements that make one take this in (INCLUDE changes/append) with `thread` bound, so
// the record is no statement of its own (completeRun waits for one round trip fewer). Setting
// changeSequence takes the thread's write lock, so numbers follow commit order without gaps; the
// changes $changesKept or more numbers older leave the feed, which keeps it bounded per thread.
// WITH *: Cypher wants a WITH between an update (where statements take this in) and a CALL.
WITH *
CALL (thread) {
  SET thread.changeSequence = coalesce(thread.changeSequence, 0) + 1
  CREATE (:ThreadChange {tenant: $tenant, threadId: thread.id, sequence: thread.changeSequence, kind: $changeKind, at: datetime()})
  WITH thread
  OPTIONAL MATCH (old:ThreadChange {tenant: $tenant, threadId: thread.id})
  WHERE old.sequence <= thread.changeSequence - $changesKept
  DELETE old
}
