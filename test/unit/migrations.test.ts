// On a new store the migrations run only what shapes the schema (src/graph/migrations.ts): that is
// right only while every other statement of cypher/schema/ moves data the store already holds.
import { describe, expect, it } from 'vitest';
import { schemaMigrationNames, shapesSchema } from '../../src/graph/migrations.js';
import { statementsOf } from '../../src/graph/queries.js';

describe('shapesSchema', () => {
  it.each([
    'CREATE CONSTRAINT run_id IF NOT EXISTS FOR (r:Run) REQUIRE r.id IS UNIQUE',
    'CREATE INDEX run_by_created IF NOT EXISTS FOR (r:Run) ON (r.tenant, r.createdAt)',
    'create text index run_text IF NOT EXISTS FOR (r:Run) ON (r.userMessage)',
    'DROP INDEX run_by_created IF EXISTS',
    'DROP CONSTRAINT run_id',
  ])('takes %s for a change of the schema', (statement) => {
    expect(shapesSchema(statement)).toBe(true);
  });

  it.each([
    'MATCH (thread:Thread) WHERE thread.lastActivityAt IS NULL SET thread.lastActivityAt = thread.createdAt',
    "CREATE (:Setting {name: 'indexes'})",
    'MERGE (lock:SchemaLock {name: $name})',
  ])('takes %s for a change of the data', (statement) => {
    expect(shapesSchema(statement)).toBe(false);
  });

  it('finds only constraints, indexes and statements over existing data in cypher/schema/', () => {
    const statements = schemaMigrationNames().flatMap((name) => statementsOf(name));
    const seeding = statements.filter((statement) => !shapesSchema(statement) && !/^MATCH\b/.test(statement));
    // A migration that creates data (a seed) would be skipped on a new store: it needs a rule of its own.
    expect(seeding).toEqual([]);
    expect(statements.filter((statement) => !shapesSchema(statement)).length).toBeGreaterThan(0);
  });
});
