// PENDING handoff $id could not be written: $endedBecause is summarizer_failed (an error or a
// timeout) or expired (not submitted in time), $reason says more.
MATCH (handoff:ContextHandoff {tenant: $tenant, id: $id})
// Lock first, then check: a submission and the expiry sweep may race for the same handoff.
SET handoff._lock = true
REMOVE handoff._lock
WITH handoff
WHERE handoff.status = 'pending'
SET handoff.status = 'failed', handoff.failureReason = $reason, handoff.updatedAt = datetime(),
    handoff.endedBecause = $endedBecause, handoff.endedAt = datetime()
RETURN handoff {.*} AS handoff
