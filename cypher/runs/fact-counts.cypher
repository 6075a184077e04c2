// How many facts each run recorded. Parameters: $runIds. Columns: runId, facts; no row for an
// unknown run.
UNWIND $runIds AS runId
MATCH (run:Run {tenant: $tenant, id: runId})
RETURN runId, COUNT { (run)-[:RECORDED]->(:RunFact) } AS facts
