// Transfers by id.
UNWIND $ids AS id
MATCH (transfer:ContextTransfer {tenant: $tenant, id: id})
RETURN transfer {.*} AS transfer
