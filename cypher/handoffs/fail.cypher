// PENDING handoff $id could not be written (summarizer error or timeout, or not submitted in time).
MATCH (handoff:ContextHandoff {tenant: $tenant, id: $id})
// Lock first, then check: a submission and the expiry sweep may race for the same handoff.
SET handoff._lock = true
REMOVE handoff._lock
WITH handoff
WHERE handoff.status = 'pending'
SET handoff.status = 'failed', handoff.failureReason = $reason, handoff.updatedAt = datetime()
RETURN handoff {.*} AS handoff
