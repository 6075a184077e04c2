// The invariant audit can fail: a small lineage written by hand satisfies every invariant, and
// breaking one invariant with raw Cypher makes the audit report that invariant and no other; the
// audit of one tenant reports its own violations and no other tenant's. Each graph lives in a
// transaction that is rolled back: the audits that run after the other files, in parallel on the
// same Neo4j, never see a deliberately broken graph.
import neo4j, { type Driver, type Transaction } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AUDIT_INVARIANTS, auditPass, confirmedViolations } from '../../src/graph/audit.js';
import { createDriver } from '../../src/graph/driver.js';
import { fileTenant } from '../support/tenants.js';

// Root thread: Codex runs 1-3 on `codex`, Claude run 4 on `claude` with handoff H (1-3). Fork of
// the root at run 3, forked an hour ago, with Claude run 4 on `fork-claude` and portable context HF
// covering the root's runs 1-3.
const LINEAGE = `
CREATE (root:Thread {tenant: $tenant, id: 'root', caption: 'root', createdAt: datetime(), headOrdinal: 4, lastOrdinal: 4,
                     providerThreadCount: 2, providers: ['codex', 'claude']})
CREATE (codex:ProviderThread {tenant: $tenant, id: $tenant + '-codex', threadId: 'root', provider: 'codex', seq: 1,
                              status: 'idle', firstRunOrdinal: 1, lastRunOrdinal: 3, servedFrom: [1], servedTo: [3], caption: 'codex #1',
                              standingHandoffCount: 0})
CREATE (claude:ProviderThread {tenant: $tenant, id: $tenant + '-claude', threadId: 'root', provider: 'claude', seq: 2,
                               status: 'idle', firstRunOrdinal: 4, lastRunOrdinal: 4, servedFrom: [4], servedTo: [4], caption: 'claude #2',
                               standingHandoffCount: 1, handoffCoveredThrough: 3})
CREATE (root)-[:HAS_PROVIDER_THREAD]->(codex), (root)-[:HAS_PROVIDER_THREAD]->(claude)
CREATE (r1:Run {tenant: $tenant, id: $tenant + '-r1', threadId: 'root', ordinal: 1, provider: 'codex', providerThreadId: codex.id, status: 'completed'})
CREATE (r2:Run {tenant: $tenant, id: $tenant + '-r2', threadId: 'root', ordinal: 2, provider: 'codex', providerThreadId: codex.id, status: 'completed'})
CREATE (r3:Run {tenant: $tenant, id: $tenant + '-r3', threadId: 'root', ordinal: 3, provider: 'codex', providerThreadId: codex.id, status: 'completed'})
CREATE (r4:Run {tenant: $tenant, id: $tenant + '-r4', threadId: 'root', ordinal: 4, provider: 'claude', providerThreadId: claude.id,
                status: 'completed', contextHandoffId: $tenant + '-h'})
CREATE (root)-[:HAS_RUN]->(r1), (root)-[:HAS_RUN]->(r2), (root)-[:HAS_RUN]->(r3), (root)-[:HAS_RUN]->(r4)
CREATE (r1)-[:USES]->(codex), (r2)-[:USES]->(codex), (r3)-[:USES]->(codex), (r4)-[:USES]->(claude)
CREATE (switch:ContextTransfer {tenant: $tenant, id: $tenant + '-tr', kind: 'provider_handoff', status: 'consumed',
                                sourceThreadId: 'root', targetThreadId: 'root', sourceRunOrdinal: 3, handoffId: $tenant + '-h'})
CREATE (h:ContextHandoff {tenant: $tenant, id: $tenant + '-h', threadId: 'root', transferId: switch.id, transferKind: 'provider_handoff',
                          targetRunId: r4.id, toProviderThreadId: claude.id, fromProviderThreadIds: [codex.id],
                          coveredFrom: 1, coveredTo: 3, strategy: 'full_thread_summary', status: 'ready'})
CREATE (switch)-[:MATERIALIZED_AS]->(h), (switch)-[:FROM_THREAD]->(root), (switch)-[:TO_THREAD]->(root), (switch)-[:FROM_RUN]->(r3)
CREATE (r4)-[:USES]->(h), (h)-[:DELIVERED_TO]->(claude), (h)-[:DRAWN_FROM]->(codex)
CREATE (h)-[:COVERS]->(r1), (h)-[:COVERS]->(r3)
CREATE (fork:Thread {tenant: $tenant, id: 'fork', caption: 'fork', createdAt: datetime() - duration('PT1H'),
                     parentThreadId: 'root', relationshipToParent: 'fork', rootThreadId: 'root', sourceRunId: r3.id, sourceRunOrdinal: 3,
                     forkOrdinal: 3, headOrdinal: 4, lastOrdinal: 4, providerThreadCount: 1, providers: ['claude'],
                     segmentThreadIds: ['root'], segmentTo: [3], segmentAsOf: [toString(datetime() - duration('PT1H'))]})
CREATE (fork)-[:FORKED_FROM]->(r3)
CREATE (forkClaude:ProviderThread {tenant: $tenant, id: $tenant + '-fork-claude', threadId: 'fork', provider: 'claude', seq: 1,
                                   status: 'idle', firstRunOrdinal: 4, lastRunOrdinal: 4, servedFrom: [4], servedTo: [4], caption: 'claude #1',
                                   standingHandoffCount: 1, handoffCoveredThrough: 3})
CREATE (fork)-[:HAS_PROVIDER_THREAD]->(forkClaude)
CREATE (f4:Run {tenant: $tenant, id: $tenant + '-f4', threadId: 'fork', ordinal: 4, provider: 'claude', providerThreadId: forkClaude.id,
                status: 'completed', contextHandoffId: $tenant + '-hf'})
CREATE (fork)-[:HAS_RUN]->(f4), (f4)-[:USES]->(forkClaude)
CREATE (forking:ContextTransfer {tenant: $tenant, id: $tenant + '-trf', kind: 'fork', status: 'consumed', resolution: 'portable_context',
                                 sourceThreadId: 'root', targetThreadId: 'fork', sourceRunOrdinal: 3, handoffId: $tenant + '-hf'})
CREATE (hf:ContextHandoff {tenant: $tenant, id: $tenant + '-hf', threadId: 'fork', transferId: forking.id, transferKind: 'fork',
                           targetRunId: f4.id, toProviderThreadId: forkClaude.id, fromProviderThreadIds: [codex.id],
                           coveredFrom: 1, coveredTo: 3, strategy: 'full_thread_summary', status: 'ready'})
CREATE (forking)-[:MATERIALIZED_AS]->(hf), (forking)-[:FROM_THREAD]->(root), (forking)-[:TO_THREAD]->(fork), (forking)-[:FROM_RUN]->(r3)
CREATE (f4)-[:USES]->(hf), (hf)-[:DELIVERED_TO]->(forkClaude), (hf)-[:DRAWN_FROM]->(codex)
CREATE (hf)-[:COVERS]->(r1), (hf)-[:COVERS]->(r3)
`;

