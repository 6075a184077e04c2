// Handoffs by id with their supersession links, for the request's DataLoader.
UNWIND $ids AS id
MATCH (handoff:ContextHandoff {tenant: $tenant, id: id})
OPTIONAL MATCH (handoff)-[:SUPERSEDES]->(older:ContextHandoff)
OPTIONAL MATCH (newer:ContextHandoff)-[:SUPERSEDES]->(handoff)
RETURN handoff {.*, supersedesId: older.id, supersededById: newer.id} AS handoff
