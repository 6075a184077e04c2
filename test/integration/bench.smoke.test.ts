// Keeps `npm run bench` from rotting: the benchmark end to end at tiny sizes against the test
// Neo4j. No timing is asserted; only that every section is there and the naive baseline agreed.
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { main } from '../../bench/run.js';

describe('npm run bench (smoke)', () => {
  it('runs every section at tiny sizes and the naive baseline agrees with planRun', async () => {
    const neo4j = inject('neo4j');
    const report = await main({
      sizes: [10, 200],
      iterations: 3,
      warmup: 1,
      seconds: 1,
      write: false,
      log: () => undefined,
      neo4j: { uri: neo4j.uri, user: neo4j.user, password: neo4j.password, database: neo4j.database },
    });
    for (const section of ['seeding', 'decisions', 'latency', 'naive', 'summaries', 'dbHits', 'throughput', 'memory', 'machine', 'ratios']) {
      expect(report, section).toHaveProperty(section);
    }
    expect(report.naive.disagreements).toEqual([]);
    expect(report.naive.agreements).toBeGreaterThan(0);
    expect(Object.keys(report.throughput)).toEqual(['1 orchestrator', '4 orchestrators', '16 orchestrators', '16 on one thread']);
    for (const size of [10, 200]) {
      expect(report.seeding[size].runs).toBe(size);
      expect(report.latency[`planRun HTTP ${size} codex (last provider)`].n).toBe(3);
      expect(report.latency[`naive ${size} claude (delta)`].n).toBe(3);
      expect(report.latency[`startRun+completeRun ${size}`].n).toBe(3);
      expect(report.latency[`full summary ${size}`].n).toBe(3);
      expect(report.dbHits[`${size} codex (last provider)`]).toBeGreaterThan(0);
      expect(report.summaries[size].chars).toBeGreaterThan(0);
    }
    expect(report.decisions['200 codex (last provider)']).toMatch(/^NO_HANDOFF\/REUSE/);
    expect(report.decisions['200 claude (delta)']).toMatch(/^DELTA_HANDOFF\/RESUME/);
    expect(report.ratios).toHaveProperty('naiveOverPlanner');
    expect(report.ratios).toHaveProperty('dbHitsLargestOverSmallest');
  }, 240_000);
});
