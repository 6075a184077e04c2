// Bloom search phrase: "Fork tree of thread $threadId in tenant $tenant"
// Parameters: $tenant (string), $threadId (string: the Thread.id of a root thread, or of any thread
// to see the tree below it).
// Shows the thread and its forks and subagent threads, down to 5 levels: each child thread with the
// source run it branched from (FORKED_FROM for a fork, SPAWNED_BY for a subagent) and the thread that
// ran that run (HAS_RUN). A fork taken at an ordinal its parent itself inherited points to the
// ancestor's run that holds it, so it hangs below that ancestor in the picture. Runs that no child
// branched from are not shown.
// Returns the thread and paths, at most 200 rows. Example (the design example with fork F from run 5
// and subagent S spawned by F's run 6): the root, run 5, F, F's run 6 and S (5 nodes, 4 relationships).
MATCH (top:Thread {tenant: $tenant, id: $threadId})
OPTIONAL MATCH path = (top)(()-[:HAS_RUN]->(:Run)<-[:FORKED_FROM|SPAWNED_BY]-(:Thread {tenant: $tenant})){1,5}
RETURN top, path
LIMIT 200
