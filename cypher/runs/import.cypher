// Appends runs that already happened (importRuns) to thread $threadId, served by provider thread
// $providerThreadId, with their original times, outcome and facts: what runs/create and runs/finish
// write for a run that started and ended, without a running run in between. The caller holds the
// thread lock and numbered the runs after the thread's lastOrdinal; $served is the provider thread's
// native ranges with them added (src/domain/coverage.ts), so coverage reads never walk the edges.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
MATCH (providerThread:ProviderThread {tenant: $tenant, id: $providerThreadId})
WITH thread, providerThread, thread.lastOrdinal > coalesce(thread.forkOrdinal, 0) AS hadRuns
SET thread.lastOrdinal = $lastOrdinal,
    thread.headOrdinal = $lastOrdinal,
    thread.providers = CASE WHEN providerThread.provider IN thread.providers THEN thread.providers ELSE thread.providers + providerThread.provider END,
    providerThread += $served,
    providerThread.model = coalesce($model, providerThread.model)
// Imported runs keep their own times: the thread's last activity is the newest of its runs' times
// (its creation time, which it held before its first run, does not count).
WITH thread, providerThread, reduce(newest = CASE WHEN hadRuns THEN thread.lastActivityAt END, imported IN $runs |
  CASE WHEN newest IS NULL OR datetime(coalesce(imported.completedAt, imported.startedAt)) > newest
       THEN datetime(coalesce(imported.completedAt, imported.startedAt)) ELSE newest END) AS newest
SET thread.lastActivityAt = coalesce(newest, thread.lastActivityAt)
WITH thread, providerThread
UNWIND $runs AS imported
CREATE (run:Run)
SET run = imported.run,
    run.tenant = $tenant,
    run.threadId = thread.id,
    run.provider = providerThread.provider,
    run.providerThreadId = providerThread.id,
    run.caption = '#' + toString(imported.run.ordinal) + ' ' + providerThread.provider,
    run.createdAt = datetime(imported.startedAt),
    run.completedAt = datetime(imported.completedAt)
CREATE (thread)-[:HAS_RUN]->(run)
CREATE (run)-[:USES]->(providerThread)
WITH thread, providerThread, run, imported
CALL (run, imported) {
  UNWIND range(0, size(imported.facts) - 1) AS seq
  WITH run, seq, imported.facts[seq] AS fact
  CREATE (run)-[:RECORDED]->(:RunFact {
    tenant: $tenant, threadId: run.threadId, runOrdinal: run.ordinal, seq: seq,
    kind: fact.kind, text: fact.text, key: fact.key, status: fact.status,
    filePath: fact.file.path, fileChange: fact.file.change, fileAdditions: fact.file.additions, fileDeletions: fact.file.deletions,
    filePreviousPath: fact.file.previousPath,
    caption: fact.kind + ': ' + left(fact.text, 40)
  })
}
WITH thread, providerThread, run ORDER BY run.ordinal
RETURN thread {.*} AS thread, providerThread {.*} AS providerThread, collect(run {.*}) AS runs
