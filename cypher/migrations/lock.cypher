// Takes the migration lease for $holder when it is free, already its own, or expired; no row when
// another instance holds it. The lock is written before it is read, so two takers wait for each other.
MERGE (lock:SchemaLock {name: 'migrations'})
SET lock._lock = true
REMOVE lock._lock
WITH lock
WHERE lock.holder IS NULL OR lock.holder = $holder OR lock.expiresAt < datetime()
SET lock.holder = $holder, lock.expiresAt = datetime() + duration({seconds: $leaseSeconds})
RETURN lock.holder AS holder
