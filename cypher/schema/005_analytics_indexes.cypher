// Analytics over a tenant and a time window (cypher/analytics/): handoffs and runs by creation time,
// so cross-provider, staleness and provenance figures seek a range instead of reading every thread.
CREATE INDEX handoff_by_created IF NOT EXISTS FOR (h:ContextHandoff) ON (h.tenant, h.createdAt);
CREATE INDEX run_by_created IF NOT EXISTS FOR (r:Run) ON (r.tenant, r.createdAt);