interface Break {
  invariant: string;
  cypher: string;
  /** What the rows must say about the broken element. */
  rows: Record<string, unknown>[];
}

const BREAKS: Break[] = [
  {
    invariant: 'ordinals-unique-gapless',
    cypher: `MATCH (fork:Thread {tenant: $tenant, id: 'fork'}) SET fork.lastOrdinal = 5`,
    rows: [{ threadId: 'fork', ordinal: 5, holderThreadId: 'fork', runIds: [], problem: 'no run holds this ordinal' }],
  },
  {
    invariant: 'one-running-run',
    cypher: `MATCH (run:Run {tenant: $tenant, id: $tenant + '-r4'}) SET run.status = 'running'`,
    rows: [{ threadId: 'root', runningRunId: null, running: [{ id: '{tenant}-r4', ordinal: 4 }] }],
  },
  {
    invariant: 'run-uses-one-provider-thread',
    cypher: `MATCH (run:Run {tenant: $tenant, id: $tenant + '-r2'}) SET run.providerThreadId = $tenant + '-elsewhere'`,
    rows: [{ runId: '{tenant}-r2', providerThreadId: '{tenant}-elsewhere' }],
  },
  {
    invariant: 'provider-thread-served-ranges',
    cypher: `MATCH (pt:ProviderThread {tenant: $tenant, id: $tenant + '-codex'}) SET pt.lastRunOrdinal = 2`,
    rows: [{ providerThreadId: '{tenant}-codex', firstRunOrdinal: 1, lastRunOrdinal: 2, liveFirst: 1, liveLast: 3 }],
  },
  {
    invariant: 'standing-handoff-used-by-its-run',
    cypher: `MATCH (:Run {tenant: $tenant, id: $tenant + '-r4'})-[uses:USES]->(:ContextHandoff) DELETE uses`,
    rows: [{ handoffId: '{tenant}-h', problems: ['its target run does not USE it'] }],
  },
  {
    invariant: 'standing-handoff-covers-its-range',
    cypher: `MATCH (h:ContextHandoff {tenant: $tenant, id: $tenant + '-h'}), (r4:Run {tenant: $tenant, id: $tenant + '-r4'}) CREATE (h)-[:COVERS]->(r4)`,
    rows: [
      {
        handoffId: '{tenant}-h',
        badTargets: ['{tenant}-r4'],
        problems: ['it has more than two COVERS edges', 'it COVERS a run that is not a live run of its range'],
      },
    ],
  },
  {
    // H superseded by hand, its provider thread not recounted: it still claims H's coverage.
    invariant: 'provider-thread-standing-coverage',
    cypher: `MATCH (h:ContextHandoff {tenant: $tenant, id: $tenant + '-h'}) SET h.status = 'superseded'
             WITH h MATCH (:Run {tenant: $tenant, id: $tenant + '-r4'})-[uses:USES]->(h) DELETE uses
             WITH h MATCH (run:Run {tenant: $tenant, id: $tenant + '-r4'}) REMOVE run.contextHandoffId`,
    rows: [
      {
        providerThreadId: '{tenant}-claude',
        storedCount: 1,
        standingCount: 0,
        storedCoveredThrough: 3,
        coveredThrough: null,
      },
    ],
  },
  {
    invariant: 'supersedes-acyclic',
    cypher: `MATCH (newer:ContextTransfer {tenant: $tenant, id: $tenant + '-tr'})
             CREATE (older:ContextTransfer {tenant: $tenant, id: $tenant + '-tr-older', kind: 'provider_handoff', status: 'superseded'})
             CREATE (newer)-[:SUPERSEDES]->(older), (older)-[:SUPERSEDES]->(newer)`,
    rows: [
      { label: 'ContextTransfer', id: '{tenant}-tr', cycle: ['{tenant}-tr', '{tenant}-tr-older', '{tenant}-tr'] },
      {
        label: 'ContextTransfer',
        id: '{tenant}-tr-older',
        cycle: ['{tenant}-tr-older', '{tenant}-tr', '{tenant}-tr-older'],
      },
    ],
  },
  {
    invariant: 'one-standing-handoff-per-run',
    cypher: `MATCH (run:Run {tenant: $tenant, id: $tenant + '-r4'}) SET run.contextHandoffId = $tenant + '-h-elsewhere'`,
    rows: [
      {
        runId: '{tenant}-r4',
        handoffIds: ['{tenant}-h'],
        problem: 'its contextHandoffId does not name its standing handoff',
      },
      {
        runId: '{tenant}-r4',
        handoffIds: [],
        problem: 'a live run whose contextHandoffId is not a standing handoff written for it',
      },
    ],
  },
  {
    // Rolled back now without the root recording it (its provider thread's ranges do): still live in
    // the fork's segment, which is an hour old, so only the root is wrong, not the fork.
    invariant: 'coverage-excludes-rolled-back',
    cypher: `MATCH (run:Run {tenant: $tenant, id: $tenant + '-r2'}) SET run.status = 'rolled_back', run.rolledBackAt = datetime()
             WITH run MATCH (codex:ProviderThread {tenant: $tenant, id: $tenant + '-codex'}) SET codex.servedFrom = [1, 3], codex.servedTo = [1, 3]`,
    rows: [
      {
        threadId: 'root',
        runId: '{tenant}-r2',
        runStatus: 'rolled_back',
        problem: 'it leaves a rolled-back run out of its rolled-back ranges',
      },
    ],
  },
  {
    invariant: 'deleted-thread-unchanged',
    cypher: `MATCH (root:Thread {tenant: $tenant, id: 'root'}) SET root.deletedAt = datetime() - duration('PT1H')
             WITH root MATCH (run:Run {tenant: $tenant, id: $tenant + '-r4'}) SET run.createdAt = datetime()`,
    rows: [{ threadId: 'root', runningRunId: null, runs: ['{tenant}-r4'] }],
  },
  {
    invariant: 'edges-within-tenant',
    cypher: `MATCH (handoff:ContextHandoff {tenant: $tenant, id: $tenant + '-h'})
             CREATE (handoff)-[:DRAWN_FROM]->(:ProviderThread {tenant: $tenant + '-other', id: $tenant + '-other-pt', threadId: 'root',
                                                               provider: 'codex', seq: 1, status: 'idle'})`,
    rows: [
      {
        type: 'DRAWN_FROM',
        fromId: '{tenant}-h',
        fromTenant: '{tenant}',
        toId: '{tenant}-other-pt',
        toTenant: '{tenant}-other',
      },
    ],
  },
];

