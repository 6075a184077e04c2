// What the local summarizer needs for a range of a thread's history, one row per history segment
// (src/domain/history.ts): the newest $runLimit live runs, the newest $factLimit facts and the latest
// current checkpoint. A run counts as live in a segment if it is not rolled back, or was rolled back
// only after the segment's asOf (a fork keeps what it inherited). The limits come from the target's
// budget, so a full-thread summary reads no more than fits in it, however long the thread: each
// subquery orders by every key of the index it seeks, which lets Neo4j read that index backwards and
// stop at the LIMIT instead of sorting the whole range (a sort over a long thread's messages
// exhausts the transaction memory).
UNWIND $segments AS segment
MATCH (thread:Thread {tenant: $tenant, id: segment.threadId})
CALL (segment) {
  OPTIONAL MATCH (run:Run {tenant: $tenant, threadId: segment.threadId})
  WHERE run.ordinal >= segment.from AND run.ordinal <= segment.to
    AND (run.status <> 'rolled_back' OR (segment.asOf IS NOT NULL AND run.rolledBackAt > datetime(segment.asOf)))
  WITH run ORDER BY run.tenant DESC, run.threadId DESC, run.ordinal DESC LIMIT $runLimit
  RETURN collect(run {.ordinal, .provider, .providerThreadId, .status, .userMessage, .assistantMessage, .error}) AS runs
}
CALL (segment) {
  OPTIONAL MATCH (fact:RunFact {tenant: $tenant, threadId: segment.threadId})
  WHERE fact.runOrdinal >= segment.from AND fact.runOrdinal <= segment.to
  // The caller orders facts of one run by seq.
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
