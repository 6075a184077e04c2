// Applies the numbered files of cypher/schema/ in order, once each, recording each as a
// :SchemaMigration node. Instances that start together on a new store take turns through a lease in
// the database (a :SchemaLock node): one applies the migrations, the others find them applied. Every
// statement is idempotent (IF NOT EXISTS) too, so a holder that crashed between a statement and its
// record, and whose lease then expired, leaves nothing the next holder cannot finish. On a new store
// only the statements that shape the schema run: the others move data written before them, and there
// is none (planning them on an empty store was most of a new store's migration time).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type QueryName, queryNames, statementsOf } from './queries.js';
import type { Graph } from './transactions.js';

/** Longer than a new store's migrations take; a crashed holder's lease passes to another after it. */
const LEASE_SECONDS = 120;

/** Another instance holds the migration lease: the migrations are being applied there. */
export class MigrationsBusy extends Error {}

const appliedRow = z.object({ name: z.string() });
const lockRow = z.object({ holder: z.string() });
const newStoreRow = z.object({ isNew: z.boolean() });

// CREATE/DROP of a constraint or an index, of any kind (`CREATE RANGE INDEX`, `CREATE CONSTRAINT`...).
const SCHEMA_STATEMENT = /^(CREATE|DROP)\s+(\w+\s+)?(CONSTRAINT|INDEX)\b/i;

/** Whether a migration statement changes the schema, rather than the data in the store. */
export function shapesSchema(statement: string): boolean {
  return SCHEMA_STATEMENT.test(statement);
}

/** The numbered files of cypher/schema/, in the order they are applied. */
export function schemaMigrationNames(): QueryName[] {
  return queryNames().filter((name) => /^schema\/\d+_/.test(name));
}

async function pendingMigrations(graph: Graph): Promise<QueryName[]> {
  const applied = new Set(
    (await graph.read((tx) => tx.rows('migrations/applied', {}, appliedRow))).map((row) => row.name),
  );
  return schemaMigrationNames().filter((name) => !applied.has(name));
}

/**
 * The migrations this call applied (none when they were in place). Throws MigrationsBusy while another
 * instance applies them, and the driver's errors while the database cannot be reached.
 * `progress` hears once how many migrations are to be applied, when there are any (on a new store: all).
 */
export async function applyMigrations(
  graph: Graph,
  progress: (message: string) => void = () => undefined,
  holder: string = randomUUID(),
): Promise<string[]> {
  if ((await pendingMigrations(graph)).length === 0) return [];
  for (const statement of statementsOf('schema/lock')) await graph.autoCommit(statement);
  const taken = await graph.write((tx) => tx.rows('migrations/lock', { holder, leaseSeconds: LEASE_SECONDS }, lockRow));
  if (taken.length === 0) throw new MigrationsBusy('another instance is applying the schema migrations');
  try {
    // Read again under the lease: the previous holder may have applied them meanwhile.
    const pending = await pendingMigrations(graph);
    const { isNew } = await graph.read((tx) =>
      tx.single('migrations/new-store', {}, newStoreRow, 'whether the store is new'),
    );
    if (pending.length > 0)
      progress(
        `applying ${pending.length} schema migration${pending.length === 1 ? '' : 's'} (constraints and indexes)`,
      );
    for (const name of pending) {
      const statements = statementsOf(name).filter((statement) => !isNew || shapesSchema(statement));
      for (const statement of statements) await graph.autoCommit(statement);
      await graph.write((tx) => tx.run('migrations/record', { name }));
    }
    return pending;
  } finally {
    // A lease that cannot be given back (the database went away) expires by itself.
    await graph.write((tx) => tx.run('migrations/unlock', { holder })).catch(() => undefined);
  }
}
