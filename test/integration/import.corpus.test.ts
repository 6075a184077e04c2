// Issue 26, every format era through the service: corpus cases (test/fixtures/sessions/corpus/)
// imported with `npm run import` as a child process, then what a run on a provider would be given
// (previewRun): subagents in threads of their own, a return resuming the main session, turns a resume
// copied stored once, new record types counted, a clock that ran backwards clamped, not refused.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/graph/projectRoot.js';
import type { ImportSummary } from '../../tools/import.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

const execFileAsync = promisify(execFile);
const CORPUS = join(projectRoot(), 'test/fixtures/sessions/corpus');

const tenant = { key: uniqueId('corpus-key'), tenant: fileTenant() };
/** Imports file by file, apart from the corpus cases that import a whole folder. */
const single = { key: uniqueId('single-key'), tenant: fileTenant('single') };
/** Corpus cases changed on purpose, in a tenant of their own. */
const changed = { key: uniqueId('changed-key'), tenant: fileTenant('changed') };

let t: TestService;
beforeAll(async () => {
  t = await startTestService({
    THREADLINE_API_KEYS: `${tenant.key}=${tenant.tenant},${single.key}=${single.tenant},${changed.key}=${changed.tenant}`,
  });
});
afterAll(async () => {
  await t?.close();
});

async function importCase(name: string, key = tenant.key): Promise<ImportSummary> {
  const { stdout } = await execFileAsync(
    'npm',
    ['run', '--silent', 'import', '--', '--json', '--token', key, '--url', t.service.url, resolve(CORPUS, name)],
    { cwd: projectRoot(), timeout: 120_000 },
  );
  return JSON.parse(stdout) as ImportSummary;
}

const PREVIEW = `query($input: PlanRunInput!) { previewRun(input: $input) {
  providerThreadAction nativeThreadRef context plan { decision }
} }`;

async function preview(threadId: string, provider: string) {
  return (await t.ok(PREVIEW, { input: { threadId, provider } }, tenant.key)).previewRun;
}

async function userMessages(threadId: string, key = tenant.key): Promise<string[]> {
  const { thread } = await t.ok(
    `query($id: ID!) { thread(id: $id) { runs(first: 100) { edges { node { userMessage } } } } }`,
    { id: threadId },
    key,
  );
  return thread.runs.edges.map((edge: { node: { userMessage: string } }) => edge.node.userMessage);
}

/**
 * Each subagent thread's place: a SUBAGENT child of the main session's thread, at the ordinal of the
 * main run current when it started, its task transfer consumed (never delivered again).
 */
async function subagentLinks(
  summary: ImportSummary,
  key = tenant.key,
): Promise<[string | null, number | null, string][]> {
  const main = summary.threads.find((thread) => thread.subagentOf === null)!;
  const links: [string | null, number | null, string][] = [];
  for (const thread of summary.threads.filter((t) => t.subagentOf !== null)) {
    const { thread: stored } = await t.ok(
      `query($id: ID!) { thread(id: $id) {
        lineage { parent { id } relationshipToParent sourcePoint { runOrdinal } }
        transfers { kind status }
      } }`,
      { id: thread.id },
      key,
    );
    expect(stored.lineage.relationshipToParent).toBe('SUBAGENT');
    expect(stored.transfers).toEqual([{ kind: 'SUBAGENT_SPAWN', status: 'CONSUMED' }]);
    links.push([
      stored.lineage.parent.id === main.id ? 'main' : stored.lineage.parent.id,
      stored.lineage.sourcePoint.runOrdinal,
      thread.providerThreads[0]!.nativeThreadRef,
    ]);
  }
  return links;
}

const MAIN = '8c7d6e5f-2107-4a08-9b28-b2c3d4e5f608';
const TASK_PROMPT = 'Review src/render.ts, src/lines.ts, src/money.ts and the CSV export';

