// Coverage subtracts what a thread's history holds as not live: its rolled-back ranges (rolledBackFrom / rolledBackTo) hold exactly the ordinals of its own runs that are rolled back, and of its inherited ordinals those whose run was rolled back when the fork was made (at or before the segment's asOf); and a native fork inherits no further than the thread's fork point.
MATCH (thread:Thread)
WHERE $tenant IS NULL OR thread.tenant = $tenant
WITH thread, coalesce(thread.rolledBackFrom, []) AS rolledBackFrom, coalesce(thread.rolledBackTo, []) AS rolledBackTo,
     coalesce(thread.segmentThreadIds, []) AS segmentIds, coalesce(thread.segmentTo, []) AS segmentTo, coalesce(thread.segmentAsOf, []) AS segmentAsOf
WITH thread, rolledBackFrom, rolledBackTo,
     [i IN range(0, size(segmentIds) - 1) |
       {threadId: segmentIds[i], from: CASE WHEN i = 0 THEN 1 ELSE segmentTo[i - 1] + 1 END, to: segmentTo[i], asOf: segmentAsOf[i]}]
     + [{threadId: thread.id, from: coalesce(thread.forkOrdinal, 0) + 1, to: coalesce(thread.lastOrdinal, 0), asOf: null}] AS segments
CALL (thread, rolledBackFrom, rolledBackTo, segments) {
  UNWIND segments AS segment
  MATCH (run:Run {tenant: thread.tenant, threadId: segment.threadId})
  WHERE run.ordinal >= segment.from AND run.ordinal <= segment.to
  WITH run, run.status = 'rolled_back' AND (segment.asOf IS NULL OR run.rolledBackAt <= datetime(segment.asOf)) AS notLive,
       any(i IN range(0, size(rolledBackFrom) - 1) WHERE rolledBackFrom[i] <= run.ordinal <= rolledBackTo[i]) AS listed
  WHERE notLive <> listed
  RETURN run.id AS runId, run.ordinal AS ordinal, run.status AS runStatus,
         CASE WHEN listed THEN 'it lists a live run as rolled back' ELSE 'it leaves a rolled-back run out of its rolled-back ranges' END AS problem
  UNION
  WITH thread, rolledBackFrom, rolledBackTo
  WHERE any(i IN range(0, size(rolledBackFrom) - 1) WHERE rolledBackTo[i] > coalesce(thread.lastOrdinal, 0) OR rolledBackFrom[i] < 1)
  RETURN null AS runId, null AS ordinal, null AS runStatus, 'its rolled-back ranges reach outside 1..lastOrdinal' AS problem
  UNION
  WITH thread
  MATCH (thread)-[:HAS_PROVIDER_THREAD]->(providerThread:ProviderThread)
  WHERE providerThread.inheritedThroughOrdinal IS NOT NULL
    AND NOT coalesce(providerThread.inheritedThroughOrdinal <= thread.forkOrdinal, false)
  RETURN providerThread.id AS runId, providerThread.inheritedThroughOrdinal AS ordinal, null AS runStatus,
         'a provider thread inherits through a native fork past the fork point of its thread' AS problem
}
RETURN thread.tenant AS tenant, thread.id AS threadId, runId, ordinal, runStatus, problem
