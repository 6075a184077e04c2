// Provider threads by id, for the request's DataLoader.
UNWIND $ids AS id
MATCH (providerThread:ProviderThread {tenant: $tenant, id: id})
RETURN providerThread {.*} AS providerThread
