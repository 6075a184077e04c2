// The lengths of long texts of runs, in characters (Unicode code points), without sending the texts:
// what the API charges to a request's answer budget before it reads them, and Run.*Length.
// Parameters: $requests, a list of {key, runId, field} (field: userMessage, assistantMessage or
// error). Columns: key, length (null when the run has no such text); no row for an unknown run.
UNWIND $requests AS request
MATCH (run:Run {tenant: $tenant, id: request.runId})
RETURN request.key AS key, size(run[request.field]) AS length
