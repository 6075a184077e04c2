// Runs by id, for the request's DataLoader.
UNWIND $ids AS id
MATCH (run:Run {tenant: $tenant, id: id})
RETURN run {.*} AS run
