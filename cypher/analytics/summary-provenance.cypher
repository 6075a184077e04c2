// Summary provenance: who wrote the tenant's handoffs created between $from (inclusive) and $to
// (exclusive), and how those handoffs fared, by `source` (local, provider:<id>, configured:<name>,
// user; absent, as on subagent-result handoffs, reads as local) and `createdByProvider` (null for
// the local summarizer, manual context and subagent handoffs). Every transfer kind counts.
//
// Parameters:
//   $from   ISO date-time, start of the window (inclusive)
//   $to     ISO date-time, end of the window (exclusive)
//   $limit  at most this many rows [default: 100]
//
// Columns (one row per source and createdByProvider, most handoffs first):
//   source, createdByProvider   the group
//   handoffs                    handoffs in the group
//   superseded, supersededRate  status superseded (replaced, or withdrawn by a rollback), and its share
//   withdrawnByRollback         of those, superseded by a rollback (endedBecause rolled_back)
//   failed, failedRate          status failed (the writer failed or did not submit in time), and its share
//   pending                     still waiting for their text
//   meanOmissions               mean size of `omissions` (facts a non-local summary left out)
//   totalOmissions              sum of the same
MATCH (handoff:ContextHandoff {tenant: $tenant})
WHERE handoff.createdAt >= datetime($from) AND handoff.createdAt < datetime($to)
WITH coalesce(handoff.source, 'local') AS source, handoff.createdByProvider AS createdByProvider,
     count(*) AS handoffs,
     sum(CASE handoff.status WHEN 'superseded' THEN 1 ELSE 0 END) AS superseded,
     sum(CASE WHEN handoff.endedBecause = 'rolled_back' THEN 1 ELSE 0 END) AS withdrawnByRollback,
     sum(CASE handoff.status WHEN 'failed' THEN 1 ELSE 0 END) AS failed,
     sum(CASE handoff.status WHEN 'pending' THEN 1 ELSE 0 END) AS pending,
     avg(size(coalesce(handoff.omissions, []))) AS meanOmissions,
     sum(size(coalesce(handoff.omissions, []))) AS totalOmissions
RETURN source, createdByProvider, handoffs,
       superseded, round(toFloat(superseded) / handoffs, 4) AS supersededRate, withdrawnByRollback,
       failed, round(toFloat(failed) / handoffs, 4) AS failedRate, pending,
       round(meanOmissions, 4) AS meanOmissions, totalOmissions
ORDER BY handoffs DESC, source, createdByProvider
LIMIT $limit
