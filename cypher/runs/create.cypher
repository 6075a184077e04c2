// Creates run $run.id as the thread's next ordinal, served by provider thread $providerThreadId,
// and makes it the thread's running run, and appends $changeKind (run_started) to the thread's change
// feed. The caller holds the thread lock (threads/lock).
// Native coverage is this USES edge; $served is the provider thread's native ranges with the run
// added (src/domain/coverage.ts), so coverage reads never walk the edges.
MATCH (thread:Thread {tenant: $tenant, id: $run.threadId})
MATCH (providerThread:ProviderThread {tenant: $tenant, id: $providerThreadId})
CREATE (run:Run)
SET run = $run,
    run.tenant = $tenant,
    run.providerThreadId = $providerThreadId,
    run.status = 'running',
    run.caption = '#' + toString($run.ordinal) + ' ' + $run.provider,
    run.createdAt = datetime()
CREATE (thread)-[:HAS_RUN]->(run)
CREATE (run)-[:USES]->(providerThread)
SET thread.lastOrdinal = run.ordinal,
    thread.headOrdinal = run.ordinal,
    thread.runningRunId = run.id,
    thread.lastActivityAt = run.createdAt,
    thread.providers = CASE WHEN run.provider IN thread.providers THEN thread.providers ELSE thread.providers + run.provider END,
    providerThread += $served,
    providerThread.status = 'active',
    providerThread.model = coalesce(run.model, providerThread.model),
    providerThread.runtimeMode = coalesce(run.runtimeMode, providerThread.runtimeMode)
INCLUDE changes/append
RETURN run {.*} AS run, providerThread {.*} AS providerThread
