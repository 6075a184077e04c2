// The provider threads that hold provider $provider's own conversation $nativeThreadRef, newest first:
// usually one, the one a session was imported into or bound to.
MATCH (providerThread:ProviderThread {tenant: $tenant, provider: $provider, nativeThreadRef: $nativeThreadRef})
RETURN providerThread {.*} AS providerThread
ORDER BY providerThread.createdAt DESC, providerThread.id
LIMIT $limit
