// The local summarizer end to end: handoff text built from the graph's facts, with its rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFile, startTestService, type TestService } from '../support/service.js';
import { completeRun, createThread, plan, runTurns, startRun } from '../support/lineage.js';

/** A service on the test Neo4j whose codex takes handoffs of at most `chars` characters. */
async function serviceWithCodexBudget(chars: number): Promise<TestService> {
  const codex = {
    id: 'codex',
    displayName: `Codex (${chars} characters)`,
    capabilities: { maxRecommendedHandoffChars: chars },
  };
  return startTestService({ THREADLINE_PROVIDERS_FILE: settingsFile({ providers: [codex] }) });
}

let t: TestService;
beforeAll(async () => {
  // codex with a small budget, to see the cap at work through the API.
  t = await serviceWithCodexBudget(1500);
});
afterAll(async () => {
  await t?.close();
});

describe('handoff text from the local summarizer', () => {
  it('keeps what matters and leaves out what must never cross', async () => {
    const threadId = await createThread(t, 'parser rewrite');
    const first = await startRun(t, threadId, 'codex', { userMessage: 'Rewrite the parser to stream' });
    await completeRun(t, first.run.id, {
      facts: [
        { kind: 'GOAL', text: 'Stream large files without loading them' },
        { kind: 'CONSTRAINT', text: 'No new dependencies' },
        { kind: 'TEST', text: 'npm test: 4 failing', key: 'npm test', status: 'failed' },
        { kind: 'QUESTION', text: 'Keep the old API?', key: 'q-api', status: 'open' },
        { kind: 'APPROVAL_REQUEST', text: 'Delete legacy reader', key: 'a-delete', status: 'open' },
        { kind: 'PLAN_ITEM', text: 'Write the tokenizer', key: 'p1', status: 'pending' },
        { kind: 'REASONING', text: 'SECRET-CHAIN-OF-THOUGHT' },
        { kind: 'PROTOCOL', text: 'PROTOCOL-NOISE-FRAME' },
        { kind: 'TOOL_OUTPUT', text: 'RAW-TOOL-OUTPUT-DUMP' },
      ],
      checkpoint: {
        ref: 'c0ffee1',
        diffSummary: 'parser split in two',
        files: [{ path: 'src/stream.ts', change: 'ADDED', additions: 120, deletions: 0 }],
      },
    });
    const second = await startRun(t, threadId, 'codex', { userMessage: 'Fix the failing tests' });
    await completeRun(t, second.run.id, {
      facts: [
        { kind: 'TEST', text: 'npm test: all green', key: 'npm test', status: 'passed' },
        { kind: 'QUESTION', text: 'Keep the old API?', key: 'q-api', status: 'answered' },
        { kind: 'PLAN_ITEM', text: 'Write the tokenizer', key: 'p1', status: 'done' },
        { kind: 'DECISION', text: 'Drop the legacy reader' },
      ],
    });
    const handoff = (await runTurns(t, threadId, 'claude', 1)).handoff;
    const text: string = handoff.summaryText;
    expect(text).toContain('Stream large files without loading them');
    expect(text).toContain('No new dependencies');
    expect(text).toContain('Drop the legacy reader');
    expect(text).toContain('npm test → all green');
    expect(text).not.toContain('4 failing');
    expect(text).toContain('Delete legacy reader');
    const openSection = text.split('## Open approvals and questions')[1]?.split('\n## ')[0] ?? '';
    expect(openSection).not.toContain('Keep the old API?');
    expect(text).not.toMatch(/Write the tokenizer/);
    expect(text).toContain('src/stream.ts');
    expect(text).toContain('c0ffee1');
    for (const hidden of ['SECRET-CHAIN-OF-THOUGHT', 'PROTOCOL-NOISE-FRAME', 'RAW-TOOL-OUTPUT-DUMP'])
      expect(text).not.toContain(hidden);
    expect(text).toMatch(/Covers runs 1-2/);
    expect(text).toContain('codex');

    // Same graph, same text: planning the same handoff again renders byte-identical output.
    const again = await t.ok(`query($id: ID!) { contextHandoff(id: $id) { summaryText } }`, { id: handoff.id });
    expect(again.contextHandoff.summaryText).toBe(text);
  });

  it('never exceeds the target budget, shrinking the oldest run lines first', async () => {
    const threadId = await createThread(t, 'long thread');
    for (let i = 1; i <= 30; i++) {
      const run = await startRun(t, threadId, 'claude', {
        userMessage: `Step ${i}: ${'refactor the module carefully '.repeat(4)}`,
      });
      await completeRun(t, run.run.id, {
        assistantMessage: `Finished step ${i} ${'with details '.repeat(5)}`,
        facts: i === 1 ? [{ kind: 'GOAL', text: 'Ship the refactor' }] : [],
      });
    }
    const handoff = (await runTurns(t, threadId, 'codex', 1)).handoff;
    expect(handoff.summaryText.length).toBeLessThanOrEqual(1500);
    expect(handoff.summaryText).toContain('Ship the refactor');
    expect(handoff.summaryText).toMatch(/^- 1 · claude$/m);
    expect(handoff.summaryText).toMatch(/^- 30 · claude · user: Step 30/m);
    expect((await plan(t, threadId, 'codex')).decision).toBe('NO_HANDOFF');
  });
});

