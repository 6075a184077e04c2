// Cross-provider switches: how context crossed from one provider to another in the tenant between
// $from (inclusive) and $to (exclusive). A switch is a run that received a handoff of transferKind
// provider_handoff created in the window; when a run got several (a regeneration, a resume
// failure's replacement, a failed writer's local replacement), its newest one describes the switch
// and `handoffs` counts them all. The pair is the switch transfer's sourceProvider (the provider of
// the run before the switch, the lead part's last covered run) -> targetProvider. A switch is a
// return when the target provider already had a provider thread on the thread before the run (a
// resume always is); the return then either resumed that provider thread or created a new one
// (the run's planAction, as finally planned).
//
// Parameters:
//   $from   ISO date-time, start of the window (inclusive)
//   $to     ISO date-time, end of the window (exclusive)
//   $limit  at most this many pairs [default: 100]
//
// Columns (one row per provider pair, most switches first):
//   fromProvider, toProvider   the pair ('unknown' when the source provider was not recorded)
//   switches                   runs that switched with a provider_handoff handoff
//   handoffs                   provider_handoff handoffs written for those runs (>= switches)
//   deltaShare, fullShare, checkpointShare, manualShare
//                              share of switches whose handoff strategy was delta_since_target_last_seen,
//                              full_thread_summary, checkpoint_summary, manual_context (0..1)
//   meanRunsCovered            mean number of runs the handoff covers: the live runs of its range, its
//                              range less the ordinals its thread had rolled back (0 for a 0-0 range)
//   returns, resumed, recreated
//                              switches back to a provider already on the thread; of those, planAction
//                              resume, and planAction create
//   medianLength               median `length` of the written handoffs (pending or failed ones have no text)
//   medianBudgetChars          median `budgetChars` (null: no limit)
//   medianBudgetUse            median length / budgetChars (null when no handoff had a budget)
MATCH (handoff:ContextHandoff {tenant: $tenant})
WHERE handoff.createdAt >= datetime($from) AND handoff.createdAt < datetime($to)
  AND handoff.transferKind = 'provider_handoff'
WITH handoff ORDER BY handoff.createdAt DESC, handoff.id DESC
WITH handoff.targetRunId AS runId, collect(handoff) AS written
WITH runId, written[0] AS handoff, size(written) AS handoffs
MATCH (run:Run {tenant: $tenant, id: runId})
OPTIONAL MATCH (transfer:ContextTransfer {tenant: $tenant, id: handoff.transferId})
MATCH (thread:Thread {tenant: $tenant, id: handoff.threadId})
WITH run, handoff, handoffs, transfer, coalesce(thread.rolledBackFrom, []) AS goneFrom, coalesce(thread.rolledBackTo, []) AS goneTo
WITH run, handoff, handoffs,
     coalesce(transfer.sourceProvider, 'unknown') AS fromProvider,
     coalesce(transfer.targetProvider, handoff.targetProvider, run.provider) AS toProvider,
     CASE WHEN handoff.coveredFrom < 1 THEN 0 ELSE handoff.coveredTo - handoff.coveredFrom + 1
       - reduce(gone = 0, i IN range(0, size(goneFrom) - 1) |
           gone + CASE WHEN goneFrom[i] > handoff.coveredTo OR goneTo[i] < handoff.coveredFrom THEN 0
                       ELSE CASE WHEN goneTo[i] < handoff.coveredTo THEN goneTo[i] ELSE handoff.coveredTo END
                          - CASE WHEN goneFrom[i] > handoff.coveredFrom THEN goneFrom[i] ELSE handoff.coveredFrom END + 1 END)
     END AS covered,
     run.planAction = 'resume' OR EXISTS {
       MATCH (earlier:ProviderThread {tenant: $tenant, threadId: run.threadId, provider: run.provider})
       WHERE earlier.seq IS NOT NULL AND earlier.id <> run.providerThreadId AND earlier.createdAt <= run.createdAt
     } AS isReturn,
     handoff.writtenAt IS NOT NULL AND handoff.status IN ['ready', 'superseded'] AS hasText
WITH fromProvider, toProvider,
     count(*) AS switches,
     sum(handoffs) AS handoffs,
     sum(CASE handoff.strategy WHEN 'delta_since_target_last_seen' THEN 1 ELSE 0 END) AS delta,
     sum(CASE handoff.strategy WHEN 'full_thread_summary' THEN 1 ELSE 0 END) AS full,
     sum(CASE handoff.strategy WHEN 'checkpoint_summary' THEN 1 ELSE 0 END) AS checkpoint,
     sum(CASE handoff.strategy WHEN 'manual_context' THEN 1 ELSE 0 END) AS manual,
     avg(covered) AS meanRunsCovered,
     sum(CASE WHEN isReturn THEN 1 ELSE 0 END) AS returns,
     sum(CASE WHEN isReturn AND run.planAction = 'resume' THEN 1 ELSE 0 END) AS resumed,
     sum(CASE WHEN isReturn AND run.planAction = 'create' THEN 1 ELSE 0 END) AS recreated,
     percentileDisc(CASE WHEN hasText THEN handoff.length END, 0.5) AS medianLength,
     percentileDisc(CASE WHEN hasText THEN handoff.budgetChars END, 0.5) AS medianBudgetChars,
     percentileCont(CASE WHEN hasText AND handoff.budgetChars > 0 THEN toFloat(handoff.length) / handoff.budgetChars END, 0.5) AS medianBudgetUse
RETURN fromProvider, toProvider, switches, handoffs,
       round(toFloat(delta) / switches, 4) AS deltaShare,
       round(toFloat(full) / switches, 4) AS fullShare,
       round(toFloat(checkpoint) / switches, 4) AS checkpointShare,
       round(toFloat(manual) / switches, 4) AS manualShare,
       round(meanRunsCovered, 4) AS meanRunsCovered,
       returns, resumed, recreated,
       medianLength, medianBudgetChars,
       round(medianBudgetUse, 4) AS medianBudgetUse
ORDER BY switches DESC, fromProvider, toProvider
LIMIT $limit
