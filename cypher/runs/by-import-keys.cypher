// Which of the import keys $keys a run of the tenant already carries (importRuns skips those turns).
UNWIND $keys AS key
MATCH (run:Run {tenant: $tenant, importKey: key})
RETURN run.importKey AS key