describe('a Claude Code 2.x session with a subagent folder', () => {
  let summary: ImportSummary;
  beforeAll(async () => {
    summary = await importCase('08-claude-2x-subagent-folder');
  });

  it('imports the subagent as a thread of its own, naming the main session', () => {
    expect(
      summary.threads.map((thread) => [thread.subagentOf, thread.providerThreads.map((pt) => pt.nativeThreadRef)]),
    ).toEqual([
      [null, [MAIN]],
      [MAIN, ['a4e91c2']],
    ]);
    expect(summary.problems).toEqual([]);
    expect(summary.unknownRecordTypes).toEqual({ 'file-history-snapshot': 1 });
  });

  it("makes the subagent a child of the main thread's run that asked for it", async () => {
    expect(await subagentLinks(summary)).toEqual([['main', 2, 'a4e91c2']]);
  });

  it('plans a return to Claude on the main session, whose turns hold no subagent task', async () => {
    const main = summary.threads[0]!;
    // The subagent's only turn starts after the main session's last one: it must still not be resumed.
    const claude = await preview(main.id!, 'claude');
    expect(claude).toMatchObject({ providerThreadAction: 'REUSE', nativeThreadRef: MAIN });
    expect((await userMessages(main.id!)).some((message) => message.startsWith(TASK_PROMPT))).toBe(false);

    const codex = await preview(main.id!, 'codex');
    expect(codex.plan.decision).not.toBe('NO_HANDOFF');
    expect(codex.context).not.toContain(`user: ${TASK_PROMPT}`);
  });
});

describe('a Claude Code 1.x session with inline sidechains', () => {
  it('imports the sidechain as a subagent thread, and the main session stays the one resumed', async () => {
    const main = '3f2a1b0c-1098-4d07-8e17-a1b2c3d4e507';
    const summary = await importCase('07-claude-1x-inline-sidechains');
    expect(summary.threads.map((thread) => thread.subagentOf)).toEqual([null, main]);
    expect(summary.threads.map((thread) => thread.runsImported)).toEqual([1, 1]);
    expect(await subagentLinks(summary)).toEqual([['main', 1, expect.any(String)]]);
    expect(await preview(summary.threads[0]!.id!, 'claude')).toMatchObject({ nativeThreadRef: main });
  });
});

