// The text for PENDING handoff $id has been written: it becomes READY and its run's context, with the
// continuity receipt of that text ($receipt: receiptKinds, receiptHeld, receiptKept, receiptOmitted).
MATCH (handoff:ContextHandoff {tenant: $tenant, id: $id})
// Every caller holds the thread's lock already (lockThreadOf), which serializes a submission and the
// expiry sweep; the handoff's own lock keeps this check safe for a caller that would not.
SET handoff._lock = true
REMOVE handoff._lock
WITH handoff
WHERE handoff.status = 'pending'
SET handoff.summaryText = $summaryText, handoff.length = size($summaryText), handoff.status = 'ready',
    handoff.createdByProvider = $createdByProvider, handoff.omissions = $omissions,
    handoff.writtenAt = datetime(), handoff.usedAt = datetime(), handoff.updatedAt = datetime()
SET handoff += $receipt
// Its writer has read the input document: only its digest stays (see handoffs/create).
REMOVE handoff.inputDocument
RETURN handoff {.*} AS handoff
