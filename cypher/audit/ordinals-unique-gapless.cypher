// Each ordinal 1..lastOrdinal of a thread's history belongs to exactly one run (an inherited one to the run of the segment holding it), and the thread's own runs lie in forkOrdinal+1..lastOrdinal.
MATCH (thread:Thread)
WHERE $tenant IS NULL OR thread.tenant = $tenant
WITH thread, coalesce(thread.forkOrdinal, 0) AS forkOrdinal, coalesce(thread.lastOrdinal, 0) AS lastOrdinal,
     coalesce(thread.segmentThreadIds, []) AS segmentThreadIds, coalesce(thread.segmentTo, []) AS segmentTo,
     coalesce(thread.segmentAsOf, []) AS segmentAsOf
CALL (thread, forkOrdinal, lastOrdinal, segmentThreadIds, segmentTo, segmentAsOf) {
  WITH *
  WHERE size(segmentTo) <> size(segmentThreadIds) OR size(segmentAsOf) <> size(segmentThreadIds)
     OR (size(segmentTo) = 0 AND forkOrdinal <> 0)
     OR (size(segmentTo) > 0 AND (segmentTo[0] < 1 OR segmentTo[-1] <> forkOrdinal))
     OR any(i IN range(1, size(segmentTo) - 1) WHERE segmentTo[i] <= segmentTo[i - 1])
     OR lastOrdinal < forkOrdinal
  RETURN null AS ordinal, null AS holderThreadId, [] AS runIds,
         'its history segments do not run contiguously from 1 to its fork point, or its fork point is past lastOrdinal' AS problem
  UNION
  UNWIND range(1, lastOrdinal) AS ordinal
  WITH thread, ordinal,
       CASE WHEN ordinal > forkOrdinal THEN thread.id ELSE segmentThreadIds[size([to IN segmentTo WHERE to < ordinal])] END AS holderThreadId
  OPTIONAL MATCH (run:Run {tenant: thread.tenant, threadId: holderThreadId, ordinal: ordinal})
  WITH ordinal, holderThreadId, run ORDER BY run.id
  WITH ordinal, holderThreadId, collect(run.id) AS runIds
  WHERE size(runIds) <> 1
  RETURN ordinal, holderThreadId, runIds,
         CASE size(runIds) WHEN 0 THEN 'no run holds this ordinal' ELSE 'several runs hold this ordinal' END AS problem
  UNION
  MATCH (run:Run {tenant: thread.tenant, threadId: thread.id})
  WHERE run.ordinal IS NOT NULL AND (run.ordinal <= forkOrdinal OR run.ordinal > lastOrdinal)
  RETURN run.ordinal AS ordinal, thread.id AS holderThreadId, [run.id] AS runIds, 'an own run outside forkOrdinal+1..lastOrdinal' AS problem
}
RETURN thread.tenant AS tenant, thread.id AS threadId, forkOrdinal, lastOrdinal, ordinal, holderThreadId, runIds, problem
UNION
MATCH (run:Run)
WHERE ($tenant IS NULL OR run.tenant = $tenant)
  AND (run.ordinal IS NULL OR NOT EXISTS { MATCH (thread:Thread {tenant: run.tenant, id: run.threadId}) })
RETURN run.tenant AS tenant, run.threadId AS threadId, null AS forkOrdinal, null AS lastOrdinal, run.ordinal AS ordinal,
       run.threadId AS holderThreadId, [run.id] AS runIds, 'a run without an ordinal or without its thread' AS problem
