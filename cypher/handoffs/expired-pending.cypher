// PENDING handoffs of every tenant requested more than $timeoutSeconds ago (the sweep in src/server).
MATCH (handoff:ContextHandoff)
WHERE handoff.status = 'pending' AND handoff.requestedAt < datetime() - duration({seconds: $timeoutSeconds})
RETURN handoff.tenant AS tenant, handoff.id AS id
ORDER BY handoff.requestedAt
LIMIT 100
