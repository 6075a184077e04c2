// Handoff $newId replaces $oldId: the old one is kept, marked superseded, and linked from the new;
// the same goes for their transfers, unless the new handoff carries the old transfer on (a merge-back
// still delivered to the same run).
MATCH (old:ContextHandoff {tenant: $tenant, id: $oldId})
MATCH (new:ContextHandoff {tenant: $tenant, id: $newId})
CREATE (new)-[:SUPERSEDES]->(old)
SET old.status = 'superseded', old.updatedAt = datetime(), old.endedBecause = 'resume_failed', old.endedAt = datetime()
// No writer will read its input document any more: only its digest stays (see handoffs/create).
REMOVE old.inputDocument
WITH old, new
// The target run now uses the new handoff only; the old one keeps its targetRunId for the record.
OPTIONAL MATCH (:Run {tenant: $tenant, id: old.targetRunId})-[uses:USES]->(old)
DELETE uses
WITH old
CALL (old) {
  MATCH (oldTransfer:ContextTransfer {tenant: $tenant, id: old.transferId})
  WHERE oldTransfer.handoffId = old.id
  MATCH (newTransfer:ContextTransfer {tenant: $tenant, id: $newTransferId})
  CREATE (newTransfer)-[:SUPERSEDES]->(oldTransfer)
  SET oldTransfer.status = 'superseded', oldTransfer.endedBecause = 'resume_failed', oldTransfer.endedAt = datetime()
}
// Whose standing coverage to recount (provider-threads/recount-standing-handoffs).
RETURN old.toProviderThreadId AS providerThreadId
