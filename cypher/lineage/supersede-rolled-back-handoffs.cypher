// Rollback step 2: every standing handoff of the thread made for a run above $toOrdinal is
// superseded: nothing replaces it, the rollback withdrew what it described. A handoff covers only
// ordinals below the run it was made for, so this also withdraws every handoff that covers a
// rolled-back run. Only this thread's handoffs: a fork keeps the context it inherited, a source
// keeps its merge-backs. A range seek on (tenant, threadId, targetRunOrdinal): the handoffs of
// earlier runs are never read.
MATCH (handoff:ContextHandoff {tenant: $tenant, threadId: $threadId})
WHERE handoff.targetRunOrdinal > $toOrdinal AND handoff.status IN $standingStatuses
SET handoff.status = 'superseded', handoff.updatedAt = datetime(), handoff.endedBecause = 'rolled_back', handoff.endedAt = datetime()
// No writer will read its input document any more: only its digest stays (see handoffs/create).
REMOVE handoff.inputDocument
RETURN handoff {.*} AS handoff
ORDER BY handoff.createdAt, handoff.id
