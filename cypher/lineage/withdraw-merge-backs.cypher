// Rollback of a fork: its pending merge-backs from runs that were rolled back are withdrawn.
MATCH (transfer:ContextTransfer {tenant: $tenant, sourceThreadId: $threadId})
WHERE transfer.kind = 'merge_back' AND transfer.status = 'pending' AND transfer.sourceRunOrdinal > $toOrdinal
SET transfer.status = 'superseded', transfer.endedBecause = 'rolled_back', transfer.endedAt = datetime()
RETURN transfer.id AS id
