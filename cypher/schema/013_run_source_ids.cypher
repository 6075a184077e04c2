// Imported runs carry their turn's record id in the provider's session (sourceId): importRuns looks
// the ids of each batch up to store a turn that a resume or a fork copied only once.
CREATE INDEX run_by_source_id IF NOT EXISTS FOR (r:Run) ON (r.tenant, r.sourceId);
