// The changes after each watch's sequence, for the threads an instance has subscribers for, of any
// tenant (each watch names its tenant): one range seek per watched thread. At most the changes a
// thread keeps come back for one watch.
UNWIND $watches AS watch
MATCH (change:ThreadChange {tenant: watch.tenant, threadId: watch.threadId})
WHERE change.sequence > watch.after
RETURN change.tenant AS tenant, change.threadId AS threadId, change.sequence AS sequence, change.kind AS kind, change.at AS at
ORDER BY tenant, threadId, sequence
