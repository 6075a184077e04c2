// Migration 007 turns a store written with one COVERS edge per covered run into coverage as ranges:
// a lineage written the old way (per-run COVERS, no ranges on threads and provider threads, a
// rollback recorded only on its runs) comes out in the new shape, the audit finds nothing wrong
// with it, the service reads the same coverage from it, and running the migration again changes
// nothing.
import type { Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runAudit } from '../../src/graph/audit.js';
import { createDriver } from '../../src/graph/driver.js';
import { statementsOf } from '../../src/graph/queries.js';
import { plain } from '../../src/graph/values.js';
import { fileTenant } from '../support/tenants.js';

// Root: codex runs 1-3 on `codex`, claude run 4 on `claude` with full handoff H (1-3), codex runs
// 5-6 with delta H2 (4), then a rollback to 5 (run 6 and its handoff withdrawn), then codex run 7.
// Fork of the root at run 6, made before the rollback, with claude run 7 on `fork-claude` and
// portable context HF covering the root's runs 1-6 (run 6 still live for the fork).
const OLD_SHAPE = `
CREATE (root:Thread {tenant: $tenant, id: 'root', caption: 'root', createdAt: datetime(), headOrdinal: 7, lastOrdinal: 7,
                     providerThreadCount: 2, providers: ['codex', 'claude']})
CREATE (codex:ProviderThread {tenant: $tenant, id: $tenant + '-codex', threadId: 'root', provider: 'codex', seq: 1,
                              status: 'idle', firstRunOrdinal: 1, lastRunOrdinal: 7, caption: 'codex #1'})
CREATE (claude:ProviderThread {tenant: $tenant, id: $tenant + '-claude', threadId: 'root', provider: 'claude', seq: 2,
                               status: 'idle', firstRunOrdinal: 4, lastRunOrdinal: 4, caption: 'claude #2'})
CREATE (root)-[:HAS_PROVIDER_THREAD]->(codex), (root)-[:HAS_PROVIDER_THREAD]->(claude)
WITH root, codex, claude
UNWIND [[1, 'codex', 'completed'], [2, 'codex', 'completed'], [3, 'codex', 'completed'], [4, 'claude', 'completed'],
        [5, 'codex', 'completed'], [6, 'codex', 'rolled_back'], [7, 'codex', 'completed']] AS spec
WITH root, codex, claude, spec, CASE spec[1] WHEN 'codex' THEN codex ELSE claude END AS servedBy
CREATE (run:Run {tenant: $tenant, id: $tenant + '-r' + toString(spec[0]), threadId: 'root', ordinal: spec[0], provider: spec[1],
                 providerThreadId: servedBy.id, status: spec[2]})
SET run.rolledBackAt = CASE WHEN spec[2] = 'rolled_back' THEN datetime() END
CREATE (root)-[:HAS_RUN]->(run), (run)-[:USES]->(servedBy)
WITH DISTINCT root, codex, claude
MATCH (r1:Run {tenant: $tenant, id: $tenant + '-r1'}), (r2:Run {tenant: $tenant, id: $tenant + '-r2'}),
      (r3:Run {tenant: $tenant, id: $tenant + '-r3'}), (r4:Run {tenant: $tenant, id: $tenant + '-r4'}),
      (r5:Run {tenant: $tenant, id: $tenant + '-r5'}), (r6:Run {tenant: $tenant, id: $tenant + '-r6'})
SET r4.contextHandoffId = $tenant + '-h', r5.contextHandoffId = $tenant + '-h2'
CREATE (h:ContextHandoff {tenant: $tenant, id: $tenant + '-h', threadId: 'root', transferId: $tenant + '-tr', transferKind: 'provider_handoff',
                          targetRunId: r4.id, toProviderThreadId: claude.id, fromProviderThreadIds: [codex.id],
                          coveredFrom: 1, coveredTo: 3, strategy: 'full_thread_summary', status: 'ready'})
CREATE (h2:ContextHandoff {tenant: $tenant, id: $tenant + '-h2', threadId: 'root', transferId: $tenant + '-tr2', transferKind: 'provider_handoff',
                           targetRunId: r5.id, toProviderThreadId: codex.id, fromProviderThreadIds: [claude.id],
                           coveredFrom: 4, coveredTo: 4, strategy: 'delta_since_target_last_seen', status: 'ready'})
CREATE (r4)-[:USES]->(h), (h)-[:DELIVERED_TO]->(claude), (r5)-[:USES]->(h2), (h2)-[:DELIVERED_TO]->(codex)
CREATE (h)-[:COVERS]->(r1), (h)-[:COVERS]->(r2), (h)-[:COVERS]->(r3), (h2)-[:COVERS]->(r4)
CREATE (fork:Thread {tenant: $tenant, id: 'fork', caption: 'fork', createdAt: datetime() - duration('PT1H'),
                     parentThreadId: 'root', relationshipToParent: 'fork', rootThreadId: 'root', sourceRunId: r6.id, sourceRunOrdinal: 6,
                     forkOrdinal: 6, headOrdinal: 7, lastOrdinal: 7, providerThreadCount: 1, providers: ['claude'],
                     segmentThreadIds: ['root'], segmentTo: [6], segmentAsOf: [toString(datetime() - duration('PT1H'))]})
CREATE (forkClaude:ProviderThread {tenant: $tenant, id: $tenant + '-fork-claude', threadId: 'fork', provider: 'claude', seq: 1,
                                   status: 'idle', firstRunOrdinal: 7, lastRunOrdinal: 7, caption: 'claude #1'})
CREATE (fork)-[:HAS_PROVIDER_THREAD]->(forkClaude)
CREATE (f7:Run {tenant: $tenant, id: $tenant + '-f7', threadId: 'fork', ordinal: 7, provider: 'claude', providerThreadId: forkClaude.id,
                status: 'completed', contextHandoffId: $tenant + '-hf'})
CREATE (fork)-[:HAS_RUN]->(f7), (f7)-[:USES]->(forkClaude)
CREATE (hf:ContextHandoff {tenant: $tenant, id: $tenant + '-hf', threadId: 'fork', transferId: $tenant + '-trf', transferKind: 'fork',
                           targetRunId: f7.id, toProviderThreadId: forkClaude.id, fromProviderThreadIds: [codex.id, claude.id],
                           coveredFrom: 1, coveredTo: 6, strategy: 'full_thread_summary', status: 'ready'})
CREATE (f7)-[:USES]->(hf), (hf)-[:DELIVERED_TO]->(forkClaude)
CREATE (hf)-[:COVERS]->(r1), (hf)-[:COVERS]->(r2), (hf)-[:COVERS]->(r3), (hf)-[:COVERS]->(r4), (hf)-[:COVERS]->(r5), (hf)-[:COVERS]->(r6)
`;

