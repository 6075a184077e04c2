// PENDING handoff $id could not be written: $endedBecause is summarizer_failed (an error or a
// timeout) or expired (not submitted in time), $reason says more.
MATCH (handoff:ContextHandoff {tenant: $tenant, id: $id})
// Every caller holds the thread's lock already (lockThreadOf), which serializes a submission and the
// expiry sweep; the handoff's own lock keeps this check safe for a caller that would not.
SET handoff._lock = true
REMOVE handoff._lock
WITH handoff
WHERE handoff.status = 'pending'
SET handoff.status = 'failed', handoff.failureReason = $reason, handoff.updatedAt = datetime(),
    handoff.endedBecause = $endedBecause, handoff.endedAt = datetime()
// No writer will read its input document any more: only its digest stays (see handoffs/create).
REMOVE handoff.inputDocument
RETURN handoff {.*} AS handoff
