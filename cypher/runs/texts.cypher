// Long texts of runs, each cut to its first maxChars characters (Unicode code points) in Neo4j, so
// that no more than was asked for is sent. Parameters: $requests, a list of {key, runId, field,
// maxChars} (field: userMessage, assistantMessage or error; maxChars null: the whole text).
// Columns: key, text (null when the run has no such text); no row for an unknown run.
UNWIND $requests AS request
MATCH (run:Run {tenant: $tenant, id: request.runId})
WITH request, run[request.field] AS text
RETURN request.key AS key, CASE WHEN request.maxChars IS NULL THEN text ELSE left(text, request.maxChars) END AS text
