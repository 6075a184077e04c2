// Imported sessions (importRuns): a run imported from a provider's session file carries an import
// key made of the provider, the session's id and the turn's key within it, so importing the same
// session again finds its turns instead of adding them twice, even when two imports race. The
// provider's own id of a conversation is how an importer finds the app thread that already holds it.
CREATE CONSTRAINT run_import_key IF NOT EXISTS FOR (r:Run) REQUIRE (r.tenant, r.importKey) IS UNIQUE;
CREATE INDEX provider_thread_by_native_ref IF NOT EXISTS FOR (p:ProviderThread) ON (p.tenant, p.provider, p.nativeThreadRef);
