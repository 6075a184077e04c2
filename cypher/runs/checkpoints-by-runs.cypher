// The checkpoint each run captured, if any.
UNWIND $runIds AS runId
MATCH (run:Run {tenant: $tenant, id: runId})-[:CAPTURED]->(checkpoint:Checkpoint)
RETURN runId, checkpoint {.*} AS checkpoint
