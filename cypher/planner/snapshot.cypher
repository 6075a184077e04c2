// The bounded neighbourhood the planner decides from (PlanningSnapshot in src/domain/planner.ts), in
// one statement: the thread's head run, provider $provider's most recent provider thread on the
// thread (the target), what the target knows, the live runs since its last native run, oldest
// first, at most $runWindow of them, with what a delta summary of them needs (their messages, facts,
// their subagents' facts and checkpoints: the delta the planner measures lies within them), and the transfers pending into
// the thread (fork, subagent spawn, merge-back), with a fork's source provider thread
// and the number of its turns the fork keeps. Every read is an index seek on (tenant, threadId,
// ordinal | provider | runOrdinal), on a child thread's (tenant, parentThreadId, sourceRunOrdinal) or
// on the pending transfers, so the cost does not depend on how
// long the thread is.
MATCH (thread:Thread {tenant: $tenant, id: $threadId})
INCLUDE planner/neighbourhood
