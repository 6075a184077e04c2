// What the planner decides from, around `thread` (bound by the statement that takes this in): the
// body of planner/snapshot, which reads it as it is, and of planner/locked-snapshot, which takes the
// thread's write lock first. See planner/snapshot for what it reads and why each read is bounded.
// WITH *: Cypher wants a WITH between an update (the lock) and a MATCH.
WITH *
OPTIONAL MATCH (head:Run {tenant: $tenant, threadId: $threadId, ordinal: thread.headOrdinal})
CALL (thread) {
  // Ordering by every key of the (tenant, threadId, provider, seq) index, not by seq alone, is what
  // lets Neo4j read the index backwards and stop at the first row instead of sorting every provider
  // thread of that provider.
  OPTIONAL MATCH (candidate:ProviderThread {tenant: $tenant, threadId: $threadId, provider: $provider})
  WHERE candidate.seq IS NOT NULL
  RETURN candidate AS target ORDER BY candidate.tenant DESC, candidate.threadId DESC, candidate.provider DESC, candidate.seq DESC LIMIT 1
}
CALL (target) {
  OPTIONAL MATCH (later:Run {tenant: $tenant, threadId: $threadId})
  WHERE target IS NOT NULL AND later.ordinal > coalesce(target.lastRunOrdinal, target.inheritedThroughOrdinal, 0) AND later.status <> 'rolled_back'
  // The full key of the (tenant, threadId, ordinal) constraint's index again: read in order, the
  // LIMIT stops the read however many runs the target has missed.
  WITH later ORDER BY later.tenant, later.threadId, later.ordinal LIMIT $runWindow
  CALL (later) {
    OPTIONAL MATCH (fact:RunFact {tenant: $tenant, threadId: $threadId, runOrdinal: later.ordinal})
    RETURN collect(fact {.runOrdinal, .seq, .kind, .text, .key, .status, file: CASE WHEN fact.filePath IS NULL THEN null ELSE {path: fact.filePath, change: fact.fileChange, additions: fact.fileAdditions, deletions: fact.fileDeletions, previousPath: fact.filePreviousPath} END}) AS ownFacts
  }
  CALL (later) {
    // The work of the subagents the run spawned, as in summaries/input.cypher.
    OPTIONAL MATCH (child:Thread {tenant: $tenant, parentThreadId: $threadId, sourceRunOrdinal: later.ordinal})
    USING INDEX child:Thread(tenant, parentThreadId, sourceRunOrdinal)
    WHERE child.relationshipToParent = 'subagent'
    CALL (child) {
      OPTIONAL MATCH (fact:RunFact {tenant: $tenant, threadId: child.id})
      WHERE fact.runOrdinal >= 0 AND fact.kind IN $subagentWorkKinds
      RETURN collect(fact) AS childFacts
    }
    UNWIND childFacts AS fact
    RETURN collect(fact {runOrdinal: later.ordinal, .seq, .kind, .text, .key, .status, file: CASE WHEN fact.filePath IS NULL THEN null ELSE {path: fact.filePath, change: fact.fileChange, additions: fact.fileAdditions, deletions: fact.fileDeletions, previousPath: fact.filePreviousPath} END}) AS subagentFacts
  }
  WITH later, ownFacts + subagentFacts AS facts
  CALL (later) {
    OPTIONAL MATCH (checkpoint:Checkpoint {tenant: $tenant, threadId: $threadId, runOrdinal: later.ordinal})
    RETURN collect(checkpoint {.*}) AS checkpoints
  }
  RETURN collect(later {.ordinal, .providerThreadId, .provider, .status, .userMessage, .assistantMessage, .error, facts: facts, checkpoints: checkpoints}) AS runsSinceLastNative
}
CALL () {
  // The hint keeps the read a seek: where every transfer in the store shares one (tenant,
  // targetThreadId, status) key, as in a store of one long thread whose transfers are all consumed,
  // the index's statistics make the seek look as dear as a scan, and the planner then scanned every
  // transfer of the store (docs/benchmarks.md, the throughput run).
  OPTIONAL MATCH (transfer:ContextTransfer {tenant: $tenant, targetThreadId: $threadId, status: 'pending'})
  USING INDEX transfer:ContextTransfer(tenant, targetThreadId, status)
  OPTIONAL MATCH (source:ProviderThread {tenant: $tenant, id: transfer.sourceProviderThreadId})
  CALL (transfer, source) {
    OPTIONAL MATCH (source)<-[:USES]-(turn:Run)
    WHERE turn.ordinal <= transfer.sourceRunOrdinal
      AND (turn.status <> 'rolled_back' OR turn.rolledBackAt > transfer.createdAt)
    RETURN count(turn) AS sourceTurns
  }
  // Not sorted here, so that the statement sorts nothing: the caller orders them by createdAt, then id.
  RETURN collect(CASE WHEN transfer IS NOT NULL THEN {
    transfer: transfer {.*}, sourceProviderThread: source {.*}, sourceTurns: sourceTurns,
    createdAt: [transfer.createdAt.epochSeconds, transfer.createdAt.nanosecond]
  } END) AS pendingTransfers
}
// A plan alone reads the thread's rolled-back ranges by their ends (RangeEnds in src/domain/ranges.ts):
// its $lowestRanges lowest and its $highestRanges highest, their number and the ordinals they hold,
// the highest ones as the thread's own, so that what a plan sends and maps does not grow with the
// thread's rollbacks. With $highestRanges null (a startRun, a preview), the thread's ranges are read whole.
WITH *, coalesce(thread.rolledBackFrom, []) AS goneFrom, coalesce(thread.rolledBackTo, []) AS goneTo
RETURN thread {.*,
         rolledBackFrom: CASE WHEN $highestRanges IS NULL THEN goneFrom ELSE goneFrom[-$highestRanges..] END,
         rolledBackTo: CASE WHEN $highestRanges IS NULL THEN goneTo ELSE goneTo[-$highestRanges..] END
       } AS thread,
       CASE WHEN $highestRanges IS NOT NULL THEN {
         lowestFrom: goneFrom[..$lowestRanges], lowestTo: goneTo[..$lowestRanges], rangeCount: size(goneFrom),
         ordinalCount: reduce(total = 0, i IN range(0, size(goneFrom) - 1) | total + goneTo[i] - goneFrom[i] + 1)
       } END AS rolledBackEnds,
       thread.headOrdinal AS headOrdinal,
       head.providerThreadId AS headProviderThreadId,
       head.provider AS headProvider,
       target {.*} AS target,
       // Kept on the provider thread by the statements that write and end its handoffs (only a
       // switch's or a fork's standing handoffs count: see handoffs/create).
       coalesce(target.standingHandoffCount, 0) AS standingHandoffs,
       target.handoffCoveredThrough AS handoffCoveredThrough,
       runsSinceLastNative,
       pendingTransfers
