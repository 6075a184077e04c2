// Finds run $runId and takes its thread's write lock, so that completing, failing or re-planning
// the run is serialized with startRun on the same thread. The provider thread serving it comes
// along: checking a fencing token needs it, and a statement of its own would cost a round trip
// (docs/benchmarks.md, the throughput run).
MATCH (run:Run {tenant: $tenant, id: $runId})
MATCH (thread:Thread {tenant: $tenant, id: run.threadId})
SET thread._lock = true
REMOVE thread._lock
WITH run, thread
OPTIONAL MATCH (providerThread:ProviderThread {tenant: $tenant, id: run.providerThreadId})
RETURN run {.*} AS run, thread {.*} AS thread, providerThread {.*} AS providerThread
