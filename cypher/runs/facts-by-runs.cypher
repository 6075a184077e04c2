// The facts each run recorded, in the order they were sent; a file_change fact's typed change as `file`.
UNWIND $runIds AS runId
MATCH (run:Run {tenant: $tenant, id: runId})-[:RECORDED]->(fact:RunFact)
WITH runId, fact ORDER BY fact.seq
RETURN runId, collect(fact {.kind, .text, .key, .status, .runOrdinal, file: CASE WHEN fact.filePath IS NULL THEN null ELSE {path: fact.filePath, change: fact.fileChange, additions: fact.fileAdditions, deletions: fact.fileDeletions} END}) AS facts
