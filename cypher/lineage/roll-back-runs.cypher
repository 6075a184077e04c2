// Rollback step 1: the runs in $withdrawn (the live ordinals above $toOrdinal, withdrawnByRollback in
// src/domain/history.ts) become rolled_back, kept with the time so forks that inherited them keep
// them, and their checkpoints stale; the head moves back and the thread records its rolled-back
// ranges: its first $keptRanges as they were, then $rolledBackFrom/$rolledBackTo (changeOfLists in
// src/domain/ranges.ts), so a rollback sends what it changes, not every range of a long thread. Only
// the withdrawn runs are read, however long the thread's history is; the answer is their count and
// the runs at $pageOrdinals.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
SET thread.headOrdinal = $toOrdinal,
    thread.rolledBackFrom = coalesce(thread.rolledBackFrom, [])[..$keptRanges] + $rolledBackFrom,
    thread.rolledBackTo = coalesce(thread.rolledBackTo, [])[..$keptRanges] + $rolledBackTo
WITH thread, datetime() AS now
CALL (thread, now) {
  UNWIND $withdrawn AS withdrawn
  MATCH (run:Run {tenant: $tenant, threadId: thread.id})
  WHERE run.ordinal >= withdrawn.from AND run.ordinal <= withdrawn.to
  SET run.status = 'rolled_back', run.rolledBackAt = now
  WITH run
  OPTIONAL MATCH (run)-[:CAPTURED]->(checkpoint:Checkpoint)
  SET checkpoint.status = 'stale'
  RETURN count(run) AS rolledBackRunCount
}
CALL (thread) {
  UNWIND $pageOrdinals AS ordinal
  MATCH (run:Run {tenant: $tenant, threadId: thread.id, ordinal: ordinal})
  RETURN collect(run {.*}) AS page
}
RETURN rolledBackRunCount, page
