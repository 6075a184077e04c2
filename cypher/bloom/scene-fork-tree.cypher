// Bloom scene action: "Fork tree", for selected threads (offered on the Thread category).
// Parameters: $nodes (set by Bloom: the element ids of the selected nodes; nodes that are not
// threads are ignored, at most 10 threads are expanded).
// Shows, for each selected thread, what the search phrase "Fork tree of thread $threadId in tenant
// $tenant" (fork-tree.cypher) shows: its forks and subagent threads down to 5 levels, each with the
// source run it branched from (FORKED_FROM, SPAWNED_BY) and the thread that ran that run (HAS_RUN).
// Returns the threads and paths, at most 200 rows.
UNWIND $nodes AS nodeId
MATCH (top:Thread)
WHERE elementId(top) = nodeId
WITH DISTINCT top
WITH top LIMIT 10
OPTIONAL MATCH path = (top)(()-[:HAS_RUN]->(:Run)<-[:FORKED_FROM|SPAWNED_BY]-(child:Thread WHERE child.tenant = top.tenant)){1,5}
RETURN top, path
LIMIT 200
