// Several service instances on one Neo4j. Every path that replaces a handoff (regenerateHandoff on
// any instance, the expiry of a PENDING handoff, a failed summarizer) serializes on the thread's lock
// and re-checks the handoff once it holds it, so no interleaving leaves a run with two standing
// handoffs. The expiry path is called directly here, for the handoffs of this file only: a sweeper
// with a short timeout would also expire other files' pending handoffs, which share the database.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runAudit } from '../../src/graph/audit.js';
import { Graph } from '../../src/graph/transactions.js';
import type { OperationContext } from '../../src/operations/context.js';
import { failAndReplaceWithLocal } from '../../src/operations/handoffSources.js';
import { createThread, runTurns, startRun } from '../support/lineage.js';
import { codeOf, startTestService, type TestService } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

const INSTANCES = 3;
const THREADS = 6;
const ROUNDS = 12;

let instances: TestService[] = [];
beforeAll(async () => {
  instances = await Promise.all(Array.from({ length: INSTANCES }, () => startTestService()));
});
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.close()));
});

function expiryContext(instance: TestService): OperationContext {
  const { config, driver } = instance;
  return {
    graph: new Graph(driver, inject('neo4j').database, '').forTenant(fileTenant()),
    providers: new Map(config.providers.map((provider) => [provider.id, provider])),
    planner: config.planner,
    summaries: { policy: config.summaries, summarizers: new Map() },
  };
}

const REGENERATE = `mutation($id: ID!) { regenerateHandoff(input: { handoffId: $id, source: "leaving" }) { id status } }`;
const RUN_HANDOFF = `query($id: ID!) { run(id: $id) { contextHandoff { id status } } }`;

describe(`${INSTANCES} instances on one Neo4j`, () => {
  it('regenerate racing the expiry of pending handoffs leaves one standing handoff per run', async () => {
    const [first] = instances;
    const runs = await Promise.all(
      Array.from({ length: THREADS }, async () => {
        const threadId = await createThread(first!);
        await runTurns(first!, threadId, 'codex', 1);
        return (await startRun(first!, threadId, 'claude')).run.id as string;
      }),
    );
    const expiry = expiryContext(first!);
    const outcomes: Record<string, number> = {};
    const count = (key: string) => (outcomes[key] = (outcomes[key] ?? 0) + 1);
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(
        runs.map(async (runId, index) => {
          const current = (await first!.ok(RUN_HANDOFF, { id: runId })).run.contextHandoff.id as string;
          const instance = instances[(round + index) % INSTANCES]!;
          const [regenerated, expired] = await Promise.all([
            instance.gql(REGENERATE, { id: current }),
            failAndReplaceWithLocal(expiry.graph, expiry, current, 'not submitted in time (test)', 'expired'),
          ]);
          count(regenerated.errors ? `regenerate ${codeOf(regenerated)}` : 'regenerate OK');
          count(expired ? 'expiry replaced' : 'expiry found it no longer pending');
        }),
      );
    }
    // Both sides won sometimes, and nothing else happened.
    expect(Object.keys(outcomes).sort()).toEqual(expect.arrayContaining(['expiry replaced', 'regenerate OK']));
    expect(
      Object.keys(outcomes).filter(
        (key) =>
          !['regenerate OK', 'regenerate CONFLICT', 'expiry replaced', 'expiry found it no longer pending'].includes(
            key,
          ),
      ),
    ).toEqual([]);

    const { records } = await first!.driver.executeQuery(
      `UNWIND $runs AS runId
       MATCH (handoff:ContextHandoff {tenant: $tenant, targetRunId: runId})
       WHERE handoff.status IN ['pending', 'ready']
       RETURN runId, count(handoff) AS standing`,
      { runs, tenant: fileTenant() },
      { database: inject('neo4j').database },
    );
    expect(records.map((record) => Number(record.get('standing')))).toEqual(runs.map(() => 1));
    const violations = await runAudit(first!.driver, inject('neo4j').database, { tenant: fileTenant() });
    expect(violations.filter((violation) => violation.invariant === 'one-standing-handoff-per-run')).toEqual([]);
  }, 120_000);
});
