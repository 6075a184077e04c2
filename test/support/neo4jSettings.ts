// The Neo4j settings of every Neo4j the tests start on a graph of their own: the shared one
// (test/globalSetup.ts) and those of the files in test/own-neo4j/ that write to theirs.
//
// Compiling Cypher was half of the shared Neo4j's CPU over the integration tier. A test graph grows
// from nothing within minutes, so Neo4j replanned a statement whenever its statistics had moved (at
// most every 10 s, about 200 times in five minutes), and compiled one plan per size class of the
// list and string parameters. The plans' results are the same either way, and the tests time
// nothing. With both off, the tier's Neo4j CPU fell from 330 s to 198 s and its wall time from 326 s
// to 222 s. The service's own local Neo4j and the benchmark's keep Neo4j's defaults.
//
// Each statement is still planned once per Neo4j process, and the planner's search for a join order
// (IDP) is bounded here to its smallest table and shortest step: a test graph of a few thousand
// nodes runs any of the plans it could pick in about the same time. Over the integration and
// reliability tiers (two runs each way) the shared Neo4j's Bolt workers and JIT compiler threads took
// 211-225 CPU seconds together instead of 230-233, and the tiers 297-311 s instead of 319-323.
export const TEST_NEO4J_SETTINGS = {
  'dbms.cypher.min_replan_interval': '1h',
  'internal.cypher.use_parameter_size': 'false',
  'internal.cypher.idp_solver_table_threshold': '16',
  'internal.cypher.idp_solver_duration_threshold': '10',
};
