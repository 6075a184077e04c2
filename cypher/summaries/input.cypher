// What the local summarizer needs for live runs $from..$to of a thread: the newest $runLimit runs,
// the newest $factLimit facts, and the latest current checkpoint. The limits come from the target's
// budget, so a full-thread summary reads no more than fits in it, however long the thread.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
CALL (thread) {
  OPTIONAL MATCH (run:Run {tenant: $tenant, threadId: thread.id})
  WHERE run.ordinal >= $from AND run.ordinal <= $to AND run.status <> 'rolled_back'
  WITH run ORDER BY run.ordinal DESC LIMIT $runLimit
  RETURN collect(run {.ordinal, .provider, .providerThreadId, .status, .userMessage, .assistantMessage, .error}) AS runs
}
CALL (thread) {
  OPTIONAL MATCH (fact:RunFact {tenant: $tenant, threadId: thread.id})
  WHERE fact.runOrdinal >= $from AND fact.runOrdinal <= $to
  WITH fact ORDER BY fact.runOrdinal DESC, fact.seq DESC LIMIT $factLimit
  MATCH (:Run {tenant: $tenant, threadId: thread.id, ordinal: fact.runOrdinal, status: 'completed'})
  RETURN collect(fact {.runOrdinal, .seq, .kind, .text, .key, .status}) AS facts
}
CALL (thread) {
  OPTIONAL MATCH (checkpoint:Checkpoint {tenant: $tenant, threadId: thread.id})
  WHERE checkpoint.status = 'current' AND checkpoint.runOrdinal <= $to
  RETURN checkpoint ORDER BY checkpoint.runOrdinal DESC LIMIT 1
}
RETURN thread.title AS title, thread.providers AS threadProviders, runs, facts, checkpoint {.*} AS checkpoint
