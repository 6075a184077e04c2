// Readiness probe: the database answers a query.
RETURN 1 AS ok
