// What the local summarizer needs for a range of a thread's history, one row per history segment
// (src/domain/history.ts): the newest $runLimit live runs, the newest $factLimit facts and the latest
// current checkpoint. A run counts as live in a segment if it is not rolled back, or was rolled back
// only after the segment's asOf (a fork keeps what it inherited). The limits come from the target's
// budget, so a full-thread summary reads no more than fits in it, however long the thread.
UNWIND $segments AS segment
MATCH (thread:Thread {tenant: $tenant, id: segment.threadId})
CALL (segment) {
  OPTIONAL MATCH (run:Run {tenant: $tenant, threadId: segment.threadId})
  WHERE run.ordinal >= segment.from AND run.ordinal <= segment.to
    AND (run.status <> 'rolled_back' OR (segment.asOf IS NOT NULL AND run.rolledBackAt > datetime(segment.asOf)))
  WITH run ORDER BY run.ordinal DESC LIMIT $runLimit
  RETURN collect(run {.ordinal, .provider, .providerThreadId, .status, .userMessage, .assistantMessage, .error}) AS runs
}
CALL (segment) {
  OPTIONAL MATCH (fact:RunFact {tenant: $tenant, threadId: segment.threadId})
  WHERE fact.runOrdinal >= segment.from AND fact.runOrdinal <= segment.to
  // One sort key, so the (tenant, threadId, runOrdinal) index serves the order and LIMIT stops the
  // read early; the caller orders facts of one run by seq.
  WITH fact ORDER BY fact.runOrdinal DESC LIMIT $factLimit
  MATCH (run:Run {tenant: $tenant, threadId: segment.threadId, ordinal: fact.runOrdinal})
  WHERE run.status <> 'rolled_back' OR (segment.asOf IS NOT NULL AND run.rolledBackAt > datetime(segment.asOf))
  RETURN collect(fact {.runOrdinal, .seq, .kind, .text, .key, .status}) AS facts
}
CALL (segment) {
  OPTIONAL MATCH (checkpoint:Checkpoint {tenant: $tenant, threadId: segment.threadId})<-[:CAPTURED]-(run:Run)
  WHERE checkpoint.runOrdinal >= segment.from AND checkpoint.runOrdinal <= segment.to
    AND (run.status <> 'rolled_back' OR (segment.asOf IS NOT NULL AND run.rolledBackAt > datetime(segment.asOf)))
  RETURN checkpoint ORDER BY checkpoint.runOrdinal DESC LIMIT 1
}
RETURN segment.threadId AS threadId, thread.providers AS threadProviders, runs, facts, checkpoint {.*} AS checkpoint
