import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { schemaMigrationNames, shapesSchema } from '../../src/graph/migrations.js';
import { type QueryName, queryNames, statementsOf } from '../../src/graph/queries.js';
import { NEO4J_VERSION } from '../../src/graph/localNeo4jInstall.js';
import { startTestService, type TestService } from '../support/service.js';

/** [migration, statement] for every statement of cypher/schema/ that moves data rather than shaping the schema. */
function dataMigrationStatements(): [QueryName, string][] {
  return schemaMigrationNames()
    .flatMap((name) => statementsOf(name).map((statement): [QueryName, string] => [name, statement]))
    .filter(([, statement]) => !shapesSchema(statement));
}

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('the foundation', () => {
  it('talks to a real Neo4j over Bolt', async () => {
    const { records } = await t.driver.executeQuery(
      'CALL dbms.components() YIELD name, versions, edition RETURN name, versions[0] AS version, edition',
      {},
      { database: inject('neo4j').database },
    );
    expect(records[0]!.get('name')).toBe('Neo4j Kernel');
    expect(records[0]!.get('version')).toMatch(/^5\.26\./);
    if (inject('neo4j').source === 'local') expect(records[0]!.get('version')).toBe(NEO4J_VERSION);
  });

  // test/globalSetup.ts gives the local test Neo4j settings of its own through the launcher (SHOW
  // SETTINGS lists the public ones only).
  it('runs the local test Neo4j with the settings the tests asked for', async () => {
    if (inject('neo4j').source !== 'local') return;
    const { records } = await t.driver.executeQuery(
      "SHOW SETTINGS YIELD name, value WHERE name = 'dbms.cypher.min_replan_interval' RETURN value",
      {},
      { database: inject('neo4j').database },
    );
    expect(records.map((record) => record.get('value'))).toEqual(['1h']);
  });

  it('answers { __typename } on /graphql and is ready', async () => {
    expect(await t.ok('{ __typename }')).toEqual({ __typename: 'Query' });
    const ready = await fetch(t.service.url.replace('/graphql', '/readyz'));
    expect(ready.status).toBe(200);
    const health = await fetch(t.service.url.replace('/graphql', '/healthz'));
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it('has applied every schema migration and recorded it', async () => {
    const { records } = await t.driver.executeQuery(
      'MATCH (m:SchemaMigration) RETURN m.name AS name ORDER BY name',
      {},
      { database: inject('neo4j').database },
    );
    expect(records.map((record) => record.get('name'))).toEqual(
      expect.arrayContaining(['schema/001_constraints', 'schema/002_indexes']),
    );
    const constraints = await t.driver.executeQuery(
      'SHOW CONSTRAINTS YIELD name RETURN collect(name) AS names',
      {},
      { database: inject('neo4j').database },
    );
    expect(constraints.records[0]!.get('names')).toContain('run_thread_ordinal');
  });

  // The test graph began as a new store, where only the statements that shape the schema ran.
  it('has, on a new store, every constraint and index the migrations declare', async () => {
    const declared = queryNames()
      .filter((name) => name.startsWith('schema/'))
      .flatMap((name) => statementsOf(name))
      .filter(shapesSchema)
      .map((statement) => /^CREATE\s+(?:\w+\s+)?(?:CONSTRAINT|INDEX)\s+(\w+)/i.exec(statement)![1]);
    const present: string[] = [];
    for (const show of ['SHOW CONSTRAINTS YIELD name', 'SHOW INDEXES YIELD name']) {
      const { records } = await t.driver.executeQuery(show, {}, { database: inject('neo4j').database });
      present.push(...records.map((record) => record.get('name') as string));
    }
    expect(declared.length).toBeGreaterThan(30);
    expect(present).toEqual(expect.arrayContaining(declared));
  });

  // What moves data is skipped on a new store, so nothing else would ever plan it before an old store does.
  it.each(dataMigrationStatements())(
    'the data migration in cypher/%s.cypher compiles (EXPLAIN)',
    async (_, statement) => {
      const session = t.driver.session({ database: inject('neo4j').database });
      try {
        // Auto-commit: a statement that commits in batches (CALL ... IN TRANSACTIONS) is refused in any other.
        await expect(session.run(`EXPLAIN ${statement}`)).resolves.toBeDefined();
      } finally {
        await session.close();
      }
    },
  );

  // A broken query fails CI, not a user: every statement the service can run is compiled by the real
  // planner, as the service sends it.
  it.each(queryNames().filter((name) => !name.startsWith('schema/')))(
    'cypher/%s.cypher compiles (EXPLAIN)',
    async (name) => {
      const { sentCypher } = await import('../../src/graph/queries.js');
      await expect(
        t.driver.executeQuery(`EXPLAIN ${sentCypher(name)}`, {}, { database: inject('neo4j').database }),
      ).resolves.toBeDefined();
    },
  );

  // Query shape: what the service runs per request starts from an index, never from a scan of a label.
  const SCANNING_ALLOWED = new Set([
    'admin/ping',
    'admin/server-version',
    'migrations/applied',
    'migrations/new-store',
    'migrations/record',
    'migrations/lock',
    'migrations/unlock',
  ]);
  // An audit reads every node of a kind on purpose: it is an operator's check, not a request path.
  const servesRequests = (name: string) =>
    !name.startsWith('schema/') && !name.startsWith('audit/') && !SCANNING_ALLOWED.has(name);
  it.each(queryNames().filter(servesRequests))('cypher/%s.cypher uses indexes, not scans', async (name) => {
    expect((await planOperators(name)).filter((operator) => /NodeByLabelScan|AllNodesScan/.test(operator))).toEqual([]);
  });

  // Reads whose cost must not follow the thread's length take the newest or next rows of a long
  // range: the index must serve their order, so that LIMIT stops the read. A Sort or Top means
  // Neo4j reads the whole range first (docs/benchmarks.md); a PartialTop only orders ties.
  const READ_IN_INDEX_ORDER: QueryName[] = [
    'planner/snapshot',
    'summaries/input',
    'threads/latest-checkpoint',
    'runs/page',
    'threads/page',
    'threads/page-of-project',
    'lineage/source-point',
  ];
  it.each(READ_IN_INDEX_ORDER)('cypher/%s.cypher reads in index order, without sorting', async (name) => {
    expect((await planOperators(name)).filter((operator) => /^(Sort|Top)@/.test(operator))).toEqual([]);
  });

  // The matrix sorts a few rows (each segment's page, the provider threads), never a segment's runs.
  it("cypher/analytics/coverage-matrix.cypher stops each segment's run read at the page's limit", async () => {
    const operators = await planOperators('analytics/coverage-matrix');
    const seek = operators.findIndex((operator) =>
      /^NodeUniqueIndexSeek@.*run:Run\(tenant, threadId, ordinal\)/.test(operator),
    );
    expect(seek).toBeGreaterThan(0);
    const nearestOrdering = operators.slice(0, seek).findLast((operator) => /^(Limit|Top|Sort)@/.test(operator));
    expect(nearestOrdering).toMatch(/^Limit@/);
  });

  it('cypher/analytics/coverage-matrix.cypher reads its columns in seq order and stops at the page', async () => {
    const operators = await planOperators('analytics/coverage-matrix');
    const seek = operators.findIndex((operator) =>
      /^NodeIndexSeek(ByRange)?@.*providerThread:ProviderThread\(tenant, threadId, seq\)/.test(operator),
    );
    expect(seek).toBeGreaterThan(0);
    expect(operators.slice(0, seek).findLast((operator) => /^(Limit|Top|Sort)@/.test(operator))).toMatch(/^Limit@/);
  });
});

async function planOperators(name: QueryName): Promise<string[]> {
  const { sentCypher } = await import('../../src/graph/queries.js');
  const { summary } = await t.driver.executeQuery(
    `EXPLAIN ${sentCypher(name)}`,
    {},
    { database: inject('neo4j').database },
  );
  const operators: string[] = [];
  const walk = (plan: { operatorType: string; arguments: { Details?: string }; children: unknown[] } | false) => {
    if (!plan) return;
    operators.push(`${plan.operatorType} ${plan.arguments.Details ?? ''}`);
    plan.children.forEach((child) => walk(child as never));
  };
  walk(summary.plan);
  return operators;
}
