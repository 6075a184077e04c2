// Handoff $newId, for the same run, coverage and provider thread, replaces $oldId: the old one is
// kept (superseded, or failed when it failed) with a SUPERSEDES edge from the new one, and its run
// now uses only the new one.
MATCH (old:ContextHandoff {tenant: $tenant, id: $oldId})
MATCH (new:ContextHandoff {tenant: $tenant, id: $newId})
CREATE (new)-[:SUPERSEDES]->(old)
SET old.status = CASE old.status WHEN 'failed' THEN 'failed' ELSE 'superseded' END, old.updatedAt = datetime()
WITH old
OPTIONAL MATCH (:Run {tenant: $tenant, id: old.targetRunId})-[uses:USES]->(old)
DELETE uses
