// A window of a thread's transfers (Thread.transfers(fromOrdinal, toOrdinal)) is read by range seeks,
// never by reading every transfer of the thread: the transfers out of it by the ordinal of their
// source run, and the ones into it by status, for the pending ones its next run takes in.
CREATE INDEX transfer_by_source_ordinal IF NOT EXISTS FOR (c:ContextTransfer) ON (c.tenant, c.sourceThreadId, c.sourceRunOrdinal);
CREATE INDEX transfer_by_target_status IF NOT EXISTS FOR (c:ContextTransfer) ON (c.tenant, c.targetThreadId, c.status);
