// Uniqueness constraints. Community Edition has no existence or key constraints: the service
// enforces required properties in code. Every node carries its tenant; ids the service generates
// are globally unique, client-chosen thread ids are unique per tenant.
CREATE CONSTRAINT schema_migration_name IF NOT EXISTS FOR (m:SchemaMigration) REQUIRE m.name IS UNIQUE;
CREATE CONSTRAINT thread_tenant_id IF NOT EXISTS FOR (t:Thread) REQUIRE (t.tenant, t.id) IS UNIQUE;
CREATE CONSTRAINT run_id IF NOT EXISTS FOR (r:Run) REQUIRE r.id IS UNIQUE;
// The ordinal lock's backstop: two runs of one thread can never share an ordinal.
CREATE CONSTRAINT run_thread_ordinal IF NOT EXISTS FOR (r:Run) REQUIRE (r.tenant, r.threadId, r.ordinal) IS UNIQUE;
CREATE CONSTRAINT run_idempotency_key IF NOT EXISTS FOR (r:Run) REQUIRE (r.tenant, r.threadId, r.idempotencyKey) IS UNIQUE;
CREATE CONSTRAINT provider_thread_id IF NOT EXISTS FOR (p:ProviderThread) REQUIRE p.id IS UNIQUE;
CREATE CONSTRAINT context_handoff_id IF NOT EXISTS FOR (h:ContextHandoff) REQUIRE h.id IS UNIQUE;
CREATE CONSTRAINT context_transfer_id IF NOT EXISTS FOR (c:ContextTransfer) REQUIRE c.id IS UNIQUE;
CREATE CONSTRAINT checkpoint_id IF NOT EXISTS FOR (c:Checkpoint) REQUIRE c.id IS UNIQUE;
