// A standing handoff's range is 0-0 or 1 <= from <= to (0-0 for a subagent's), a switch or fork handoff's range ends below its target run, and its COVERS edges (at most two) point to runs of its range (in its thread's history, or in its fork for a merge-back; live ones for a switch or fork handoff, which a rollback of those runs withdraws), at least one when the range holds a live run.
MATCH (handoff:ContextHandoff)
WHERE handoff.status IN $standingStatuses AND ($tenant IS NULL OR handoff.tenant = $tenant)
OPTIONAL MATCH (target:Run {tenant: handoff.tenant, id: handoff.targetRunId})
OPTIONAL MATCH (transfer:ContextTransfer {tenant: handoff.tenant, id: handoff.transferId})
// A merge-back's range is in the ordinals of the fork it merges; every other range is in the handoff's own thread.
WITH handoff, target, coalesce(handoff.coveredFrom, 0) AS from, coalesce(handoff.coveredTo, 0) AS to,
     CASE WHEN handoff.transferKind = 'merge_back' THEN transfer.sourceThreadId ELSE handoff.threadId END AS historyThreadId
OPTIONAL MATCH (history:Thread {tenant: handoff.tenant, id: historyThreadId})
WITH handoff, target, from, to, history,
     coalesce(history.segmentThreadIds, []) AS segmentIds, coalesce(history.segmentTo, []) AS segmentTo, coalesce(history.segmentAsOf, []) AS segmentAsOf
WITH handoff, target, from, to, history,
     [i IN range(0, size(segmentIds) - 1) |
       {threadId: segmentIds[i], from: CASE WHEN i = 0 THEN 1 ELSE segmentTo[i - 1] + 1 END, to: segmentTo[i], asOf: segmentAsOf[i]}]
     + [{threadId: history.id, from: coalesce(history.forkOrdinal, 0) + 1, to: coalesce(history.lastOrdinal, 0), asOf: null}] AS segments
CALL (handoff, from, to, segments) {
  OPTIONAL MATCH (handoff)-[:COVERS]->(run:Run)
  WITH run, [segment IN segments WHERE segment.threadId = run.threadId AND segment.from <= run.ordinal <= segment.to][0] AS segment
  RETURN count(run) AS edges,
         [run IN collect(CASE WHEN segment IS NULL OR run.ordinal < from OR run.ordinal > to
                                   OR (handoff.transferKind IN $coverageKinds AND run.status = 'rolled_back'
                                       AND (segment.asOf IS NULL OR run.rolledBackAt <= datetime(segment.asOf)))
                              THEN run.id END) WHERE run IS NOT NULL] AS badTargets
}
CALL (handoff, from, to, segments) {
  UNWIND CASE WHEN from < 1 THEN [] ELSE segments END AS segment
  OPTIONAL MATCH (run:Run {tenant: handoff.tenant, threadId: segment.threadId})
  WHERE run.ordinal >= segment.from AND run.ordinal <= segment.to AND run.ordinal >= from AND run.ordinal <= to
    AND (run.status <> 'rolled_back' OR (segment.asOf IS NOT NULL AND run.rolledBackAt > datetime(segment.asOf)))
  WITH run LIMIT 1
  RETURN count(run) > 0 AS holdsLiveRun
}
WITH handoff, target, from, to, history, edges, badTargets, holdsLiveRun, [problem IN [
       CASE WHEN NOT ((from = 0 AND to = 0) OR (1 <= from AND from <= to)) THEN 'its range is neither 0-0 nor 1 <= from <= to' END,
       CASE WHEN from >= 1 AND history IS NULL THEN 'the thread its range is in does not exist' END,
       CASE WHEN handoff.transferKind IN ['subagent_spawn', 'subagent_result'] AND (from <> 0 OR to <> 0) THEN 'a subagent handoff with a range' END,
       CASE WHEN edges > 2 THEN 'it has more than two COVERS edges' END,
       CASE WHEN size(badTargets) > 0 THEN 'it COVERS a run that is not a live run of its range' END,
       CASE WHEN holdsLiveRun AND edges = 0 THEN 'its range holds live runs but it COVERS none' END,
       CASE WHEN handoff.transferKind IN $coverageKinds AND to >= target.ordinal THEN 'its range reaches its target run' END
     ] WHERE problem IS NOT NULL] AS problems
WHERE size(problems) > 0
RETURN handoff.tenant AS tenant, handoff.threadId AS threadId, handoff.id AS handoffId, handoff.transferKind AS transferKind,
       from AS coveredFrom, to AS coveredTo, target.ordinal AS targetRunOrdinal, edges, badTargets, problems
