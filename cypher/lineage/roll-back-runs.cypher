// Rollback step 1: the thread's live runs above $toOrdinal become rolled_back (kept, with the time,
// so forks that inherited them keep them) and their checkpoints stale; the head moves back.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
SET thread.headOrdinal = $toOrdinal
WITH thread
MATCH (run:Run {tenant: $tenant, threadId: thread.id})
WHERE run.ordinal > $toOrdinal AND run.status <> 'rolled_back'
SET run.status = 'rolled_back', run.rolledBackAt = datetime()
WITH run
OPTIONAL MATCH (run)-[:CAPTURED]->(checkpoint:Checkpoint)
SET checkpoint.status = 'stale'
RETURN run {.*} AS run
ORDER BY run.ordinal
