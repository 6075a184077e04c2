// Handoffs that dropped an unresolved failure: the tenant's handoffs created between $from (inclusive)
// and $to (exclusive) whose continuity receipt (src/domain/receipt.ts) counts more failures still
// unresolved in the runs they cover than their text names. A handoff without a receipt (pending, manual
// context, subagent work, or written before receipts existed) is not listed. Newest first.
//
// Parameters:
//   $from   ISO date-time, start of the window (inclusive)
//   $to     ISO date-time, end of the window (exclusive)
//   $limit  at most this many rows [default: 100]
//
// Columns (one row per handoff):
//   threadId, handoffId        the handoff and its thread
//   targetRunOrdinal           the run it was delivered to
//   strategy, source, status   how it was written, by whom, and where it stands now
//   coveredFrom, coveredTo     the range of runs it covers
//   failuresHeld               unresolved failures the covered runs hold at the handoff
//   failuresKept               how many of them its text names
//   omittedFailures            the first of those it left out (at most 20), as the runs name them
//   createdAt                  when it was written
MATCH (handoff:ContextHandoff {tenant: $tenant})
WHERE handoff.createdAt >= datetime($from) AND handoff.createdAt < datetime($to)
  AND handoff.receiptKinds IS NOT NULL
WITH handoff, [i IN range(0, size(handoff.receiptKinds) - 1) WHERE handoff.receiptKinds[i] = 'failures'][0] AS at
WITH handoff, handoff.receiptHeld[at] AS held, handoff.receiptKept[at] AS kept
WHERE held > kept
RETURN handoff.threadId AS threadId, handoff.id AS handoffId, handoff.targetRunOrdinal AS targetRunOrdinal,
       handoff.strategy AS strategy, coalesce(handoff.source, 'local') AS source, handoff.status AS status,
       handoff.coveredFrom AS coveredFrom, handoff.coveredTo AS coveredTo,
       held AS failuresHeld, kept AS failuresKept,
       [item IN coalesce(handoff.receiptOmitted, []) WHERE item STARTS WITH 'failures: ' | substring(item, 10)]
         AS omittedFailures,
       toString(handoff.createdAt) AS createdAt
ORDER BY handoff.createdAt DESC, handoff.id
LIMIT $limit
