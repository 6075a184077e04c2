// The newest checkpoint of each live piece of each thread's history (livePiecesFor in
// src/domain/history.ts: every ordinal of a piece is a live run of its thread): a fork's latest
// checkpoint may be one it inherited, even if its source has since rolled it back. The caller keeps
// the newest of a thread's rows.
UNWIND $threads AS history
CALL (history) {
  UNWIND history.pieces AS piece
  CALL (piece) {
    MATCH (checkpoint:Checkpoint {tenant: $tenant, threadId: piece.threadId})
    WHERE checkpoint.runOrdinal >= piece.from AND checkpoint.runOrdinal <= piece.to
    // The index's full key, so the newest checkpoint is read first rather than all of them sorted.
    RETURN checkpoint ORDER BY checkpoint.tenant DESC, checkpoint.threadId DESC, checkpoint.runOrdinal DESC LIMIT 1
  }
  RETURN collect(checkpoint {.*}) AS checkpoints
}
RETURN history.threadId AS threadId, checkpoints
