// Coverage matrix: for each live run of thread $threadId's history and each of the thread's provider
// threads, how that provider thread knows the run: `native` (it served the run: its served ranges
// servedFrom..servedTo, which follow its USES edges, or a natively forked provider thread's
// inherited ordinals through inheritedThroughOrdinal), `handoff` (a standing handoff, status pending
// or ready, of transferKind provider_handoff or fork, DELIVERED_TO it has the run's ordinal in its
// range coveredFrom..coveredTo) or `missing`. The history goes through the thread's segments, so a
// fork's inherited runs (which live in its source thread) are rows too; the runs of the thread's
// rolled-back ranges (rolledBackFrom/To: its own rollbacks, and what its source had rolled back when
// it forked) are not. One page of runs in ordinal order, and of columns: the provider threads
// numbered $columnsFrom on (seq, their caption's #N), at most $columns.
//
// Its cost follows the page, not the thread's length or its number of switches: each segment's runs
// are read in the run index's key order, stopping at $limit, the columns in the provider thread
// index's order, stopping at $columns, and each column's ranges are read once a page, not once a cell.
//
// $standingStatuses and $coverageKinds (the lineage rules of src/domain/standing.ts) are set by the
// service like $tenant; in Neo4j Browser set them with :param.
//
// Parameters:
//   $threadId     the app thread
//   $fromOrdinal  first ordinal of the page [default: 1]
//   $limit        runs per page [default: 50]
//   $columnsFrom  seq of the first provider thread of the page [default: 1]
//   $columns      provider threads per page [default: 50]
//
// Columns (one row per run):
//   ordinal           the run's ordinal in the thread's history
//   runId             the run
//   runThreadId       the thread that holds the run ($threadId, or an ancestor for inherited runs)
//   provider          the run's provider
//   status            the run's status
//   servedBy          the provider thread that served it (may belong to an ancestor thread)
//   coverage          the same cells for reading: 'codex #1=native, claude #2=handoff'
//   cells             one {providerThreadId, caption, kind} per provider thread of the page, by seq
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
WITH thread, coalesce(thread.segmentThreadIds, []) AS segmentIds, coalesce(thread.segmentTo, []) AS segmentTo,
     coalesce(thread.rolledBackFrom, []) AS goneFrom, coalesce(thread.rolledBackTo, []) AS goneTo
WITH thread, goneFrom, goneTo,
     [i IN range(0, size(segmentIds) - 1) |
       {threadId: segmentIds[i], from: CASE WHEN i = 0 THEN 1 ELSE segmentTo[i - 1] + 1 END, to: segmentTo[i]}]
     + [{threadId: thread.id, from: coalesce(thread.forkOrdinal, 0) + 1, to: coalesce(thread.lastOrdinal, 0)}] AS segments
CALL (thread) {
  MATCH (providerThread:ProviderThread {tenant: $tenant, threadId: thread.id})
  WHERE providerThread.seq >= $columnsFrom
  WITH providerThread ORDER BY providerThread.tenant, providerThread.threadId, providerThread.seq
  LIMIT $columns
  CALL (providerThread) {
    OPTIONAL MATCH (handoff:ContextHandoff)-[:DELIVERED_TO]->(providerThread)
    WHERE handoff.status IN $standingStatuses AND handoff.transferKind IN $coverageKinds
    RETURN collect([handoff.coveredFrom, handoff.coveredTo]) AS handoffRanges
  }
  RETURN collect({
    id: providerThread.id, caption: providerThread.caption,
    inheritedThrough: coalesce(providerThread.inheritedThroughOrdinal, 0),
    servedFrom: coalesce(providerThread.servedFrom, []), servedTo: coalesce(providerThread.servedTo, []),
    handoffRanges: handoffRanges
  }) AS providerThreads
}
CALL (segments, goneFrom, goneTo) {
  UNWIND segments AS segment
  CALL (segment, goneFrom, goneTo) {
    MATCH (run:Run {tenant: $tenant, threadId: segment.threadId})
    WHERE run.ordinal >= CASE WHEN segment.from > $fromOrdinal THEN segment.from ELSE $fromOrdinal END
      AND run.ordinal <= segment.to
      AND NOT any(i IN range(0, size(goneFrom) - 1) WHERE goneFrom[i] <= run.ordinal <= goneTo[i])
    WITH run ORDER BY run.tenant, run.threadId, run.ordinal
    LIMIT $limit
    RETURN run
  }
  RETURN run ORDER BY run.ordinal LIMIT $limit
}
CALL (run, providerThreads) {
  UNWIND providerThreads AS providerThread
  WITH providerThread,
       CASE
         WHEN run.ordinal <= providerThread.inheritedThrough
           OR any(i IN range(0, size(providerThread.servedFrom) - 1) WHERE providerThread.servedFrom[i] <= run.ordinal <= providerThread.servedTo[i])
           THEN 'native'
         WHEN any(covered IN providerThread.handoffRanges WHERE covered[0] <= run.ordinal <= covered[1]) THEN 'handoff'
         ELSE 'missing'
       END AS kind
  RETURN collect({providerThreadId: providerThread.id, caption: providerThread.caption, kind: kind}) AS cells
}
RETURN run.ordinal AS ordinal, run.id AS runId, run.threadId AS runThreadId, run.provider AS provider,
       run.status AS status, run.providerThreadId AS servedBy,
       reduce(text = '', cell IN cells | text + CASE WHEN text = '' THEN '' ELSE ', ' END + cell.caption + '=' + cell.kind) AS coverage,
       cells
ORDER BY ordinal