let driver: Driver;
let lineages = 0;
beforeAll(() => {
  driver = createDriver(inject('neo4j'));
});
afterAll(async () => {
  await driver?.close();
});

/** Writes the lineage for a new tenant of this file's, lets `use` change and audit it, then rolls everything back. */
async function withLineage<T>(use: (tenant: string, transaction: Transaction) => Promise<T>): Promise<T> {
  const tenant = fileTenant(`l${++lineages}`);
  const session = driver.session({ database: inject('neo4j').database, defaultAccessMode: neo4j.session.WRITE });
  const transaction = session.beginTransaction();
  try {
    await transaction.run(LINEAGE, { tenant });
    return await use(tenant, transaction);
  } finally {
    await transaction.rollback();
    await session.close();
  }
}

const withTenant = (tenant: string, expected: Record<string, unknown>) =>
  JSON.parse(JSON.stringify(expected).replaceAll('{tenant}', tenant)) as Record<string, unknown>;

describe('the invariant audit', () => {
  it('has a deliberate break for every invariant', () => {
    expect(BREAKS.map((entry) => entry.invariant).sort()).toEqual([...AUDIT_INVARIANTS].sort());
  });

  it('finds nothing wrong with the lineage as written', async () => {
    const violations = await withLineage((tenant, transaction) => auditPass(transaction, { tenant }));
    expect(violations).toEqual([]);
  });

  it.each(BREAKS)(
    'reports $invariant, and only it, when it is broken',
    async ({ invariant, cypher: breaking, rows }) => {
      await withLineage(async (tenant, transaction) => {
        await transaction.run(breaking, { tenant });
        const violations = await auditPass(transaction, { tenant });
        expect(new Set(violations.map((violation) => violation.invariant))).toEqual(new Set([invariant]));
        expect(violations.map((violation) => violation.row)).toEqual(
          expect.arrayContaining(rows.map((row) => expect.objectContaining(withTenant(tenant, row)))),
        );
        expect(violations).toHaveLength(rows.length);
      });
    },
  );

  it("reports a tenant's violation to that tenant's audit and the whole graph's, not to another tenant's", async () => {
    await withLineage(async (own, transaction) => {
      const foreign = fileTenant(`l${++lineages}`);
      await transaction.run(LINEAGE, { tenant: foreign });
      const { invariant, cypher: breaking } = BREAKS[0]!;
      await transaction.run(breaking, { tenant: foreign });
      const foreignViolations = await auditPass(transaction, { tenant: foreign }, [invariant]);
      expect(foreignViolations.map((violation) => violation.row.tenant)).toEqual([foreign]);
      expect(await auditPass(transaction, { tenant: own })).toEqual([]);
      expect(await auditPass(transaction, { tenant: null }, [invariant])).toEqual(
        expect.arrayContaining(foreignViolations),
      );
    });
  });

  it('keeps a violation that every confirming pass sees again, and drops one that was gone on the next', async () => {
    await withLineage(async (tenant, transaction) => {
      await transaction.run(BREAKS[0]!.cypher, { tenant });
      const lasting = await confirmedViolations((invariants) => auditPass(transaction, { tenant }, invariants));
      expect(lasting.map((violation) => violation.invariant)).toEqual(['ordinals-unique-gapless']);

      let passes = 0;
      const fleeting = await confirmedViolations(async (invariants) => {
        const seen = await auditPass(transaction, { tenant }, invariants);
        if (passes++ === 0)
          await transaction.run(`MATCH (fork:Thread {tenant: $tenant, id: 'fork'}) SET fork.lastOrdinal = 4`, {
            tenant,
          });
        return seen;
      });
      expect(passes).toBeGreaterThan(1);
      expect(fleeting).toEqual([]);
    });
  });
});
