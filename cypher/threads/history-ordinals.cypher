// The live ordinals of each thread's history, given as segments (src/domain/history.ts).
UNWIND $threads AS history
CALL (history) {
  UNWIND history.segments AS segment
  MATCH (run:Run {tenant: $tenant, threadId: segment.threadId})
  WHERE run.ordinal >= segment.from AND run.ordinal <= segment.to
    AND (run.status <> 'rolled_back' OR (segment.asOf IS NOT NULL AND run.rolledBackAt > datetime(segment.asOf)))
  RETURN collect(run.ordinal) AS ordinals
}
RETURN history.threadId AS threadId, ordinals
