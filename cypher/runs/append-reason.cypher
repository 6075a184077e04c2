// Adds a sentence to the reasons of run $runId's plan (e.g. a summary source that failed).
MATCH (run:Run {tenant: $tenant, id: $runId})
SET run.planReasons = coalesce(run.planReasons, []) + $reason
