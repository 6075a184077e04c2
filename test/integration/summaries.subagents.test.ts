// Issue 26 item 2: a subagent's work is the work of the run that spawned it. The handoff of the main
// thread lists the files, commands and unresolved failures of its imported SUBAGENT children, told
// as the spawning run's; a subagent of another thread, or of a run outside the range, adds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueId, type TestService } from '../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

const IMPORT_RUNS = `mutation($input: ImportRunsInput!) { importRuns(input: $input) { runs { id ordinal } } }`;
const IMPORT_SUBAGENT = `mutation($input: ImportSubagentThreadInput!) { importSubagentThread(input: $input) { id } }`;
const PREVIEW = `query($input: PlanRunInput!) { previewRun(input: $input) { context } }`;

const run = (key: string, startedAt: string, facts: unknown[] = []) => ({
  sourceKey: key,
  sourceId: uniqueId('record'),
  startedAt,
  status: 'COMPLETED',
  userMessage: `turn ${key}`,
  assistantMessage: `answer ${key}`,
  facts,
});

async function thread(runs: ReturnType<typeof run>[], provider = 'codex'): Promise<string> {
  const id = (await t.ok(`mutation { createThread(input: { title: "main" }) { id } }`)).createThread.id as string;
  await t.ok(IMPORT_RUNS, {
    input: { threadId: id, providerThread: { provider, nativeThreadRef: uniqueId('session') }, runs },
  });
  return id;
}

async function subagent(parentThreadId: string, parentRunOrdinal: number, facts: unknown[]): Promise<void> {
  const id = uniqueId('subagent');
  await t.ok(IMPORT_SUBAGENT, { input: { parentThreadId, parentRunOrdinal, id, task: 'write the bench script' } });
  await t.ok(IMPORT_RUNS, {
    input: {
      threadId: id,
      providerThread: { provider: 'codex', nativeThreadRef: uniqueId('agent') },
      runs: [run('a', '2025-03-01T09:11:00Z', facts)],
    },
  });
}

describe('the handoff of a thread with subagents', () => {
  it('tells their files, commands and unresolved failures as the spawning run’s', async () => {
    const main = await thread([run('1', '2025-03-01T09:00:00Z'), run('2', '2025-03-01T09:10:00Z')]);
    const bench = `scripts/${uniqueId('bench')}.sh`;
    await subagent(main, 2, [
      {
        kind: 'FILE_CHANGE',
        text: `${bench} added`,
        file: { path: bench, change: 'ADDED', additions: 12, deletions: 0 },
      },
      { kind: 'COMMAND', text: `bash -n ${bench} (exit 0)`, key: `bash -n ${bench}`, status: 'exit 0' },
      {
        kind: 'FAILURE',
        text: 'Command failed (exit 1): hyperfine --runs 5\nhyperfine: not found',
        key: 'hyperfine --runs 5',
      },
      { kind: 'NOTE', text: 'SUBAGENT_PRIVATE_NOTE' },
    ]);
    // Another thread's subagent is not this thread's work.
    const other = await thread([run('1', '2025-03-01T09:00:00Z')]);
    await subagent(other, 1, [{ kind: 'FILE_CHANGE', text: 'x', file: { path: 'OTHER_THREAD.md', change: 'ADDED' } }]);

    const context = (await t.ok(PREVIEW, { input: { threadId: main, provider: 'claude' } })).previewRun
      .context as string;
    expect(context).toContain(`- ${bench} (added, +12/-0)`);
    expect(context).toMatch(new RegExp(`bash -n ${bench.replace(/[.]/g, '\\.')} → exit 0 \\(run 2\\)`));
    expect(context).toMatch(/## Unresolved failures\n[^#]*hyperfine --runs 5[^\n]*not found \(run 2\)/);
    expect(context).not.toContain('SUBAGENT_PRIVATE_NOTE');
    expect(context).not.toContain('OTHER_THREAD.md');
  });

  it('a delta since the target’s last run holds them too', async () => {
    const main = await thread([run('1', '2025-03-01T09:00:00Z')], 'claude');
    await t.ok(IMPORT_RUNS, {
      input: {
        threadId: main,
        providerThread: { provider: 'codex', nativeThreadRef: uniqueId('session') },
        runs: [run('2', '2025-03-01T09:10:00Z')],
      },
    });
    const doc = `docs/${uniqueId('guide')}.md`;
    await subagent(main, 2, [
      { kind: 'FILE_CHANGE', text: `${doc} added`, file: { path: doc, change: 'ADDED', additions: 3, deletions: 0 } },
    ]);
    const context = (await t.ok(PREVIEW, { input: { threadId: main, provider: 'claude' } })).previewRun
      .context as string;
    expect(context).toMatch(/^Strategy: delta/m);
    expect(context).toContain(`- ${doc} (added, +3/-0)`);
  });
});
