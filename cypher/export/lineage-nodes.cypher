// Export: every node of the lineage of the threads $threadIds of tenant $tenant: each thread, and
// by the thread's id (the indexed foreign keys of docs/graph-model.md) its runs, facts, checkpoints,
// provider threads and handoffs, and the transfers it is the source or the target of (a switch's, a
// fork's or subagent's into it, a fork's or subagent task's out of it, a merge-back either way).
// A thread id that does not exist returns nothing. Parameters: $tenant, $threadIds (list of strings).
// Columns: elementId, labels, properties (every property, with its Neo4j type), one row per node.
UNWIND $threadIds AS threadId
MATCH (thread:Thread {tenant: $tenant, id: threadId})
CALL (thread) {
  RETURN thread AS node
  UNION
  MATCH (node:Run {tenant: $tenant, threadId: thread.id})
  WHERE node.ordinal IS NOT NULL
  RETURN node
  UNION
  MATCH (node:RunFact {tenant: $tenant, threadId: thread.id})
  WHERE node.runOrdinal IS NOT NULL
  RETURN node
  UNION
  MATCH (node:Checkpoint {tenant: $tenant, threadId: thread.id})
  WHERE node.runOrdinal IS NOT NULL
  RETURN node
  UNION
  MATCH (node:ProviderThread {tenant: $tenant, threadId: thread.id})
  WHERE node.provider IS NOT NULL AND node.seq IS NOT NULL
  RETURN node
  UNION
  MATCH (node:ContextHandoff {tenant: $tenant, threadId: thread.id})
  RETURN node
  UNION
  MATCH (node:ContextTransfer {tenant: $tenant, sourceThreadId: thread.id})
  RETURN node
  UNION
  MATCH (node:ContextTransfer {tenant: $tenant, targetThreadId: thread.id})
  RETURN node
}
WITH DISTINCT node
RETURN elementId(node) AS elementId, labels(node) AS labels, properties(node) AS properties
