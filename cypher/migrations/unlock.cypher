// Gives the migration lease back, when $holder still holds it.
MATCH (lock:SchemaLock {name: 'migrations', holder: $holder})
REMOVE lock.holder, lock.expiresAt
