// Lineage tree: thread $threadId (usually a root) and every thread descended from it (forks and
// subagent threads, through Thread.parentThreadId / relationshipToParent / rootThreadId), with its
// depth below $threadId, and the merge-backs each one offered (ContextTransfer kind merge_back from
// it into its parent). The walk follows the fork and subagent_spawn transfers that link each parent
// (FROM_THREAD) to the child created with it (TO_THREAD), at most 10 levels deep.
//
// Parameters:
//   $threadId  the top of the tree
//   $limit     at most this many threads [default: 200]
//
// Columns (one row per thread, top first, then by depth and creation time):
//   threadId, caption     the thread
//   depth                 0 for $threadId, 1 for its children, ...
//   relationship          root, fork or subagent
//   parentThreadId        the parent (null for a root)
//   rootThreadId          the root of its tree
//   sourceRunOrdinal      the source point's run in the parent (fork point, or the subagent's parent run)
//   forkOrdinal           ordinals at or below it are inherited (0 for roots and subagents)
//   headOrdinal           the thread's current head
//   route                 captions from $threadId down to it
//   mergeBackCount        merge-backs it offered
//   mergeBacks            each {transferId, status, intoThreadId, fromOrdinal, toOrdinal, resolution}, oldest first
MATCH (top:Thread {tenant: $tenant, id: $threadId})
CALL (top) {
  RETURN top AS thread, 0 AS depth, [top.caption] AS route
  UNION
  MATCH path = (top)(()<-[:FROM_THREAD]-(link:ContextTransfer)-[:TO_THREAD]->()
                     WHERE link.kind IN ['fork', 'subagent_spawn']){1,10}(descendant:Thread)
  RETURN descendant AS thread, size(link) AS depth, [node IN nodes(path) WHERE node:Thread | node.caption] AS route
}
WITH thread, depth, route ORDER BY depth, thread.createdAt, thread.id LIMIT $limit
CALL (thread) {
  OPTIONAL MATCH (mergeBack:ContextTransfer {tenant: $tenant, sourceThreadId: thread.id})
  WHERE mergeBack.kind = 'merge_back'
  WITH mergeBack ORDER BY mergeBack.createdAt, mergeBack.id
  RETURN collect(CASE WHEN mergeBack IS NOT NULL THEN {
           transferId: mergeBack.id, status: mergeBack.status, intoThreadId: mergeBack.targetThreadId,
           fromOrdinal: mergeBack.baseRunOrdinal + 1, toOrdinal: mergeBack.sourceRunOrdinal, resolution: mergeBack.resolution
         } END) AS mergeBacks
}
RETURN thread.id AS threadId, thread.caption AS caption, depth,
       coalesce(thread.relationshipToParent, 'root') AS relationship, thread.parentThreadId AS parentThreadId,
       coalesce(thread.rootThreadId, thread.id) AS rootThreadId, thread.sourceRunOrdinal AS sourceRunOrdinal,
       coalesce(thread.forkOrdinal, 0) AS forkOrdinal, thread.headOrdinal AS headOrdinal, route,
       size(mergeBacks) AS mergeBackCount, mergeBacks
ORDER BY depth, thread.createdAt, threadId
