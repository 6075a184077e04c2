// Coverage gaps: live runs of a thread's history that one of its provider threads still in use
// (status active or idle) has never seen: it neither served them (USES, or inherited through a
// native fork's inheritedThroughOrdinal) nor received them through a standing handoff (pending or
// ready, transferKind provider_handoff or fork) whose range holds them. Such a provider thread needs a
// delta (or more) the next time its provider serves the thread. The history goes through the
// thread's segments, so a fork's inherited runs count; the thread's rolled-back ranges do not.
//
// $standingStatuses and $coverageKinds (the lineage rules of src/domain/standing.ts) are set by the
// service like $tenant; in Neo4j Browser set them with :param.
//
// Parameters:
//   $threadId  one app thread, or null for every thread of the tenant [default: null]
//   $limit     at most this many rows [default: 100]
//
// Columns (one row per thread and provider thread with a gap, largest gap first):
//   threadId, threadCaption              the app thread
//   providerThreadId, provider, caption  the provider thread with the gap
//   status                               its status (active or idle)
//   missingRuns                          how many live runs it has never seen
//   firstMissing, lastMissing            lowest and highest such ordinal
//   missingOrdinals                      the first 100 such ordinals, ascending
CALL () {
  MATCH (thread:Thread {tenant: $tenant, id: $threadId})
  RETURN thread
  UNION
  WITH 1 AS everyThread WHERE $threadId IS NULL
  MATCH (thread:Thread {tenant: $tenant})
  WHERE thread.createdAt IS NOT NULL
  RETURN thread
}
WITH thread, coalesce(thread.segmentThreadIds, []) AS segmentIds, coalesce(thread.segmentTo, []) AS segmentTo,
     coalesce(thread.rolledBackFrom, []) AS goneFrom, coalesce(thread.rolledBackTo, []) AS goneTo
WITH thread, goneFrom, goneTo,
     [i IN range(0, size(segmentIds) - 1) |
       {threadId: segmentIds[i], from: CASE WHEN i = 0 THEN 1 ELSE segmentTo[i - 1] + 1 END, to: segmentTo[i]}]
     + [{threadId: thread.id, from: coalesce(thread.forkOrdinal, 0) + 1, to: coalesce(thread.lastOrdinal, 0)}] AS segments
MATCH (thread)-[:HAS_PROVIDER_THREAD]->(providerThread:ProviderThread)
WHERE providerThread.status IN ['active', 'idle']
CALL (segments, goneFrom, goneTo, providerThread) {
  UNWIND segments AS segment
  MATCH (run:Run {tenant: $tenant, threadId: segment.threadId})
  WHERE run.ordinal >= segment.from AND run.ordinal <= segment.to
    AND NOT any(i IN range(0, size(goneFrom) - 1) WHERE goneFrom[i] <= run.ordinal <= goneTo[i])
    AND run.ordinal > coalesce(providerThread.inheritedThroughOrdinal, 0)
    AND NOT EXISTS { (run)-[:USES]->(providerThread) }
    AND NOT EXISTS {
      MATCH (handoff:ContextHandoff)-[:DELIVERED_TO]->(providerThread)
      WHERE handoff.status IN $standingStatuses AND handoff.transferKind IN $coverageKinds
        AND handoff.coveredFrom <= run.ordinal <= handoff.coveredTo
    }
  WITH run ORDER BY run.ordinal
  RETURN count(run) AS missingRuns, min(run.ordinal) AS firstMissing, max(run.ordinal) AS lastMissing,
         collect(run.ordinal)[0..100] AS missingOrdinals
}
WITH thread, providerThread, missingRuns, firstMissing, lastMissing, missingOrdinals
WHERE missingRuns > 0
RETURN thread.id AS threadId, thread.caption AS threadCaption,
       providerThread.id AS providerThreadId, providerThread.provider AS provider, providerThread.caption AS caption,
       providerThread.status AS status, missingRuns, firstMissing, lastMissing, missingOrdinals
ORDER BY missingRuns DESC, threadId, providerThread.seq
LIMIT $limit
