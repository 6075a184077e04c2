// Applies the numbered files of cypher/schema/ in order, once each, recording each as a
// :SchemaMigration node. Every statement is idempotent (IF NOT EXISTS), so two instances starting
// together, or a crash between a statement and its record, are harmless.
import { queryNames, statementsOf } from './queries.js';
import type { Graph } from './transactions.js';

function schemaMigrationNames(): string[] {
  return queryNames().filter((name) => /^schema\/\d+_/.test(name));
}

export async function applyMigrations(graph: Graph): Promise<string[]> {
  const applied = new Set((await graph.read((tx) => tx.rows<{ name: string }>('migrations/applied'))).map((row) => row.name));
  const newlyApplied: string[] = [];
  for (const name of schemaMigrationNames()) {
    if (applied.has(name)) continue;
    for (const statement of statementsOf(name)) await graph.autoCommit(statement);
    await graph.write((tx) => tx.rows('migrations/record', { name }));
    newlyApplied.push(name);
  }
  return newlyApplied;
}
