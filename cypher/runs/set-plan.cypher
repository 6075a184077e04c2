// Stores the decision made for run $runId (after a resume failure, the new one).
MATCH (run:Run {tenant: $tenant, id: $runId})
SET run += $plan
RETURN run {.*} AS run