describe('typed file changes', () => {
  const COMPLETE = `mutation($input: CompleteRunInput!) { completeRun(input: $input) { facts { kind key status file { path change additions deletions } } } }`;

  it('are stored typed, read back with key and status filled for older clients, and summed per path', async () => {
    const threadId = await createThread(t);
    const first = await startRun(t, threadId, 'claude');
    const written = (
      await t.ok(COMPLETE, {
        input: {
          runId: first.run.id,
          facts: [
            {
              kind: 'FILE_CHANGE',
              text: 'Added the CSV parser',
              file: { path: 'src/csv/parse.ts', change: 'ADDED', additions: 140 },
            },
          ],
        },
      })
    ).completeRun;
    expect(written.facts).toEqual([
      {
        kind: 'FILE_CHANGE',
        key: 'src/csv/parse.ts',
        status: 'added',
        file: { path: 'src/csv/parse.ts', change: 'ADDED', additions: 140, deletions: null },
      },
    ]);
    const second = await startRun(t, threadId, 'claude');
    await t.ok(COMPLETE, {
      input: {
        runId: second.run.id,
        facts: [
          {
            kind: 'FILE_CHANGE',
            text: 'Handled quoted fields',
            file: { path: './src/csv/parse.ts', change: 'MODIFIED', additions: 12, deletions: 3 },
          },
          // An untyped one, the form older clients send: path in key, change in status.
          { kind: 'FILE_CHANGE', text: 'Parser tests', key: 'test/parse.test.ts', status: 'added' },
        ],
      },
    });
    const handoff = await startRun(t, threadId, 'codex');
    const text: string = handoff.handoff.summaryText;
    expect(text.match(/src\/csv\/parse\.ts/g)).toHaveLength(1);
    expect(text).toContain('- src/csv/parse.ts (added, +152/-3)');
    expect(text).toContain('- test/parse.test.ts (added)');
    expect(text).not.toContain('?');
  });

  it('refuses a file on a fact that is not a FILE_CHANGE, and a negative count', async () => {
    const threadId = await createThread(t);
    const run = await startRun(t, threadId, 'claude');
    for (const fact of [
      { kind: 'NOTE', text: 'n', file: { path: 'a.ts', change: 'ADDED' } },
      { kind: 'FILE_CHANGE', text: 'n', file: { path: 'a.ts', change: 'ADDED', deletions: -1 } },
    ]) {
      const refused = await t.gql(COMPLETE, { input: { runId: run.run.id, facts: [fact] } });
      expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    expect((await t.ok(`query($id: ID!) { run(id: $id) { status facts { kind } } }`, { id: run.run.id })).run).toEqual({
      status: 'RUNNING',
      facts: [],
    });
  });
});

describe('facts of rolled-back runs', () => {
  it('never crowd a live fact out of a summary: the fact limit applies to live runs only', async () => {
    const threadId = await createThread(t);
    const first = await startRun(t, threadId, 'claude');
    await completeRun(t, first.run.id, { facts: [{ kind: 'DECISION', text: 'Keep the streaming parser' }] });
    // Two runs with more facts than the summary reads for codex's 1500-character budget, then rolled back.
    for (let run = 2; run <= 3; run++) {
      const started = await startRun(t, threadId, 'claude');
      await completeRun(t, started.run.id, {
        facts: Array.from({ length: 300 }, (_, index) => ({
          kind: 'DECISION',
          text: `Withdrawn decision ${run}.${index}`,
        })),
      });
    }
    await t.ok(
      `mutation { rollbackThread(input: { threadId: "${threadId}", toOrdinal: 1 }) { thread { headOrdinal } } }`,
    );
    const codex = await startRun(t, threadId, 'codex');
    expect(codex.handoff.coveredRunOrdinals).toEqual({ from: 1, to: 1 });
    const text: string = codex.handoff.summaryText;
    expect(text).toContain('Keep the streaming parser');
    expect(text).not.toContain('Withdrawn decision');
    expect(text).not.toMatch(/not listed/);
  });
});

describe('a full summary of a long thread', () => {
  let wide: TestService;
  beforeAll(async () => {
    // Budget for about 1,700 runs' worth of reading (20,000 / 12), where a run's note takes 150.
    wide = await serviceWithCodexBudget(20_000);
  });
  afterAll(async () => {
    await wide?.close();
  });

  it('reads the newest runs until its budget is full, and says how many earlier runs it did not load', async () => {
    const threadId = await createThread(wide, 'long notes');
    const IMPORT = `mutation($input: ImportRunsInput!) { importRuns(input: $input) { runs { ordinal } } }`;
    const note = (n: number) =>
      `Note ${n}: ${'the parser keeps its state between chunks so a quoted field may span them; '.repeat(2)}`;
    for (let batch = 0; batch < 4; batch++) {
      const runs = Array.from({ length: 100 }, (_, index) => {
        const n = batch * 100 + index + 1;
        const at = new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();
        return {
          sourceKey: `turn-${n}`,
          startedAt: at,
          completedAt: at,
          status: 'COMPLETED',
          userMessage: `Step ${n}`,
          assistantMessage: `Did step ${n}`,
          facts: [{ kind: 'NOTE', text: note(n) }],
        };
      });
      await wide.ok(IMPORT, {
        input: { threadId, providerThread: { provider: 'claude', nativeThreadRef: `session-${threadId}` }, runs },
      });
    }
    const codex = await startRun(wide, threadId, 'codex');
    expect(codex.plan.handoffStrategy).toBe('FULL_THREAD_SUMMARY');
    expect(codex.handoff.coveredRunOrdinals).toEqual({ from: 1, to: 400 });
    const text: string = codex.handoff.summaryText;
    expect(text.length).toBeLessThanOrEqual(20_000);
    expect(text).not.toContain('[summary cut');
    // The 400 runs' notes need 60,000 characters: reading the newest runs fills the budget long
    // before the oldest, which the text says it did not load rather than leaving them unsaid.
    const leftOut = /^- 400 earlier runs left out to fit the budget \((\d+) of them not loaded\)$/m.exec(text);
    expect(leftOut).not.toBeNull();
    expect(Number(leftOut![1])).toBeGreaterThan(0);
    expect(text).toContain('Note 400:');
    expect(text).not.toContain('Note 1:');
  });
});
