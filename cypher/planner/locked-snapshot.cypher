// The planning snapshot of planner/snapshot, read after taking the thread's write lock as threads/lock
// does: startRun's first statement. Its answer's thread is the thread under the lock (its running
// run, its last ordinal), so startRun sends no statement of its own to take the lock (docs/benchmarks.md,
// the throughput run), and the reads that follow see no run started or ended after the lock.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
SET thread._lock = true
REMOVE thread._lock
INCLUDE planner/neighbourhood
