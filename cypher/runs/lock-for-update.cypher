// Finds run $runId and takes its thread's write lock, so that completing, failing or re-planning
// the run is serialized with startRun on the same thread.
MATCH (run:Run {tenant: $tenant, id: $runId})
MATCH (thread:Thread {tenant: $tenant, id: run.threadId})
SET thread._lock = true
REMOVE thread._lock
RETURN run {.*} AS run, thread {.*} AS thread
