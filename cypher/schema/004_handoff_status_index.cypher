// The sweep for PENDING handoffs that were never submitted in time.
CREATE INDEX handoff_by_status IF NOT EXISTS FOR (h:ContextHandoff) ON (h.status, h.requestedAt);
