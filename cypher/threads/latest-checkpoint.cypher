// The newest checkpoint of each segment of each thread's history (src/domain/history.ts) that a live
// run captured: a fork's latest checkpoint may be one it inherited, even if its source has since
// rolled it back. The caller keeps the newest of a thread's rows.
UNWIND $threads AS history
CALL (history) {
  UNWIND history.segments AS segment
  CALL (segment) {
    MATCH (checkpoint:Checkpoint {tenant: $tenant, threadId: segment.threadId})<-[:CAPTURED]-(run:Run)
    WHERE checkpoint.runOrdinal >= segment.from AND checkpoint.runOrdinal <= segment.to
      AND (run.status <> 'rolled_back' OR (segment.asOf IS NOT NULL AND run.rolledBackAt > datetime(segment.asOf)))
    // The index's full key, so the newest checkpoint is read first rather than all of them sorted.
    RETURN checkpoint ORDER BY checkpoint.tenant DESC, checkpoint.threadId DESC, checkpoint.runOrdinal DESC LIMIT 1
  }
  RETURN collect(checkpoint {.*}) AS checkpoints
}
RETURN history.threadId AS threadId, checkpoints
