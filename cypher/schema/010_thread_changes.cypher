// The per-thread change feed behind GraphQL subscriptions (docs/live-updates.md): one ThreadChange
// per committed change of a thread, numbered 1, 2, 3... by the thread's changeSequence. The constraint
// makes two changes with one number impossible, and its index serves the pollers' range seek.
CREATE CONSTRAINT thread_change_sequence IF NOT EXISTS FOR (change:ThreadChange) REQUIRE (change.tenant, change.threadId, change.sequence) IS UNIQUE;
