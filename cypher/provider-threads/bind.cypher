// Records the provider's own id for provider thread $id.
MATCH (providerThread:ProviderThread {tenant: $tenant, id: $id})
SET providerThread.nativeThreadRef = $nativeThreadRef
RETURN providerThread {.*} AS providerThread
