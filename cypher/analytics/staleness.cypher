// Staleness: which staleness signals fired in the planner's stored decisions (Run.planSignals), how
// often, per provider, for the runs the tenant started between $from (inclusive) and $to
// (exclusive). A run's plan is as finally planned (a resume failure's re-plan replaces the first
// one); rolled-back runs count, since their plans were made.
//
// Parameters:
//   $from   ISO date-time, start of the window (inclusive)
//   $to     ISO date-time, end of the window (exclusive)
//   $limit  at most this many rows [default: 100]
//
// Columns (one row per provider and signal, most frequent first):
//   provider      the provider the run was planned for
//   signal        too_many_runs_elsewhere, too_many_chained_handoffs, incompatible_config,
//                 resume_failed, rolled_back_or_divergent, clean_context_requested, summary_exceeds_policy
//   runs          runs of that provider whose plan fired the signal
//   threads       distinct threads those runs belong to
//   providerRuns  all runs of that provider in the window
//   rate          runs / providerRuns (0..1)
MATCH (run:Run {tenant: $tenant})
WHERE run.createdAt >= datetime($from) AND run.createdAt < datetime($to)
WITH run.provider AS provider, count(*) AS providerRuns,
     collect(CASE WHEN size(coalesce(run.planSignals, [])) > 0 THEN {threadId: run.threadId, signals: run.planSignals} END) AS flagged
UNWIND flagged AS flaggedRun
UNWIND flaggedRun.signals AS signal
WITH provider, providerRuns, signal, count(*) AS runs, count(DISTINCT flaggedRun.threadId) AS threads
RETURN provider, signal, runs, threads, providerRuns, round(toFloat(runs) / providerRuns, 4) AS rate
ORDER BY runs DESC, provider, signal
LIMIT $limit