describe('a Codex session with a spawned subagent', () => {
  it('imports the subagent as a thread of its own, and a return to Codex resumes the parent', async () => {
    const parent = '019a7b8c-0120-7d17-9e17-0a1b2c3d4e17';
    const summary = await importCase('17-codex-compaction-and-subagent');
    expect(summary.threads.map((thread) => thread.subagentOf)).toEqual([null, parent]);
    expect(await subagentLinks(summary)).toEqual([['main', 2, '019a7b90-0120-7e18-8f18-1b2c3d4e5f18']]);
    expect(await preview(summary.threads[0]!.id!, 'codex')).toMatchObject({ nativeThreadRef: parent });
  });

  it('links the subagent to the turn whose spawn names it, not to the turn current when its file starts', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'threadline-corpus-'));
    try {
      const name = 'rollout-2026-01-05T13-03-12-019a7b90-0120-7e18-8f18-1b2c3d4e5f18.jsonl';
      await cp(join(CORPUS, '17-codex-compaction-and-subagent'), folder, { recursive: true });
      // The subagent's records now start before the main session's second turn, which spawned it.
      const text = await readFile(join(folder, name), 'utf8');
      await writeFile(join(folder, name), text.replaceAll('2026-01-05T13:03:', '2026-01-05T13:02:'));
      const summary = await importCase(folder, changed.key);
      expect(await subagentLinks(summary, changed.key)).toEqual([['main', 2, '019a7b90-0120-7e18-8f18-1b2c3d4e5f18']]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('Claude Code workflow agents', () => {
  it('are subagent threads named by their meta files, and a return resumes the main session', async () => {
    const summary = await importCase('09-claude-2x-workflow-agents');
    expect(summary.problems).toEqual([]);
    const agents = summary.threads.filter((thread) => thread.subagentOf !== null);
    expect(agents.map((thread) => thread.title)).toEqual([
      expect.stringMatching(/^harbor: subagent workflow:collector, step collect: /),
      expect.stringMatching(/^harbor: subagent workflow:writer, step draft: Write the v2.3.0 section/),
    ]);
    expect((await subagentLinks(summary)).map(([parent, ordinal]) => [parent, ordinal])).toEqual([
      ['main', 1],
      ['main', 1],
    ]);
    const main = summary.threads.find((thread) => thread.subagentOf === null)!;
    expect(await preview(main.id!, 'claude')).toMatchObject({
      nativeThreadRef: 'd1e2f3a4-2110-4b09-8c39-c3d4e5f6a709',
    });
  });
});

describe('a compaction and a resume that copies the turns since it', () => {
  it('stores the copied turn once, counts it, and resumes the newest session', async () => {
    const summary = await importCase('10-claude-compaction-and-resume');
    expect(summary.duplicateTurns).toBe(1);
    expect(summary.runsImported).toBe(3);
    const [thread] = summary.threads;
    expect(summary.threads).toHaveLength(1);
    const messages = await userMessages(thread!.id!);
    expect(messages.filter((message) => message === 'continue')).toHaveLength(1);
    expect(messages.at(-1)).toBe('yes delete it, and the old regex tests too');
    expect(await preview(thread!.id!, 'claude')).toMatchObject({
      nativeThreadRef: '9e8d7c6b-2020-4d11-8e51-e5f6a7b8c911',
    });

    // Imported again: nothing added, the copy still counted.
    const again = await importCase('10-claude-compaction-and-resume');
    expect(again).toMatchObject({ runsImported: 0, runsAlreadyPresent: 3, duplicateTurns: 1 });
  });

  it('stores the copied turn once when the resumed file comes in a later import of its own', async () => {
    const original = await importCase(
      '10-claude-compaction-and-resume/4b5c6d7e-2020-4c10-9d40-d4e5f6a7b810.jsonl',
      single.key,
    );
    expect(original).toMatchObject({ runsImported: 2, duplicateTurns: 0 });
    const resumed = await importCase(
      '10-claude-compaction-and-resume/9e8d7c6b-2020-4d11-8e51-e5f6a7b8c911.jsonl',
      single.key,
    );
    expect(resumed).toMatchObject({ runsImported: 1, runsAlreadyPresent: 0, duplicateTurns: 1 });
    expect(resumed.threads.map((thread) => thread.id)).toEqual(original.threads.map((thread) => thread.id));
    const messages = await userMessages(original.threads[0]!.id!, single.key);
    expect(messages.filter((message) => message === 'continue')).toHaveLength(1);
    expect(messages).toHaveLength(3);

    // Watched files are imported again as they grow: the copy is still not stored twice.
    const again = await importCase(
      '10-claude-compaction-and-resume/9e8d7c6b-2020-4d11-8e51-e5f6a7b8c911.jsonl',
      single.key,
    );
    expect(again).toMatchObject({ runsImported: 0, runsAlreadyPresent: 1, duplicateTurns: 1 });
  });
});

describe('Codex paginated rollouts and forks', () => {
  it('reads a thread’s two pages as one provider thread and counts the new line types', async () => {
    const summary = await importCase('05-codex-paginated-segments');
    expect(summary.problems).toEqual([]);
    expect(summary.threads.map((thread) => thread.providerThreads.map((pt) => [pt.nativeThreadRef, pt.runs]))).toEqual([
      [['019b2c3d-0147-7d05-9b55-7c9d1e3f4a05', 2]],
    ]);
    expect(summary.unknownRecordTypes).toEqual({
      world_state: 2,
      token_usage_record: 2,
      retained_context: 1,
      inter_agent_communication: 1,
      inter_agent_communication_metadata: 1,
    });
  });

  it('stores a fork’s copy of its source’s turn once', async () => {
    const summary = await importCase('06-codex-fork-copies');
    expect(summary.duplicateTurns).toBe(1);
    expect(summary.runsImported).toBe(3);
  });
});

describe('a session whose clock ran backwards', () => {
  it('is imported with its times clamped, and says so', async () => {
    const summary = await importCase('12-claude-clock-skew');
    expect(summary.problems).toEqual([]);
    expect(summary.runsImported).toBe(2);
    expect(summary.warnings).toHaveLength(2);
    expect(summary.warnings[0]!.reason).toMatch(/run backwards/);
  });
});

describe('Codex Desktop answers', () => {
  it('become the runs’ answers, none interrupted', async () => {
    const summary = await importCase('03-codex-desktop-response-items-only');
    const { thread } = await t.ok(
      `query($id: ID!) { thread(id: $id) { runs(first: 10) { edges { node { status assistantMessage } } } } }`,
      { id: summary.threads[0]!.id },
      tenant.key,
    );
    const runs = thread.runs.edges.map((edge: { node: { status: string; assistantMessage: string } }) => edge.node);
    expect(runs.map((run: { status: string }) => run.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
    expect(runs.every((run: { assistantMessage: string | null }) => run.assistantMessage !== null)).toBe(true);
  });
});
