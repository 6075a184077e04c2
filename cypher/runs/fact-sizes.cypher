// The characters (Unicode code points) that runs/facts-by-runs would send for the same parameters,
// counted without sending them: the texts cut to $maxChars (null: whole; 0: not asked for), keys,
// statuses and file paths. What the API charges to a request's answer budget before it reads the facts.
// Columns: chars, one row.
UNWIND $runIds AS runId
MATCH (run:Run {tenant: $tenant, id: runId})
CALL (run) {
  MATCH (run)-[:RECORDED]->(fact:RunFact)
  WITH fact ORDER BY fact.seq
  SKIP $offset LIMIT $first
  RETURN sum(
    CASE WHEN $maxChars IS NULL THEN size(fact.text) WHEN $maxChars = 0 THEN 0 WHEN size(fact.text) < $maxChars THEN size(fact.text) ELSE $maxChars END
    + coalesce(size(fact.key), 0) + coalesce(size(fact.status), 0) + coalesce(size(fact.filePath), 0)
    + coalesce(size(fact.filePreviousPath), 0)
  ) AS chars
}
RETURN sum(chars) AS chars
