// Appends fact $fact to run $runId after the facts it holds, numbered on from them as runs/finish
// numbers its own. The caller holds the thread's lock, so two appends never take one seq.
MATCH (run:Run {tenant: $tenant, id: $runId})
WITH run, COUNT { (run)-[:RECORDED]->(:RunFact) } AS seq
WHERE seq < $maxFacts
CREATE (run)-[:RECORDED]->(fact:RunFact {
  tenant: $tenant, threadId: run.threadId, runOrdinal: run.ordinal, seq: seq,
  kind: $fact.kind, text: $fact.text, key: $fact.key, status: null,
  caption: $fact.kind + ': ' + left($fact.text, 40)
})
RETURN fact {.kind, .text, textLength: size(fact.text), .key, .status, .runOrdinal, file: null} AS fact
