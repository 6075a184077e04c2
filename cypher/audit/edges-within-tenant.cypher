// Every relationship joins two nodes of one tenant.
MATCH (from)-[edge]->(to)
WHERE ($tenant IS NULL OR from.tenant = $tenant OR to.tenant = $tenant)
  AND (from.tenant IS NULL OR to.tenant IS NULL OR from.tenant <> to.tenant)
RETURN coalesce(from.tenant, to.tenant) AS tenant, type(edge) AS type,
       labels(from)[0] AS fromLabel, coalesce(from.id, from.caption) AS fromId, from.tenant AS fromTenant,
       labels(to)[0] AS toLabel, coalesce(to.id, to.caption) AS toId, to.tenant AS toTenant
