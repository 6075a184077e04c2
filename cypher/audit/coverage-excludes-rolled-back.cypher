// A provider thread never counts a run that is not live in its thread's history as known: each run COVERED by a standing provider_handoff or fork handoff delivered to it is live in the segment holding its ordinal, and a native fork inherits no further than the thread's fork point.
MATCH (providerThread:ProviderThread)
OPTIONAL MATCH (thread:Thread {tenant: providerThread.tenant, id: providerThread.threadId})
CALL (providerThread, thread) {
  MATCH (providerThread)<-[:DELIVERED_TO]-(handoff:ContextHandoff)-[:COVERS]->(run:Run)
  WHERE handoff.status IN ['pending', 'ready'] AND handoff.transferKind IN ['provider_handoff', 'fork']
  WITH thread, handoff, run,
       CASE WHEN run.ordinal > coalesce(thread.forkOrdinal, 0) THEN null ELSE size([t IN thread.segmentTo WHERE t < run.ordinal]) END AS segment
  WITH handoff, run,
       CASE WHEN segment IS NULL THEN thread.id ELSE thread.segmentThreadIds[segment] END AS holderThreadId,
       CASE WHEN segment IS NULL THEN null ELSE thread.segmentAsOf[segment] END AS asOf
  WHERE NOT coalesce(run.threadId = holderThreadId
                     AND (run.status <> 'rolled_back' OR (asOf IS NOT NULL AND run.rolledBackAt > datetime(asOf))), false)
  RETURN handoff.id AS handoffId, run.id AS runId, run.threadId AS runThreadId, run.ordinal AS ordinal, run.status AS runStatus,
         'it counts a run that is not live in its history as covered' AS problem
  UNION
  WITH providerThread, thread
  WHERE providerThread.inheritedThroughOrdinal IS NOT NULL
    AND NOT coalesce(providerThread.inheritedThroughOrdinal <= thread.forkOrdinal, false)
  RETURN null AS handoffId, null AS runId, null AS runThreadId, providerThread.inheritedThroughOrdinal AS ordinal, null AS runStatus,
         'it inherits through a native fork past the fork point of its thread' AS problem
}
RETURN providerThread.tenant AS tenant, providerThread.threadId AS threadId, providerThread.id AS providerThreadId,
       handoffId, runId, runThreadId, ordinal, runStatus, problem
