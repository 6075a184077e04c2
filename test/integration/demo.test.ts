// `npm run demo` (tools/demo.ts) against a real service: what it prints, decision by decision.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../tools/demo.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

const DECISION_LINE = /^ {2}#(\d+(?:-\d+)?) (\S+): ([A-Z_]+) \(([A-Z_]+)[^)]*\)(?: \[([A-Z_, ]+)\])?/;

describe('npm run demo', () => {
  it('replays the design example, staleness, a rollback, a fork with merge-back, a subagent and a resumed blank, printing each decision and viewer URL', async () => {
    const lines: string[] = [];
    const prefix = uniqueId('demo');
    const result = await main({ url: t.service.url, token: t.apiKey, log: (line) => lines.push(line), prefix });
    const output = lines.join('\n');

    const decisions = lines
      .map((line) => DECISION_LINE.exec(line))
      .filter((match) => match !== null)
      .map((match) => `${match[1]} ${match[2]} ${match[3]} ${match[4]}${match[5] ? ` [${match[5]}]` : ''}`);
    expect(decisions).toEqual([
      // 1. the design example
      '1 codex NO_HANDOFF CREATE',
      '2-5 codex NO_HANDOFF REUSE',
      '6 claude FULL_HANDOFF_NEW CREATE',
      '7-8 claude NO_HANDOFF REUSE',
      '9 codex DELTA_HANDOFF RESUME',
      // 2. staleness
      '1 codex NO_HANDOFF CREATE',
      '2 claude FULL_HANDOFF_NEW CREATE',
      '3-22 claude NO_HANDOFF REUSE',
      '23 codex FULL_HANDOFF_NEW CREATE [TOO_MANY_RUNS_ELSEWHERE]',
      '24 codex FULL_HANDOFF_NEW CREATE [CLEAN_CONTEXT_REQUESTED]',
      // 3. rollback
      '1 codex NO_HANDOFF CREATE',
      '2-3 codex NO_HANDOFF REUSE',
      '4 claude FULL_HANDOFF_NEW CREATE',
      '5 claude NO_HANDOFF REUSE',
      '6 codex DELTA_HANDOFF RESUME',
      '7 claude FULL_HANDOFF_NEW CREATE [ROLLED_BACK_OR_DIVERGENT]',
      '8 codex DELTA_HANDOFF RESUME',
      // 4. fork and merge-back
      '1 codex NO_HANDOFF CREATE',
      '2 codex NO_HANDOFF REUSE',
      '3 codex NO_HANDOFF NATIVE_FORK',
      '3 codex NO_HANDOFF REUSE',
      // 5. subagent
      '1 codex NO_HANDOFF CREATE',
      '2 codex NO_HANDOFF REUSE',
      '1 claude NO_HANDOFF CREATE',
      '3 claude FULL_HANDOFF_NEW CREATE',
      // 6. a resumed blank: the delta planned at run 4 becomes a full summary into a new provider thread
      '1 codex NO_HANDOFF CREATE',
      '2 codex NO_HANDOFF REUSE',
      '3 claude FULL_HANDOFF_NEW CREATE',
      '4 codex DELTA_HANDOFF RESUME',
      '4 codex FULL_HANDOFF_NEW CREATE [RESUME_FAILED]',
    ]);
    expect(output).toMatch(/resumedBlank true, pt_\S+ RESUME_FAILED/);
    expect(output).toMatch(/the blank session's late completion: STALE_DISPATCH: /);

    // Every decision comes with its reasons, one per line below it.
    lines.forEach((line, index) => {
      if (DECISION_LINE.test(line)) expect(lines[index + 1], `reasons of "${line}"`).toMatch(/^ {6}- \S/);
    });
    expect(output).toContain('#6 claude: FULL_HANDOFF_NEW (CREATE FULL_THREAD_SUMMARY 1-5)');
    expect(output).toContain('#9 codex: DELTA_HANDOFF (RESUME DELTA_SINCE_TARGET_LAST_SEEN 6-8)');
    expect(output).toMatch(/is resumed with a delta covering runs 6-8, which it missed\./);
    expect(output).toMatch(/missed more than 20 live runs since it last served one\./);
    expect(output).toContain('- A clean context was requested.');

    // The rollback: what was rolled back, which provider thread rolls back natively and which diverges.
    expect(output).toContain(
      'rollbackThread to 3: head 3, runs 4, 5, 6 rolled back, 2 handoff(s) withdrawn (1-3, 4-5)',
    );
    expect(output).toMatch(
      / {4}codex pt_\S+: ROLLED_BACK \(drop 1 native turn\(s\) of codex-native-\w+, back to run 3\)/,
    );
    expect(output).toMatch(/ {4}confirmProviderRollback pt_\S+: IDLE/);
    expect(output).toMatch(/ {4}claude pt_\S+: DIVERGENT/);

    // Fork, merge-back and subagent steps, with the context each run took in.
    expect(output).toContain(`forkThread from run 2: ${prefix}-fork`);
    expect(output).toContain('mergeBack: MERGE_BACK PENDING, fork runs 3-3 offered to the source');
    expect(output).toContain('#3 codex: NO_HANDOFF (REUSE), with a FORK_DELTA_SUMMARY handoff of runs 3-3');
    expect(output).toContain(`spawnSubagent during run 2: ${prefix}-subagent`);
    expect(output).toContain('#1 claude: NO_HANDOFF (CREATE), with a MANUAL_CONTEXT handoff');
    expect(output).toContain('completeSubagent: SUBAGENT_RESULT CONSUMED, returned to run 2 as MANUAL_CONTEXT');

    // The viewer URL of each thread, which the service serves.
    const origin = new URL(t.service.url).origin;
    const urls = lines.filter((line) => line.startsWith('  viewer: ')).map((line) => line.slice('  viewer: '.length));
    const roles = ['design', 'staleness', 'rollback', 'source', 'fork', 'parent', 'subagent', 'blank'];
    expect(urls).toEqual(roles.map((role) => `${origin}/lineage/${prefix}-${role}`));
    expect(Object.keys(result.threads)).toEqual(roles);
    expect(Object.values(result.viewerUrls)).toEqual(urls);
    for (const url of urls) expect((await fetch(url)).status).toBe(200);

    // And the graph says what was printed.
    const rollback = (
      await t.ok(
        `query($id: ID!) { thread(id: $id) { headOrdinal providerThreads { provider status } runs { edges { node { ordinal status } } } } }`,
        { id: result.threads.rollback },
      )
    ).thread;
    expect(rollback.providerThreads).toEqual([
      { provider: 'codex', status: 'IDLE' },
      { provider: 'claude', status: 'DIVERGENT' },
      { provider: 'claude', status: 'IDLE' },
    ]);
    expect(rollback.runs.edges.map((edge: any) => edge.node.status)).toEqual([
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
      'ROLLED_BACK',
      'ROLLED_BACK',
      'ROLLED_BACK',
      'COMPLETED',
      'COMPLETED',
    ]);
    const staleness = (
      await t.ok(`query($id: ID!) { thread(id: $id) { providerThreads { provider status } } }`, {
        id: result.threads.staleness,
      })
    ).thread;
    expect(staleness.providerThreads.map((pt: any) => `${pt.provider} ${pt.status}`)).toEqual([
      'codex STALE',
      'claude IDLE',
      'codex STALE',
      'codex IDLE',
    ]);
  }, 300_000);
});