const SHAPE = `
MATCH (thread:Thread {tenant: $tenant})
WITH collect(thread {.id, .rolledBackFrom, .rolledBackTo}) AS threads
MATCH (pt:ProviderThread {tenant: $tenant})
WITH threads, collect(pt {.id, .servedFrom, .servedTo, .firstRunOrdinal, .lastRunOrdinal}) AS providerThreads
MATCH (handoff:ContextHandoff {tenant: $tenant})
CALL (handoff) {
  OPTIONAL MATCH (handoff)-[:COVERS]->(run:Run)
  WITH run ORDER BY run.ordinal
  RETURN collect(run.ordinal) AS covers
}
WITH threads, providerThreads, collect(handoff {.id, .targetRunOrdinal, covers: covers}) AS handoffs
RETURN threads, providerThreads, handoffs`;

let driver: Driver;
const database = () => inject('neo4j').database;
beforeAll(() => {
  driver = createDriver(inject('neo4j'));
});
afterAll(async () => {
  await driver?.close();
});

async function migrate(): Promise<void> {
  const session = driver.session({ database: database() });
  try {
    // CALL { ... } IN TRANSACTIONS runs only in an auto-commit transaction, as the service runs migrations.
    for (const statement of statementsOf('schema/007_coverage_as_ranges')) await session.run(statement);
  } finally {
    await session.close();
  }
}

async function shapeOf(tenant: string) {
  const { records } = await driver.executeQuery(SHAPE, { tenant }, { database: database() });
  const shape = plain(records[0]!.toObject()) as {
    threads: { id: string }[];
    providerThreads: { id: string }[];
    handoffs: { id: string }[];
  };
  const byId = <T extends { id: string }>(items: T[]) => [...items].sort((a, b) => a.id.localeCompare(b.id));
  return { threads: byId(shape.threads), providerThreads: byId(shape.providerThreads), handoffs: byId(shape.handoffs) };
}

describe('migration 007: coverage as ranges', () => {
  it('turns a lineage written with per-run COVERS into ranges, once', async () => {
    const tenant = fileTenant();
    await driver.executeQuery(OLD_SHAPE, { tenant }, { database: database() });
    await migrate();
    const migrated = await shapeOf(tenant);
    expect(migrated.threads).toEqual([
      { id: 'fork', rolledBackFrom: [], rolledBackTo: [] },
      { id: 'root', rolledBackFrom: [6], rolledBackTo: [6] },
    ]);
    expect(migrated.providerThreads).toEqual([
      { id: `${tenant}-claude`, servedFrom: [4], servedTo: [4], firstRunOrdinal: 4, lastRunOrdinal: 4 },
      { id: `${tenant}-codex`, servedFrom: [1, 5, 7], servedTo: [3, 5, 7], firstRunOrdinal: 1, lastRunOrdinal: 7 },
      { id: `${tenant}-fork-claude`, servedFrom: [7], servedTo: [7], firstRunOrdinal: 7, lastRunOrdinal: 7 },
    ]);
    expect(migrated.handoffs).toEqual([
      { id: `${tenant}-h`, targetRunOrdinal: 4, covers: [1, 3] },
      { id: `${tenant}-h2`, targetRunOrdinal: 5, covers: [4] },
      { id: `${tenant}-hf`, targetRunOrdinal: 7, covers: [1, 6] },
    ]);

    expect(await runAudit(driver, database(), { tenant })).toEqual([]);

    await migrate();
    expect(await shapeOf(tenant)).toEqual(migrated);
  });
});
