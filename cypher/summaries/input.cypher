// What the local summarizer needs for part of a thread's history: the newest $runLimit runs and the
// newest $factLimit facts of the live pieces in $pieces (livePiecesFor in src/domain/history.ts: every
// ordinal of a piece is a live run of its thread, a fork's inherited runs as they were when it
// forked), one row per piece, and the latest checkpoint and the providers of the threads of
// $checkpointSegments (the live pieces of a range grouped by thread: {threadId, from, to, pieces:
// [[from, to], ...]}). A summary
// reads its range newest first, a window at a time, and stops once what it read fills its budget
// (readSummarySource), so $pieces is the window and $checkpointPieces the whole range on the first
// read (empty after it): the latest checkpoint may be older than anything the summary reads. Every
// subquery reads newest first so that its LIMIT stops the read (sorting a long thread's messages
// first exhausts the transaction memory).
CALL () {
  UNWIND $checkpointSegments AS segment
  MATCH (thread:Thread {tenant: $tenant, id: segment.threadId})
  CALL (segment) {
    // One read per thread, not per piece: a thread's rollbacks cut its range into a piece each, so
    // seeking each piece would cost as many reads as the thread has rollbacks. Newest first by the
    // index, the first checkpoint of a live piece ends the read.
    OPTIONAL MATCH (checkpoint:Checkpoint {tenant: $tenant, threadId: segment.threadId})
    WHERE checkpoint.runOrdinal >= segment.from AND checkpoint.runOrdinal <= segment.to
      AND any(piece IN segment.pieces WHERE piece[0] <= checkpoint.runOrdinal <= piece[1])
    WITH checkpoint ORDER BY checkpoint.tenant DESC, checkpoint.threadId DESC, checkpoint.runOrdinal DESC LIMIT 1
    RETURN checkpoint
  }
  RETURN collect(checkpoint {.*}) AS checkpoints, collect(thread.providers) AS threadProviders
}
UNWIND $pieces AS piece
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
  RETURN collect(fact {.runOrdinal, .seq, .kind, .text, .key, .status, file: CASE WHEN fact.filePath IS NULL THEN null ELSE {path: fact.filePath, change: fact.fileChange, additions: fact.fileAdditions, deletions: fact.fileDeletions, previousPath: fact.filePreviousPath} END}) AS facts
}
// The work of the subagents the piece's runs spawned (SUBAGENT child threads) is the run's work too: its
// file changes, commands, tests and failures, told as facts of the run that spawned it.
CALL (piece) {
  // A range seek on the spawning run's ordinal: the thread's other children are not read.
  OPTIONAL MATCH (child:Thread {tenant: $tenant, parentThreadId: piece.threadId})
  USING INDEX child:Thread(tenant, parentThreadId, sourceRunOrdinal)
  WHERE child.sourceRunOrdinal >= piece.from AND child.sourceRunOrdinal <= piece.to AND child.relationshipToParent = 'subagent'
  // Each child's facts newest first by its own index, as the piece's are, so the LIMIT stops the read.
  CALL (child) {
    OPTIONAL MATCH (fact:RunFact {tenant: $tenant, threadId: child.id})
    WHERE fact.runOrdinal >= 0 AND fact.kind IN $subagentWorkKinds
    WITH fact ORDER BY fact.tenant DESC, fact.threadId DESC, fact.runOrdinal DESC LIMIT $factLimit
    RETURN collect(fact {runOrdinal: child.sourceRunOrdinal, .seq, .kind, .text, .key, .status, file: CASE WHEN fact.filePath IS NULL THEN null ELSE {path: fact.filePath, change: fact.fileChange, additions: fact.fileAdditions, deletions: fact.fileDeletions, previousPath: fact.filePreviousPath} END}) AS childFacts
  }
  RETURN reduce(all = [], facts IN collect(childFacts) | all + facts)[0..$factLimit] AS subagentFacts
}
RETURN runs, facts + subagentFacts AS facts, checkpoints, threadProviders
