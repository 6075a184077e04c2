// A subagent's result goes back to its parent run: a consumed subagent_result transfer with a
// manual_context handoff holding the result, delivered to the parent run's provider thread, and a
// subagent_result fact on the parent run, so every later summary of the parent includes it.
MATCH (child:Thread {tenant: $tenant, id: $childId})
MATCH (parentRun:Run {tenant: $tenant, id: child.sourceRunId})-[:USES]->(parentThread:ProviderThread)
MATCH (parent:Thread {tenant: $tenant, id: child.parentThreadId})
CREATE (transfer:ContextTransfer {
  tenant: $tenant, id: $transferId, kind: 'subagent_result', status: 'consumed', resolution: 'portable_context',
  createdBy: 'agent', sourceThreadId: child.id, targetThreadId: parent.id,
  sourceRunOrdinal: child.headOrdinal, targetProvider: parentRun.provider, handoffId: $handoffId,
  contextText: $result, createdAt: datetime(), consumedAt: datetime(), caption: 'subagent_result ' + child.id
})
CREATE (handoff:ContextHandoff {
  tenant: $tenant, id: $handoffId, transferId: $transferId, transferKind: 'subagent_result', threadId: parent.id,
  targetRunId: parentRun.id, targetRunOrdinal: parentRun.ordinal, fromProviderThreadIds: [], toProviderThreadId: parentThread.id,
  coveredFrom: 0, coveredTo: 0, strategy: 'manual_context', summaryText: $result, status: 'ready',
  delivery: $delivery, source: 'subagent', length: size($result), targetProvider: parentRun.provider, omissions: [],
  requestedAt: datetime(), writtenAt: datetime(), usedAt: datetime(),
  createdAt: datetime(), updatedAt: datetime(), caption: 'manual_context subagent ' + child.id
})
CREATE (transfer)-[:FROM_THREAD]->(child)
CREATE (transfer)-[:TO_THREAD]->(parent)
CREATE (transfer)-[:MATERIALIZED_AS]->(handoff)
CREATE (handoff)-[:DELIVERED_TO]->(parentThread)
CREATE (parentRun)-[:USES]->(handoff)
WITH parentRun, transfer
CALL (parentRun) {
  OPTIONAL MATCH (parentRun)-[:RECORDED]->(existing:RunFact)
  RETURN count(existing) AS factCount
}
CREATE (parentRun)-[:RECORDED]->(:RunFact {
  tenant: $tenant, threadId: parentRun.threadId, runOrdinal: parentRun.ordinal, seq: factCount,
  kind: 'subagent_result', text: $result, key: $childId, status: null, caption: 'subagent_result: ' + left($result, 40)
})
RETURN transfer {.*} AS transfer
