// A fork resolved natively: its new provider thread was forked from the source one; nothing to hand over.
MATCH (transfer:ContextTransfer {tenant: $tenant, id: $transferId})
SET transfer.status = 'consumed', transfer.resolution = 'native_fork', transfer.consumedAt = datetime(),
    transfer.targetProvider = $targetProvider
