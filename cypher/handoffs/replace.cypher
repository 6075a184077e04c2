// Handoff $newId, for the same run, coverage and provider thread, replaces $oldId: the old one is
// kept (superseded, or failed when it failed) with a SUPERSEDES edge from the new one, and its run
// now uses only the new one. The old one must still stand, or have just failed (pending and ready
// are standing; failed without a replacement yet): otherwise another writer replaced it first and
// nothing is written, which the caller turns into a refusal. $endedBecause says why it ended
// (regenerated), unless failing it already said (expired, summarizer_failed).
MATCH (old:ContextHandoff {tenant: $tenant, id: $oldId})
WHERE old.status IN $standingStatuses OR (old.status = 'failed' AND NOT EXISTS { (:ContextHandoff)-[:SUPERSEDES]->(old) })
MATCH (new:ContextHandoff {tenant: $tenant, id: $newId})
CREATE (new)-[:SUPERSEDES]->(old)
SET old.status = CASE old.status WHEN 'failed' THEN 'failed' ELSE 'superseded' END, old.updatedAt = datetime(),
    old.endedBecause = coalesce(old.endedBecause, $endedBecause), old.endedAt = coalesce(old.endedAt, datetime())
// No writer will read its input document any more: only its digest stays (see handoffs/create).
REMOVE old.inputDocument
WITH old
OPTIONAL MATCH (:Run {tenant: $tenant, id: old.targetRunId})-[uses:USES]->(old)
DELETE uses
RETURN old.id AS replacedId, old.toProviderThreadId AS providerThreadId
