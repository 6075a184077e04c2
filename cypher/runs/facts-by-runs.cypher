// The facts each run recorded, in the order they were sent: $first of them from $offset, each text
// cut in Neo4j to its first $maxChars characters (Unicode code points; null: whole), with its whole
// length; a file_change fact's typed change as `file`. A run without facts in that slice has no row.
UNWIND $runIds AS runId
MATCH (run:Run {tenant: $tenant, id: runId})
CALL (run) {
  MATCH (run)-[:RECORDED]->(fact:RunFact)
  WITH fact ORDER BY fact.seq
  SKIP $offset LIMIT $first
  RETURN collect(fact {.kind, text: CASE WHEN $maxChars IS NULL THEN fact.text ELSE left(fact.text, $maxChars) END, textLength: size(fact.text), .key, .status, .runOrdinal,
    file: CASE WHEN fact.filePath IS NULL THEN null ELSE {path: fact.filePath, change: fact.fileChange, additions: fact.fileAdditions, deletions: fact.fileDeletions, previousPath: fact.filePreviousPath} END}) AS facts
}
WITH runId, facts WHERE size(facts) > 0
RETURN runId, facts
