// A standing handoff COVERS only runs of its range (coveredFrom..coveredTo of its thread's history, or of its fork for a merge-back; nothing for 0-0), every live one of them, and a switch or fork handoff's range ends below its target run.
MATCH (handoff:ContextHandoff)
WHERE handoff.status IN ['pending', 'ready']
OPTIONAL MATCH (target:Run {tenant: handoff.tenant, id: handoff.targetRunId})
OPTIONAL MATCH (transfer:ContextTransfer {tenant: handoff.tenant, id: handoff.transferId})
// A merge-back's range is in the ordinals of the fork it merges; every other range is in the handoff's own thread.
WITH handoff, target, coalesce(handoff.coveredFrom, 0) AS from, coalesce(handoff.coveredTo, 0) AS to,
     CASE WHEN handoff.transferKind = 'merge_back' THEN transfer.sourceThreadId ELSE handoff.threadId END AS historyThreadId
OPTIONAL MATCH (history:Thread {tenant: handoff.tenant, id: historyThreadId})
CALL (handoff) {
  OPTIONAL MATCH (handoff)-[:COVERS]->(run:Run)
  WITH run ORDER BY run.threadId, run.ordinal, run.id
  RETURN collect(run {.id, .threadId, .ordinal}) AS covered
}
CALL (history, from, to) {
  UNWIND CASE WHEN history IS NULL OR from < 1 THEN [] ELSE range(from, to) END AS ordinal
  WITH history, ordinal,
       CASE WHEN ordinal > coalesce(history.forkOrdinal, 0) THEN null ELSE size([t IN history.segmentTo WHERE t < ordinal]) END AS segment
  WITH history, ordinal,
       CASE WHEN segment IS NULL THEN history.id ELSE history.segmentThreadIds[segment] END AS holderThreadId,
       CASE WHEN segment IS NULL THEN null ELSE history.segmentAsOf[segment] END AS asOf
  OPTIONAL MATCH (run:Run {tenant: history.tenant, threadId: holderThreadId, ordinal: ordinal})
  WITH ordinal, run,
       run IS NOT NULL AND (run.status <> 'rolled_back' OR (asOf IS NOT NULL AND run.rolledBackAt > datetime(asOf))) AS live
  ORDER BY ordinal
  RETURN collect({ordinal: ordinal, runId: run.id, live: live}) AS held
}
WITH handoff, target, from, to, history, covered,
     [run IN covered WHERE NOT any(slot IN held WHERE slot.runId = run.id) | run.id] AS outsideRange,
     [slot IN held WHERE slot.live AND NOT any(run IN covered WHERE run.id = slot.runId) | slot.ordinal] AS uncoveredLiveOrdinals
WITH handoff, target, from, to, outsideRange, uncoveredLiveOrdinals, [problem IN [
       CASE WHEN NOT ((from = 0 AND to = 0) OR (1 <= from AND from <= to)) THEN 'its range is neither 0-0 nor 1 <= from <= to' END,
       CASE WHEN from >= 1 AND history IS NULL THEN 'the thread its range is in does not exist' END,
       CASE WHEN handoff.transferKind IN ['subagent_spawn', 'subagent_result'] AND (from <> 0 OR to <> 0) THEN 'a subagent handoff with a range' END,
       CASE WHEN size(outsideRange) > 0 THEN 'it covers runs outside the runs of its range in its history' END,
       CASE WHEN size(uncoveredLiveOrdinals) > 0 THEN 'it leaves live runs of its range uncovered' END,
       CASE WHEN handoff.transferKind IN ['provider_handoff', 'fork'] AND to >= target.ordinal THEN 'its range reaches its target run' END
     ] WHERE problem IS NOT NULL] AS problems
WHERE size(problems) > 0
RETURN handoff.tenant AS tenant, handoff.threadId AS threadId, handoff.id AS handoffId, handoff.transferKind AS transferKind,
       from AS coveredFrom, to AS coveredTo, target.ordinal AS targetRunOrdinal, outsideRange, uncoveredLiveOrdinals, problems
