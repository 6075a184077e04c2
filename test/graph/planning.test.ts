// The planner's snapshot (cypher/planner/snapshot.cypher, src/graph/repositories/planning.ts) on the
// real graph: a plan reads the thread's rolled-back ranges by their ends, and what it reads is the
// whole set's ends and totals; startRun's locked snapshot (planner/locked-snapshot.cypher) reads what
// the plain one reads whole, with the thread as seen under its lock.
import type { Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_PLANNER_SETTINGS, rolledBackEndsRead } from '../../src/domain/planner.js';
import { endsOf } from '../../src/domain/ranges.js';
import { createDriver } from '../../src/graph/driver.js';
import { lockAndLoadPlanningSnapshot, loadPlanningSnapshot } from '../../src/graph/repositories/planning.js';
import { createThread } from '../../src/graph/repositories/threads.js';
import { Graph } from '../../src/graph/transactions.js';
import { uniqueId } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

let driver: Driver;
let graph: Graph;
let tenant: string;

beforeAll(() => {
  const neo4j = inject('neo4j');
  driver = createDriver(neo4j);
  tenant = fileTenant();
  graph = new Graph(driver, neo4j.database, tenant);
});
afterAll(async () => {
  await driver?.close();
});

/** A thread whose history holds `ranges` rolled-back ranges of two ordinals, ten apart; its runs are not written. */
async function threadRolledBack(ranges: number): Promise<{ id: string; rolledBack: { from: number; to: number }[] }> {
  const id = uniqueId('thread');
  const rolledBack = Array.from({ length: ranges }, (_, i) => ({ from: 10 * i + 9, to: 10 * i + 10 }));
  await graph.write((tx) => createThread(tx, id, null, null));
  await driver.executeQuery(
    `MATCH (thread:Thread {tenant: $tenant, id: $id})
     SET thread.rolledBackFrom = $from, thread.rolledBackTo = $to, thread.lastOrdinal = $last, thread.headOrdinal = $last - 2`,
    { tenant, id, from: rolledBack.map((r) => r.from), to: rolledBack.map((r) => r.to), last: 10 * ranges + 10 },
  );
  return { id, rolledBack };
}

async function removeThread(id: string): Promise<void> {
  await driver.executeQuery('MATCH (thread:Thread {tenant: $tenant, id: $id}) DETACH DELETE thread', { tenant, id });
}

describe('the planning snapshot', () => {
  const ends = rolledBackEndsRead(DEFAULT_PLANNER_SETTINGS);
  const load = (id: string, read: typeof ends | null) =>
    graph.read((tx) => loadPlanningSnapshot(tx, id, 'codex', DEFAULT_PLANNER_SETTINGS.maxRunsElsewhere + 1, read));

  it('reads a long history by its ends: the lowest and highest ranges, and the totals of all', async () => {
    const { id, rolledBack } = await threadRolledBack(40);
    try {
      const byEnds = (await load(id, ends))?.snapshot.rolledBack;
      expect(byEnds).toEqual({
        lowest: rolledBack.slice(0, ends.lowest),
        highest: rolledBack.slice(-ends.highest),
        rangeCount: 40,
        ordinalCount: 80,
      });
      // The thread's own ranges are the highest: all a delta can meet.
      expect((await load(id, ends))?.thread.rolledBack).toEqual(rolledBack.slice(-ends.highest));
      const whole = await load(id, null);
      expect(whole?.snapshot.rolledBack).toEqual(endsOf(rolledBack));
      expect(whole?.thread.rolledBack).toEqual(rolledBack);
    } finally {
      await removeThread(id);
    }
  });

  it('reads a short history whole either way', async () => {
    const { id, rolledBack } = await threadRolledBack(3);
    try {
      expect((await load(id, ends))?.snapshot.rolledBack).toEqual({
        lowest: rolledBack,
        highest: rolledBack,
        rangeCount: 3,
        ordinalCount: 6,
      });
    } finally {
      await removeThread(id);
    }
  });

  it('reads under the lock what it reads whole without, and the thread with its running run', async () => {
    const { id } = await threadRolledBack(3);
    const window = DEFAULT_PLANNER_SETTINGS.maxRunsElsewhere + 1;
    try {
      await driver.executeQuery('MATCH (thread:Thread {tenant: $tenant, id: $id}) SET thread.runningRunId = $run', {
        tenant,
        id,
        run: 'run-in-flight',
      });
      const locked = await graph.write((tx) => lockAndLoadPlanningSnapshot(tx, id, 'codex', window));
      const whole = await load(id, null);
      expect(whole?.thread.rolledBack).toHaveLength(3);
      expect({ ...locked, thread: null }).toEqual({ ...whole, thread: null });
      expect(locked?.thread).toEqual({ ...whole?.thread, runningRunId: 'run-in-flight' });
      expect(
        await graph.write((tx) => lockAndLoadPlanningSnapshot(tx, uniqueId('thread'), 'codex', window)),
      ).toBeNull();
    } finally {
      await removeThread(id);
    }
  });
});
