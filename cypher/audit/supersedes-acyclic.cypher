// Following SUPERSEDES from a handoff or a transfer never leads back to it (looked for up to 100 steps; real chains are a few steps long).
MATCH (start)
WHERE (start:ContextHandoff OR start:ContextTransfer) AND EXISTS { (start)-[:SUPERSEDES]->() } AND ($tenant IS NULL OR start.tenant = $tenant)
MATCH cycle = (start)-[:SUPERSEDES*1..100]->(start)
WITH start, cycle ORDER BY length(cycle)
WITH start, collect(cycle)[0] AS cycle
RETURN start.tenant AS tenant, labels(start)[0] AS label, start.id AS id, [node IN nodes(cycle) | node.id] AS cycle
