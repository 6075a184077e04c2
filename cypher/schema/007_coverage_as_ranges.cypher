// Moves a store written before coverage was kept as ranges to the new shape, in batches, touching
// only what lacks it (the service writes every new node in the new shape), so it can run again:
// - a thread records the ordinals of its history that are not live (rolledBackFrom / rolledBackTo):
//   its own rolled-back runs, and inherited runs rolled back at or before its segment's asOf;
// - a provider thread records its native ranges (servedFrom / servedTo) from its live USES edges;
// - a handoff records the ordinal of the run it was made for, and keeps COVERS edges only to the
//   first and the last run it covered;
// - a handoff withdrawn by a rollback says so as its end reason (endedBecause), not as a flag.
// Sorted ordinals become ranges by folding each one into the last range when it follows it.
MATCH (thread:Thread)
WHERE thread.rolledBackFrom IS NULL
CALL (thread) {
  WITH thread, coalesce(thread.segmentThreadIds, []) AS segmentIds, coalesce(thread.segmentTo, []) AS segmentTo,
       coalesce(thread.segmentAsOf, []) AS segmentAsOf
  WITH thread,
       [i IN range(0, size(segmentIds) - 1) |
         {threadId: segmentIds[i], from: CASE WHEN i = 0 THEN 1 ELSE segmentTo[i - 1] + 1 END, to: segmentTo[i], asOf: segmentAsOf[i]}]
       + [{threadId: thread.id, from: coalesce(thread.forkOrdinal, 0) + 1, to: coalesce(thread.lastOrdinal, 0), asOf: null}] AS segments
  CALL (thread, segments) {
    UNWIND segments AS segment
    OPTIONAL MATCH (run:Run {tenant: thread.tenant, threadId: segment.threadId})
    WHERE run.ordinal >= segment.from AND run.ordinal <= segment.to AND run.status = 'rolled_back'
      AND (segment.asOf IS NULL OR run.rolledBackAt <= datetime(segment.asOf))
    WITH run ORDER BY run.ordinal
    RETURN [ordinal IN collect(run.ordinal) WHERE ordinal IS NOT NULL] AS ordinals
  }
  WITH thread, reduce(ranges = [], ordinal IN ordinals |
         CASE WHEN size(ranges) > 0 AND ranges[-1][1] = ordinal - 1 THEN ranges[0..-1] + [[ranges[-1][0], ordinal]] ELSE ranges + [[ordinal, ordinal]] END) AS ranges
  SET thread.rolledBackFrom = [range IN ranges | range[0]], thread.rolledBackTo = [range IN ranges | range[1]]
} IN TRANSACTIONS OF 10 ROWS;

MATCH (providerThread:ProviderThread)
WHERE providerThread.servedFrom IS NULL
CALL (providerThread) {
  OPTIONAL MATCH (providerThread)<-[:USES]-(served:Run)
  WHERE served.status <> 'rolled_back'
  WITH providerThread, served ORDER BY served.ordinal
  WITH providerThread, [ordinal IN collect(served.ordinal) WHERE ordinal IS NOT NULL] AS ordinals
  WITH providerThread, reduce(ranges = [], ordinal IN ordinals |
         CASE WHEN size(ranges) > 0 AND ranges[-1][1] = ordinal - 1 THEN ranges[0..-1] + [[ranges[-1][0], ordinal]] ELSE ranges + [[ordinal, ordinal]] END) AS ranges
  SET providerThread.servedFrom = [range IN ranges | range[0]], providerThread.servedTo = [range IN ranges | range[1]]
} IN TRANSACTIONS OF 10 ROWS;

MATCH (handoff:ContextHandoff)
WHERE handoff.targetRunOrdinal IS NULL
CALL (handoff) {
  OPTIONAL MATCH (target:Run {tenant: handoff.tenant, id: handoff.targetRunId})
  SET handoff.targetRunOrdinal = target.ordinal
  WITH handoff
  CALL (handoff) {
    MATCH (handoff)-[covers:COVERS]->(covered:Run)
    WITH covers ORDER BY covered.ordinal
    WITH collect(covers) AS edges
    UNWIND edges[1..-1] AS inner
    DELETE inner
  }
} IN TRANSACTIONS OF 5 ROWS;

MATCH (handoff:ContextHandoff)
WHERE handoff.supersededByRollback = true
CALL (handoff) {
  SET handoff.endedBecause = 'rolled_back', handoff.endedAt = handoff.updatedAt
  REMOVE handoff.supersededByRollback
} IN TRANSACTIONS OF 1000 ROWS;
