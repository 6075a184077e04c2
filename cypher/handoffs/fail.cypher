// PENDING handoff $id could not be written (summarizer error or timeout, or not submitted in time).
MATCH (handoff:ContextHandoff {tenant: $tenant, id: $id})
WHERE handoff.status = 'pending'
SET handoff.status = 'failed', handoff.failureReason = $reason, handoff.updatedAt = datetime()
RETURN handoff {.*} AS handoff
