// PENDING handoffs of the given tenants requested more than $timeoutSeconds before $now (the sweep in src/server).
MATCH (handoff:ContextHandoff)
WHERE handoff.status = 'pending' AND handoff.tenant IN $tenants
  AND handoff.requestedAt < datetime($now) - duration({seconds: $timeoutSeconds})
RETURN handoff.tenant AS tenant, handoff.id AS id
ORDER BY handoff.requestedAt
LIMIT 100
