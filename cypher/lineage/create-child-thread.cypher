// Creates a fork or subagent thread $id under parent $parentId at source point $source, with the
// history it inherits ($segments, stamped with this moment where asOf is null, and the inherited
// ordinals that were not live at this moment: the parent's first $keptRanges rolled-back ranges, then
// $rolledBackFrom/$rolledBackTo, so a fork of a long thread does not send them all), the edge to its
// source point, and its transfer: pending, or consumed with resolution 'imported' when $imported
// (the provider gave it to an imported session itself). It chooses no provider: the first run resolves that.
MATCH (parent:Thread {tenant: $tenant, id: $parentId})
OPTIONAL MATCH (sourceRun:Run {tenant: $tenant, id: $source.runId})
CREATE (child:Thread {
  tenant: $tenant, id: $id, title: $title, caption: coalesce($title, $id), project: parent.project, createdAt: datetime(), lastActivityAt: datetime(),
  parentThreadId: parent.id, relationshipToParent: $relationship, rootThreadId: coalesce(parent.rootThreadId, parent.id),
  sourceRunId: $source.runId, sourceRunOrdinal: $source.runOrdinal, sourceCheckpointId: $source.checkpointId,
  sourceProviderThreadId: $source.providerThreadId,
  forkOrdinal: $forkOrdinal, headOrdinal: $forkOrdinal, lastOrdinal: $forkOrdinal,
  providerThreadCount: 0, providers: [],
  segmentThreadIds: [segment IN $segments | segment.threadId],
  segmentTo: [segment IN $segments | segment.to],
  segmentAsOf: [segment IN $segments | coalesce(segment.asOf, toString(datetime()))],
  rolledBackFrom: coalesce(parent.rolledBackFrom, [])[..$keptRanges] + $rolledBackFrom,
  rolledBackTo: coalesce(parent.rolledBackTo, [])[..$keptRanges] + $rolledBackTo
})
FOREACH (_ IN CASE WHEN sourceRun IS NOT NULL AND $relationship = 'fork' THEN [1] ELSE [] END | CREATE (child)-[:FORKED_FROM]->(sourceRun))
FOREACH (_ IN CASE WHEN sourceRun IS NOT NULL AND $relationship = 'subagent' THEN [1] ELSE [] END | CREATE (child)-[:SPAWNED_BY]->(sourceRun))
CREATE (transfer:ContextTransfer {
  tenant: $tenant, id: $transferId, kind: $transferKind, createdBy: $createdBy,
  status: CASE WHEN $imported THEN 'consumed' ELSE 'pending' END,
  resolution: CASE WHEN $imported THEN 'imported' END, consumedAt: CASE WHEN $imported THEN datetime() END,
  sourceThreadId: parent.id, targetThreadId: child.id,
  sourceRunId: $source.runId, sourceRunOrdinal: $source.runOrdinal, sourceCheckpointId: $source.checkpointId,
  sourceProviderThreadId: $source.providerThreadId, sourceProvider: sourceRun.provider, targetProvider: $targetProvider,
  contextText: $contextText, createdAt: datetime(), caption: $transferKind + ' ' + child.id
})
CREATE (transfer)-[:FROM_THREAD]->(parent)
CREATE (transfer)-[:TO_THREAD]->(child)
FOREACH (_ IN CASE WHEN sourceRun IS NULL THEN [] ELSE [1] END | CREATE (transfer)-[:FROM_RUN]->(sourceRun))
RETURN child {.*} AS thread
