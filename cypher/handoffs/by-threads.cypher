// Every handoff of each thread, superseded ones included, oldest first.
UNWIND $threadIds AS threadId
MATCH (handoff:ContextHandoff {tenant: $tenant, threadId: threadId})
OPTIONAL MATCH (handoff)-[:SUPERSEDES]->(older:ContextHandoff)
OPTIONAL MATCH (newer:ContextHandoff)-[:SUPERSEDES]->(handoff)
WITH threadId, handoff, older, newer ORDER BY handoff.createdAt, handoff.id
RETURN threadId, collect(handoff {.*, supersedesId: older.id, supersededById: newer.id}) AS handoffs
