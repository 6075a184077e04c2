// The merge-backs handoff $handoffId delivers (it still is their delivery), oldest first.
MATCH (:ContextHandoff {tenant: $tenant, id: $handoffId})<-[:MATERIALIZED_AS]-(transfer:ContextTransfer {tenant: $tenant})
WHERE transfer.kind = 'merge_back' AND transfer.handoffId = $handoffId
RETURN transfer {.*} AS transfer
ORDER BY transfer.createdAt, transfer.id
