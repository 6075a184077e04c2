// Keeps `npm run bench` from rotting: the benchmark end to end at tiny sizes against the test
// Neo4j. No timing is asserted; only that every section is there, every case ran every iteration
// and the naive baseline agreed.
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { main } from '../../bench/run.js';
import { OP } from '../../bench/product.js';
import { productTargets } from '../../bench/report.js';
import { rateSpreads, RATE_CHECK_MIN_RUNS, simulateSeed } from '../../bench/seed.js';
import { loadConfig } from '../../src/config.js';

const SIZES = [10, 200];
const ITERATIONS = 3;

describe('npm run bench (smoke)', () => {
  it('runs every section at tiny sizes and the naive baseline agrees with planRun', async () => {
    const neo4j = inject('neo4j');
    const report = await main({
      sizes: SIZES,
      iterations: ITERATIONS,
      warmup: 1,
      seconds: 1,
      write: false,
      log: () => undefined,
      neo4j: { uri: neo4j.uri, user: neo4j.user, password: neo4j.password, database: neo4j.database },
    });
    for (const section of [
      'seeding',
      'decisions',
      'latency',
      'naive',
      'summaries',
      'dbHits',
      'throughput',
      'memory',
      'machine',
      'ratios',
      'product',
    ]) {
      expect(report, section).toHaveProperty(section);
    }
    expect(report.naive.disagreements).toEqual([]);
    expect(report.naive.agreements).toBeGreaterThan(0);
    expect(Object.keys(report.throughput)).toEqual([
      '1 orchestrator',
      '4 orchestrators',
      '16 orchestrators',
      '16 on one thread',
    ]);
    for (const [name, figures] of Object.entries(report.latency)) {
      expect(figures.errors, name).toBeUndefined();
      expect(figures.n, name).toBe(ITERATIONS);
    }
    // The read thread of 200 runs already switches and rolls back as every size does.
    expect(report.seeding[200]!.rates.switches).toBeGreaterThan(20);
    expect(report.seeding[200]!.rollbacks).toBeGreaterThan(0);
    // And forks and spawns subagents: the bench's cases run beside those child threads.
    expect(report.seeding[200]!.forks).toBeGreaterThan(0);
    expect(report.seeding[200]!.subagents).toBeGreaterThan(0);
    for (const size of SIZES) {
      expect(report.seeding[size]!.runs).toBe(size);
      expect(report.latency[`planRun HTTP ${size} codex (last provider)`]).toBeDefined();
      expect(report.latency[`naive ${size} claude (delta)`]).toBeDefined();
      expect(report.latency[`full summary ${size}`]).toBeDefined();
      expect(report.dbHits[`${size} codex (last provider)`]).toBeGreaterThan(0);
      expect(report.summaries[size]!.chars).toBeGreaterThan(0);
    }
    expect(report.decisions['200 codex (last provider)']).toMatch(/^NO_HANDOFF\/REUSE/);
    expect(report.decisions['200 claude (delta)']).toMatch(/^DELTA_HANDOFF\/RESUME/);
    expect(report.ratios).toHaveProperty('naiveOverPlanner');
    expect(report.ratios).toHaveProperty('dbHitsLargestOverReference');

    const product = report.product;
    expect(product.operations.map((operation) => operation.id)).toEqual(Object.keys(OP));
    for (const operation of product.operations) {
      expect(operation.errors, operation.name).toBeNull();
      for (const size of SIZES) expect(operation.bySize[size]?.n, `${operation.name} at ${size}`).toBe(ITERATIONS);
      expect(operation.ratio, operation.name).toBeGreaterThan(0);
    }
    for (const size of SIZES) {
      expect(product.sanity[`${size} NO_HANDOFF`]).toMatch(
        /^NO_HANDOFF\/REUSE.*after a round and its restore: NO_HANDOFF\/REUSE/,
      );
      expect(product.sanity[`${size} DELTA_HANDOFF`]).toMatch(
        /^DELTA_HANDOFF\/RESUME.*after a round and its restore: DELTA_HANDOFF\/RESUME/,
      );
      expect(product.sanity[`${size} FULL_HANDOFF_NEW`]).toMatch(
        /^FULL_HANDOFF_NEW\/CREATE.*after a round and its restore: FULL_HANDOFF_NEW\/CREATE/,
      );
      expect(product.sanity[`${size} FULL_HANDOFF_EXISTING`]).toMatch(
        /^FULL_HANDOFF_EXISTING\/RESUME.*after a round and its restore: FULL_HANDOFF_EXISTING\/RESUME/,
      );
      expect(product.earlyRollback.msPer1000RolledBackRuns[size]).toBeGreaterThan(0);
    }
    expect(product.footprint.bySize.map((entry) => entry.size)).toEqual(SIZES);
    for (const entry of product.footprint.bySize) {
      expect(entry.relationshipsPerRun).toBeGreaterThan(1);
      // The test Neo4j is not one the bench booted: no store of its own to measure.
      expect(entry.storeBytes).toBeNull();
      expect(entry.txLogBytes).toBeNull();
    }
    const targets = productTargets(product);
    expect(targets.find((target) => target.name.startsWith('store bytes per run'))?.status).toBe('not measured');
    expect(targets.filter((target) => target.status === 'not measured')).toHaveLength(1);
  }, 360_000);
});

describe("the bench seed's rates", () => {
  it('switch, hand off, create provider threads, roll back, fork and spawn subagents per 1,000 runs alike at every size', async () => {
    const { providers, planner } = loadConfig({ PORT: '0' });
    const sizes = [RATE_CHECK_MIN_RUNS, 3 * RATE_CHECK_MIN_RUNS];
    const seeding = Object.fromEntries(
      await Promise.all(
        sizes.map(async (size) => [size, await simulateSeed({ threadId: `rates-${size}`, size, providers, planner })]),
      ),
    );
    expect(rateSpreads(seeding)).toEqual([]);
    const [small, large] = [seeding[sizes[0]!]!, seeding[sizes[1]!]!];
    // Linear, as in use: about 40 switches per 1,000 runs, not fewer as the thread grows.
    expect(small.rates.switches).toBeGreaterThan(30);
    expect(large.providerThreads / small.providerThreads).toBeGreaterThan(2.7);
    expect(large.handoffs / small.handoffs).toBeGreaterThan(2.7);
    expect(large.rollbacks / small.rollbacks).toBeGreaterThan(2.7);
    // Forks (some merged back) and subagents with runs of their own, as often at every size.
    expect(small.rates.forks).toBeGreaterThan(2);
    expect(small.rates.mergeBacks).toBeGreaterThan(0);
    expect(small.rates.subagents).toBeGreaterThan(20);
    expect(small.forkRuns).toBeGreaterThan(3 * small.forks);
    expect(small.subagentRuns).toBeGreaterThan(small.subagents);
    for (const events of ['forks', 'forkRuns', 'mergeBacks', 'subagents', 'subagentRuns'] as const)
      expect(large[events] / small[events], events).toBeGreaterThan(2.7);
    // And the check fails a seed whose rates drift apart.
    const drifted = {
      ...large,
      rates: { ...large.rates, handoffs: large.rates.handoffs * 0.8, forks: large.rates.forks * 1.2 },
    };
    expect(rateSpreads({ [sizes[0]!]: small, [sizes[1]!]: drifted })).toEqual([
      expect.stringMatching(/^handoffs/),
      expect.stringMatching(/^forks/),
    ]);
  }, 120_000);
});
