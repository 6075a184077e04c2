// Creates thread $id for the tenant, or returns the existing one unchanged.
// The (tenant, id) uniqueness constraint makes concurrent creates of one id converge on one node.
MERGE (thread:Thread {tenant: $tenant, id: $id})
ON CREATE SET
  thread.title = $title,
  thread.project = $project,
  thread.caption = coalesce($title, $id),
  thread.createdAt = datetime(),
  thread.lastActivityAt = datetime(),
  thread.headOrdinal = 0,
  thread.lastOrdinal = 0,
  thread.providerThreadCount = 0,
  thread.providers = [],
  thread.rolledBackFrom = [],
  thread.rolledBackTo = []
RETURN thread {.*} AS thread
