// What the local summarizer needs for a range of a thread's history, one row per history segment
// (src/domain/history.ts): the newest $runLimit live runs, the newest $factLimit facts and the latest
// current checkpoint. A run counts as live in a segment if it is not rolled back, or was rolled back
// only after the segment's asOf (a fork keeps what it inherited). The limits come from the target's
// budget, so a full-thread summary reads no more than fits in it, however long the thread: every
// subquery reads newest first so that its LIMIT stops the read (sorting a long thread's messages
// first exhausts the transaction memory).
UNWIND $segments AS segment
MATCH (thread:Thread {tenant: $tenant, id: segment.threadId})
CALL (segment) {
  // Walking the ordinals down from the newest, one unique seek each, stops at the LIMIT whatever plan
  // the statistics favour (ordering by the index key was served by a sort on a small graph).
  UNWIND range(segment.to, segment.from, -1) AS ordinal
  MATCH (run:Run {tenant: $tenant, threadId: segment.threadId, ordinal: ordinal})
  WHERE run.status <> 'rolled_back' OR (segment.asOf IS NOT NULL AND run.rolledBackAt > datetime(segment.asOf))
  WITH run LIMIT $runLimit
  RETURN collect(run {.ordinal, .provider, .providerThreadId, .status, .userMessage, .assistantMessage, .error}) AS runs
}
CALL (segment) {
  OPTIONAL MATCH (fact:RunFact {tenant: $tenant, threadId: segment.threadId})
  WHERE fact.runOrdinal >= segment.from AND fact.runOrdinal <= segment.to
  // Ordered by every key of the index it seeks, so Neo4j reads it backwards instead of sorting; the
  // caller orders facts of one run by seq.
  WITH fact ORDER BY fact.tenant DESC, fact.threadId DESC, fact.runOrdinal DESC LIMIT $factLimit
  MATCH (run:Run {tenant: $tenant, threadId: segment.threadId, ordinal: fact.runOrdinal})
  WHERE run.status <> 'rolled_back' OR (segment.asOf IS NOT NULL AND run.rolledBackAt > datetime(segment.asOf))
  RETURN collect(fact {.runOrdinal, .seq, .kind, .text, .key, .status}) AS facts
}
CALL (segment) {
  OPTIONAL MATCH (checkpoint:Checkpoint {tenant: $tenant, threadId: segment.threadId})<-[:CAPTURED]-(run:Run)
  WHERE checkpoint.runOrdinal >= segment.from AND checkpoint.runOrdinal <= segment.to
    AND (run.status <> 'rolled_back' OR (segment.asOf IS NOT NULL AND run.rolledBackAt > datetime(segment.asOf)))
  RETURN checkpoint ORDER BY checkpoint.tenant DESC, checkpoint.threadId DESC, checkpoint.runOrdinal DESC LIMIT 1
}
RETURN segment.threadId AS threadId, thread.providers AS threadProviders, runs, facts, checkpoint {.*} AS checkpoint
