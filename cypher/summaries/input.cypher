// What the local summarizer needs for a range of a thread's history, one row per live piece
// (livePiecesFor in src/domain/history.ts: every ordinal of a piece is a live run of its thread, a
// fork's inherited runs as they were when it forked): the newest $runLimit runs, the newest
// $factLimit facts and the latest checkpoint. The limits come from the target's budget, so a
// full-thread summary reads no more than fits in it, however long the thread: every subquery reads
// newest first so that its LIMIT stops the read (sorting a long thread's messages first exhausts
// the transaction memory).
UNWIND $pieces AS piece
MATCH (thread:Thread {tenant: $tenant, id: piece.threadId})
CALL (piece) {
  // Walking the ordinals down from the newest, one unique seek each, stops at the LIMIT whatever plan
  // the statistics favour (ordering by the index key was served by a sort on a small graph).
  UNWIND range(piece.to, piece.from, -1) AS ordinal
  MATCH (run:Run {tenant: $tenant, threadId: piece.threadId, ordinal: ordinal})
  WITH run LIMIT $runLimit
  RETURN collect(run {.ordinal, .provider, .providerThreadId, .status, .userMessage, .assistantMessage, .error}) AS runs
}
CALL (piece) {
  OPTIONAL MATCH (fact:RunFact {tenant: $tenant, threadId: piece.threadId})
  WHERE fact.runOrdinal >= piece.from AND fact.runOrdinal <= piece.to
  // Ordered by every key of the index it seeks, so Neo4j reads it backwards instead of sorting; the
  // caller orders facts of one run by seq.
  WITH fact ORDER BY fact.tenant DESC, fact.threadId DESC, fact.runOrdinal DESC LIMIT $factLimit
  RETURN collect(fact {.runOrdinal, .seq, .kind, .text, .key, .status, file: CASE WHEN fact.filePath IS NULL THEN null ELSE {path: fact.filePath, change: fact.fileChange, additions: fact.fileAdditions, deletions: fact.fileDeletions} END}) AS facts
}
CALL (piece) {
  OPTIONAL MATCH (checkpoint:Checkpoint {tenant: $tenant, threadId: piece.threadId})
  WHERE checkpoint.runOrdinal >= piece.from AND checkpoint.runOrdinal <= piece.to
  RETURN checkpoint ORDER BY checkpoint.tenant DESC, checkpoint.threadId DESC, checkpoint.runOrdinal DESC LIMIT 1
}
RETURN piece.threadId AS threadId, thread.providers AS threadProviders, runs, facts, checkpoint {.*} AS checkpoint
