// Longest handoff chains: the longest SUPERSEDES chains of handoffs, where a regeneration, a resume
// failure's replacement or a failed writer's local replacement supersedes the handoff before it.
// A chain runs from a handoff nothing supersedes back to one that supersedes nothing, and is listed
// oldest first; only chains with at least one supersession are listed. Each row also counts the
// handoffs ever DELIVERED_TO the provider thread of the chain's newest handoff, the other way a
// provider thread piles up handoffs. (A rollback withdraws handoffs without a SUPERSEDES edge.)
//
// Parameters:
//   $threadId  one app thread, or null for the whole tenant [default: null]
//   $limit     at most this many chains [default: 20]
//
// Columns (one row per chain, longest first, then most recent):
//   threadId                the thread of the handoffs
//   length                  handoffs in the chain (supersessions + 1)
//   handoffIds              the chain, oldest first
//   statuses, sources       each handoff's status and source, same order
//   newestHandoffId         the chain's newest handoff
//   newestStatus            its status (ready or pending when the chain still stands)
//   forRunId                the run the newest handoff was written for
//   deliveredTo             the provider thread the newest handoff is delivered to
//   handoffsDeliveredToTarget  every handoff ever delivered to that provider thread, any status
//   startedAt, endedAt      creation times of the oldest and the newest handoff
CALL () {
  MATCH (newest:ContextHandoff {tenant: $tenant, threadId: $threadId})
  RETURN newest
  UNION
  WITH 1 AS wholeTenant WHERE $threadId IS NULL
  MATCH (newest:ContextHandoff {tenant: $tenant})
  WHERE newest.createdAt IS NOT NULL
  RETURN newest
}
WITH newest
WHERE EXISTS { (newest)-[:SUPERSEDES]->(:ContextHandoff) } AND NOT EXISTS { (:ContextHandoff)-[:SUPERSEDES]->(newest) }
MATCH path = (newest)(()-[:SUPERSEDES]->(:ContextHandoff)){1,100}(oldest:ContextHandoff)
WHERE NOT EXISTS { (oldest)-[:SUPERSEDES]->(:ContextHandoff) }
WITH newest, path ORDER BY length(path) DESC
WITH newest, collect(path)[0] AS path
WITH newest, reverse(nodes(path)) AS chain
OPTIONAL MATCH (newest)-[:DELIVERED_TO]->(target:ProviderThread)
RETURN newest.threadId AS threadId, size(chain) AS length,
       [handoff IN chain | handoff.id] AS handoffIds,
       [handoff IN chain | handoff.status] AS statuses,
       [handoff IN chain | coalesce(handoff.source, 'local')] AS sources,
       newest.id AS newestHandoffId, newest.status AS newestStatus, newest.targetRunId AS forRunId,
       target.id AS deliveredTo,
       COUNT { (:ContextHandoff)-[:DELIVERED_TO]->(target) } AS handoffsDeliveredToTarget,
       chain[0].createdAt AS startedAt, newest.createdAt AS endedAt
ORDER BY length DESC, endedAt DESC, newestHandoffId
LIMIT $limit
