// Ends run $runId, when it is running, as $status (completed, failed or interrupted) with what it
// produced: the assistant message, its facts and its checkpoint. The thread no longer has a running
// run, and its change feed gets $changeKind (run_completed or run_failed). It takes the thread's
// write lock first, as runs/lock-for-update does, and answers what the checks read of the run and
// its provider thread as they were when locked (not the whole nodes: the run's texts would come
// twice): completeRun and failRun check them (no such run, a stale fencing token, a run not running)
// on this one statement's answer instead of waiting for a lock statement before sending this one
// (docs/benchmarks.md, the throughput run). A check that refuses rolls back what this wrote.
MATCH (run:Run {tenant: $tenant, id: $runId})-[:USES]->(providerThread:ProviderThread)
MATCH (thread:Thread {tenant: $tenant, id: run.threadId})
SET thread._lock = true
REMOVE thread._lock
WITH run, thread, providerThread, run {.id, .status, .providerThreadId, .dispatchEpoch} AS found, providerThread {.id, .status} AS serving
OPTIONAL CALL (run, thread, providerThread) {
  WITH run, thread, providerThread
  WHERE run.status = 'running'
  SET run.status = $status,
      run.assistantMessage = $assistantMessage,
      run.error = $error,
      run.completedAt = datetime(),
      thread.runningRunId = null,
      thread.lastActivityAt = datetime(),
      providerThread.status = CASE providerThread.status WHEN 'active' THEN 'idle' ELSE providerThread.status END
  INCLUDE changes/append
  WITH run
  CALL (run) {
    // Facts recorded while the run was running (a subagent's result) keep their place before these.
    OPTIONAL MATCH (run)-[:RECORDED]->(earlier:RunFact)
    WITH run, count(earlier) AS offset
    UNWIND range(0, size($facts) - 1) AS position
    WITH run, offset + position AS seq, $facts[position] AS fact
    CREATE (run)-[:RECORDED]->(:RunFact {
      tenant: $tenant, threadId: run.threadId, runOrdinal: run.ordinal, seq: seq,
      kind: fact.kind, text: fact.text, key: fact.key, status: fact.status,
      filePath: fact.file.path, fileChange: fact.file.change, fileAdditions: fact.file.additions, fileDeletions: fact.file.deletions,
      filePreviousPath: fact.file.previousPath,
      caption: fact.kind + ': ' + left(fact.text, 40)
    })
  }
  CALL (run) {
    UNWIND CASE WHEN $checkpoint IS NULL THEN [] ELSE [$checkpoint] END AS checkpoint
    CREATE (run)-[:CAPTURED]->(:Checkpoint {
      tenant: $tenant, id: checkpoint.id, threadId: run.threadId, runId: run.id, runOrdinal: run.ordinal,
      ref: checkpoint.ref, diffSummary: checkpoint.diffSummary, filesJson: checkpoint.filesJson,
      fileCount: checkpoint.fileCount, status: 'current', caption: checkpoint.ref, createdAt: datetime()
    })
  }
  RETURN run {.*} AS finished
}
RETURN found AS run, serving AS providerThread, finished
