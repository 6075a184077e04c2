// A newer merge-back of the same fork into the same thread replaces the pending older ones.
MATCH (newer:ContextTransfer {tenant: $tenant, id: $transferId})
MATCH (older:ContextTransfer {tenant: $tenant, sourceThreadId: newer.sourceThreadId})
WHERE older.kind = 'merge_back' AND older.status = 'pending' AND older.targetThreadId = newer.targetThreadId AND older.id <> newer.id
SET older.status = 'superseded', older.endedBecause = 'replaced_by_newer_merge_back', older.endedAt = datetime()
CREATE (newer)-[:SUPERSEDES]->(older)
RETURN older.id AS supersededId
