// The migration lease is one node per name: instances that start together MERGE the same one. Not a
// numbered migration: it is in place before the migrations are, for the lease that applies them.
CREATE CONSTRAINT schema_lock_name IF NOT EXISTS FOR (lock:SchemaLock) REQUIRE lock.name IS UNIQUE
