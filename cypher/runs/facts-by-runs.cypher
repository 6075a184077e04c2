// The facts each run recorded, in the order they were sent.
UNWIND $runIds AS runId
MATCH (run:Run {tenant: $tenant, id: runId})-[:RECORDED]->(fact:RunFact)
WITH runId, fact ORDER BY fact.seq
RETURN runId, collect(fact {.kind, .text, .key, .status, .runOrdinal}) AS facts
