// The continuity receipt end to end: a switch writes a handoff whose receipt, read over HTTP, says what
// the covered runs hold at the moment of the handoff and what the text keeps; analysts find the
// handoffs that dropped an unresolved failure with `npm run query -- dropped-unresolved-failures`.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LINEAGE_RULE_PARAMETERS } from '../../src/domain/standing.js';
import { cypher } from '../../src/graph/queries.js';
import { plain, toParameters } from '../../src/graph/values.js';
import { settingsFile, startTestService, type TestService } from '../support/service.js';
import { completeRun, createThread, startRun } from '../support/lineage.js';

const LINE = 'held kept omitted';
const HANDOFF = `query($id: ID!) { contextHandoff(id: $id) { summaryText receipt {
  files { ${LINE} } commands { ${LINE} } failures { ${LINE} } todos { ${LINE} } questions { ${LINE} } } } }`;

const command = (text: string, status: string) => ({ kind: 'COMMAND', text: `${text} (${status})`, key: text, status });
const failure = (text: string, tail: string) => ({
  kind: 'FAILURE',
  text: `Command failed (exit 1): ${text}\n${tail}`,
  key: text,
});
const file = (path: string, change: string, additions: number | null = null) => ({
  kind: 'FILE_CHANGE',
  text: `${path} ${change.toLowerCase()}`,
  file: { path, change, additions, deletions: additions === null ? null : 0 },
});

let t: TestService;
let tight: TestService;
beforeAll(async () => {
  t = await startTestService();
  // claude takes handoffs of at most 700 characters here: too few for every failure of the thread below.
  const claude = {
    id: 'claude',
    displayName: 'Claude (700 characters)',
    capabilities: { maxRecommendedHandoffChars: 700 },
  };
  tight = await startTestService({ THREADLINE_PROVIDERS_FILE: settingsFile({ providers: [claude] }) });
});
afterAll(async () => {
  await t?.close();
  await tight?.close();
});

/** Two codex runs: a file added then deleted, a test failing then fixed, a lint failure left standing. */
async function codexWork(service: TestService, extraFailures = 0): Promise<string> {
  const threadId = await createThread(service, 'receipt');
  const first = await startRun(service, threadId, 'codex', { userMessage: 'Add the CSV export' });
  await completeRun(service, first.run.id, {
    assistantMessage: 'Added it.\n\nShould I add a header row?',
    facts: [
      file('src/export.ts', 'ADDED', 640),
      file('src/scratch.ts', 'ADDED', 12),
      command('npm test', 'exit 1'),
      failure('npm test', `${'collected\n'.repeat(50)}FAILED tests/test_x.py::test_y`),
      command("sed -n '1,80p' src/export.ts", 'exit 0'),
      command('rg -n exportCsv src', 'no match'),
      { kind: 'QUESTION', text: 'Should I add a header row?', key: 'q', status: 'open' },
      { kind: 'PLAN_ITEM', text: 'Old step', key: 'Old step', status: 'in_progress' },
    ],
  });
  const second = await startRun(service, threadId, 'codex', {
    userMessage: "Yes, add a header row. Don't touch the README yet.",
  });
  await completeRun(service, second.run.id, {
    assistantMessage: 'Perfect!\n\n---\n\nThe header row is in; lint still fails on b.ts.',
    facts: [
      file('src/scratch.ts', 'DELETED'),
      {
        kind: 'FILE_CHANGE',
        text: 'docs/csv.md renamed from docs/export.md',
        file: { path: 'docs/csv.md', change: 'RENAMED', additions: 0, deletions: 0, previousPath: 'docs/export.md' },
      },
      command('npm test', 'exit 0'),
      command('make lint', 'exit 2'),
      failure('make lint', 'b.ts:3 unused variable'),
      ...Array.from({ length: extraFailures }, (_, i) => failure(`npm run check-${i}`, `check ${i} broke`)),
      { kind: 'PLAN_ITEM', text: 'Fix the lint error', key: 'Fix the lint error', status: 'pending' },
      { kind: 'PLAN_ITEM', text: 'Write the export', key: 'Write the export', status: 'completed' },
    ],
  });
  return threadId;
}

