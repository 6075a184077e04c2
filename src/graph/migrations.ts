// Applies the numbered files of cypher/schema/ in order, once each, recording each as a
// :SchemaMigration node. Every statement is idempotent (IF NOT EXISTS), so two instances starting
// together, or a crash between a statement and its record, are harmless.
import { queryNames, statementsOf } from './queries.js';
import type { Graph } from './transactions.js';

function schemaMigrationNames(): string[] {
  return queryNames().filter((name) => /^schema\/\d+_/.test(name));
}

/** `progress` hears once how many migrations are to be applied, when there are any (on a new store: all). */
export async function applyMigrations(
  graph: Graph,
  progress: (message: string) => void = () => undefined,
): Promise<string[]> {
  const applied = new Set(
    (await graph.read((tx) => tx.rows<{ name: string }>('migrations/applied'))).map((row) => row.name),
  );
  const pending = schemaMigrationNames().filter((name) => !applied.has(name));
  if (pending.length > 0)
    progress(`applying ${pending.length} schema migration${pending.length === 1 ? '' : 's'} (constraints and indexes)`);
  const newlyApplied: string[] = [];
  for (const name of pending) {
    for (const statement of statementsOf(name)) await graph.autoCommit(statement);
    await graph.write((tx) => tx.rows('migrations/record', { name }));
    newlyApplied.push(name);
  }
  return newlyApplied;
}