describe('a renamed file', () => {
  it('keeps its previous path, and only a rename may have one', async () => {
    const threadId = await createThread(t, 'rename');
    const run = await startRun(t, threadId, 'codex');
    const refused = await t.gql(`mutation($input: CompleteRunInput!) { completeRun(input: $input) { id } }`, {
      input: {
        runId: run.run.id,
        facts: [{ kind: 'FILE_CHANGE', text: 'a', file: { path: 'a', change: 'MODIFIED', previousPath: 'b' } }],
      },
    });
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(refused.errors?.[0]?.message).toContain('previousPath');
    await completeRun(t, run.run.id, {
      facts: [{ kind: 'FILE_CHANGE', text: 'b', file: { path: 'b', change: 'RENAMED', previousPath: 'a' } }],
    });
    const read = await t.ok(`query($id: ID!) { run(id: $id) { facts { file { path change previousPath } } } }`, {
      id: run.run.id,
    });
    expect(read.run.facts).toEqual([{ file: { path: 'b', change: 'RENAMED', previousPath: 'a' } }]);
  });
});

describe('the continuity receipt of a switch', () => {
  it('counts what the runs hold at the handoff and what the text keeps', async () => {
    const threadId = await codexWork(t);
    const switched = await startRun(t, threadId, 'claude', { userMessage: 'Go on' });
    const { contextHandoff } = await t.ok(HANDOFF, { id: switched.handoff.id });
    expect(contextHandoff.receipt).toEqual({
      // src/scratch.ts was added, then deleted: deleted. sed and rg explored: not commands.
      files: { held: 3, kept: 3, omitted: [] },
      commands: { held: 2, kept: 2, omitted: [] },
      // npm test failed in run 1 and passed in run 2: fixed, not unresolved.
      failures: { held: 1, kept: 1, omitted: [] },
      todos: { held: 1, kept: 1, omitted: [] },
      // Run 2's user turn answered run 1's question.
      questions: { held: 0, kept: 0, omitted: [] },
    });
    const text: string = contextHandoff.summaryText;
    expect(text).toContain("> Yes, add a header row. Don't touch the README yet.");
    expect(text).toContain('src/export.ts (added, +640/-0)');
    expect(text).toContain('- src/scratch.ts (deleted)');
    expect(text).toContain('- docs/csv.md (renamed from docs/export.md, +0/-0)');
    expect(text).toMatch(/## Unresolved failures\n- Command failed \(exit 1\): make lint: b\.ts:3 unused variable/);
    expect(text).toMatch(
      /## Failures since fixed\n- Command failed \(exit 1\): npm test \(failed in run 1, fixed in run 2\)/,
    );
    expect(text).toContain('→ The header row is in; lint still fails on b.ts.');
    expect(text).toMatch(/2 read-only commands/);
    expect(text).not.toContain('Old step');
  });

  it('names an unresolved failure a tight budget dropped, and the analysts’ query finds the handoff', async () => {
    const threadId = await codexWork(tight, 30);
    const switched = await startRun(tight, threadId, 'claude', { userMessage: 'Go on' });
    const { contextHandoff } = await tight.ok(HANDOFF, { id: switched.handoff.id });
    const failures = contextHandoff.receipt.failures;
    expect(failures.held).toBe(31);
    expect(failures.kept).toBeLessThan(31);
    expect(failures.omitted.length).toBe(Math.min(20, 31 - failures.kept));
    for (const omitted of failures.omitted) expect(contextHandoff.summaryText).not.toContain(omitted);

    const { records } = await tight.driver.executeQuery(
      cypher('analytics/dropped-unresolved-failures'),
      toParameters({
        ...LINEAGE_RULE_PARAMETERS,
        tenant: tight.tenant,
        from: '2000-01-01T00:00:00Z',
        to: '2100-01-01T00:00:00Z',
        limit: 100_000,
      }),
      { database: inject('neo4j').database },
    );
    const rows = records.map((record) => plain(record.toObject()) as Record<string, unknown>);
    const row = rows.find((r) => r.handoffId === switched.handoff.id);
    expect(row).toMatchObject({
      threadId,
      targetRunOrdinal: 3,
      failuresHeld: 31,
      failuresKept: failures.kept,
      omittedFailures: failures.omitted,
    });
    // The roomy handoff of the first test dropped nothing: never listed.
    expect(rows.filter((r) => r.threadId === threadId)).toHaveLength(1);
  });
});
