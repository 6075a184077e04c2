// Issue 16, real agent sessions in: `npm run import` (tools/import.ts) run as a child process against a
// started service, importing the project's Codex and Claude Code fixture sessions through importRuns;
// then a switch planned from what they did, and completeRun deriving facts from a turn's raw events.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/graph/projectRoot.js';
import type { ImportSummary } from '../../tools/import.js';
import { COMPLETE_RUN, PLAN_RUN, START_RUN } from '../support/lineage.js';
import { codeOf, startTestService, uniqueId, type TestService } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

const execFileAsync = promisify(execFile);
const SESSIONS = join(projectRoot(), 'test/fixtures/sessions');
const CODEX_SESSION = '0197c0de-0001-7000-8000-00000000c0de';
const CODEX_SUBAGENT = '0197c0de-0002-7000-8000-0000000000a1';
const CLAUDE_SESSION = '7d3c6a52-1b7e-4a55-9c39-4d1f0e2b8a61';
const CODEX = join(SESSIONS, `codex/rollout-2025-06-02T09-15-00-${CODEX_SESSION}.jsonl`);
const CODEX_SUBAGENT_FILE = join(SESSIONS, `codex/rollout-2025-06-02T09-15-15-${CODEX_SUBAGENT}.jsonl`);
const CLAUDE = join(SESSIONS, `claude/${CLAUDE_SESSION}.jsonl`);
const SLUG_CLAUDE_SESSION = '2b9e4f10-5c3d-4e8a-b1a7-6f0d9c8e7a21';
const SLUG_CLAUDE = join(SESSIONS, `claude/${SLUG_CLAUDE_SESSION}.jsonl`);
const SLUG_CODEX_SESSION = '0197c0de-0009-7000-8000-00000000051a';

// Tenants of their own: a session is imported once per tenant, and the graph may outlive this run.
const main = { key: uniqueId('import-key'), tenant: fileTenant() };
const other = { key: uniqueId('import-key'), tenant: fileTenant('other') };
const split = { key: uniqueId('import-key'), tenant: fileTenant('split') };
const fresh = { key: uniqueId('import-key'), tenant: fileTenant('fresh') };

let t: TestService;
let work: string;
beforeAll(async () => {
  t = await startTestService({
    THREADLINE_API_KEYS: `${main.key}=${main.tenant},${other.key}=${other.tenant},${split.key}=${split.tenant},${fresh.key}=${fresh.tenant}`,
  });
  work = await mkdtemp(join(tmpdir(), 'threadline-import-'));
});
afterAll(async () => {
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const gql = (query: string, variables?: Record<string, unknown>) => t.gql(query, variables, main.key);
const ok = (query: string, variables?: Record<string, unknown>) => t.ok(query, variables, main.key);

async function npmImport(args: string[], token = main.key, expectedCode = 0): Promise<ImportSummary> {
  const { stdout, code } = await runImport(['--json', '--token', token, ...args]);
  expect(code).toBe(expectedCode);
  return JSON.parse(stdout) as ImportSummary;
}

/** `npm run -s import`, its output and exit status whatever it is. */
async function runImport(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return execFileAsync('npm', ['run', '--silent', 'import', '--', ...args], {
    cwd: projectRoot(),
    timeout: 120_000,
  }).then(
    ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => ({ ...error }),
  );
}

/** `threadline <args>` run as the bin, with the service's URL and a tenant's key. */
async function threadline(args: string[], token: string): Promise<{ stdout: string; stderr: string; code: number }> {
  return execFileAsync(process.execPath, ['bin/threadline.js', ...args, '--url', origin(), '--token', token], {
    cwd: projectRoot(),
    timeout: 120_000,
  }).then(
    ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => ({ ...error }),
  );
}

/** An import into one thread, seen as that thread: its id, provider threads and counts. */
function single(summary: ImportSummary) {
  expect(summary.threads).toHaveLength(1);
  const [thread] = summary.threads;
  return { ...thread!, threadId: thread!.id, problems: summary.problems };
}

const origin = () => new URL(t.service.url).origin;

const THREAD = `query($id: ID!) { thread(id: $id) {
  id title headOrdinal
  providerThreads { id provider nativeThreadRef status coverage { nativeRanges { from to } } }
  runs(first: 100) { edges { node {
    ordinal provider status userMessage assistantMessage error createdAt completedAt
    providerThread { id nativeThreadRef }
    plan { decision providerThreadAction providerThread { id } handoffStrategy reasons }
    contextHandoff { id }
    facts { kind text key status }
  } } }
} }`;

async function threadOf(id: string, token = main.key) {
  const { thread } = await t.ok(THREAD, { id }, token);
  return { ...thread, runs: thread.runs.edges.map((edge: any) => edge.node) };
}

const IMPORT_RUNS = `mutation($input: ImportRunsInput!) { importRuns(input: $input) { thread { id headOrdinal } providerThread { id nativeThreadRef } runs { ordinal } alreadyPresent } }`;

/** A Codex turn as its rollout records it, from the user's message to the turn's end. */
function codexTurn(userMessage: string, second = 0): string[] {
  const at = (offset: number) =>
    `2026-03-02T10:${String(second).padStart(2, '0')}:${String(offset).padStart(2, '0')}.000Z`;
  return [
    {
      timestamp: at(0),
      type: 'turn_context',
      payload: { turn_id: 'turn-7', cwd: '/home/dev/shop', model: 'gpt-5-codex' },
    },
    { timestamp: at(1), type: 'event_msg', payload: { type: 'user_message', message: userMessage, images: [] } },
    {
      timestamp: at(3),
      type: 'response_item',
      payload: {
        type: 'custom_tool_call',
        status: 'completed',
        call_id: 'call_c1',
        name: 'apply_patch',
        input:
          '*** Begin Patch\n*** Add File: src/coupon.ts\n+export const coupon = (code: string) => code.trim();\n*** End Patch',
      },
    },
    {
      timestamp: at(4),
      type: 'event_msg',
      payload: {
        type: 'patch_apply_end',
        call_id: 'call_c1',
        stdout: 'Success. Updated the following files:\nA src/coupon.ts\n',
        stderr: '',
        success: true,
        changes: {
          '/home/dev/shop/src/coupon.ts': {
            type: 'add',
            content: 'export const coupon = (code: string) => code.trim();\n',
          },
        },
      },
    },
    {
      timestamp: at(5),
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', 'npm test'], workdir: '/home/dev/shop' }),
        call_id: 'call_t1',
      },
    },
    {
      timestamp: at(8),
      type: 'response_item',
      payload: {
        type: 'function_call_output',
        call_id: 'call_t1',
        output:
          'Exit code: 0\nWall time: 2.4 seconds\nOutput:\n> shop@1.0.0 test\n> vitest run\n\n      Tests  5 passed (5)\n',
      },
    },
    {
      timestamp: at(9),
      type: 'event_msg',
      payload: { type: 'agent_message', message: 'Coupons are applied before the discount cap.' },
    },
    {
      timestamp: at(9),
      type: 'event_msg',
      payload: {
        type: 'task_complete',
        turn_id: 'turn-7',
        last_agent_message: 'Coupons are applied before the discount cap.',
      },
    },
  ].map((record) => JSON.stringify(record));
}

const CODEX_TURN_FACTS = [
  { kind: 'FILE_CHANGE', text: 'src/coupon.ts added (+1 -0)', key: 'src/coupon.ts', status: 'added' },
  { kind: 'COMMAND', text: 'npm test (exit 0)', key: 'npm test', status: 'exit 0' },
  { kind: 'TEST', text: 'npm test: 5 passed, 0 failed', key: 'npm test', status: 'passed' },
];

describe('npm run import', () => {
  let first: ReturnType<typeof single>;

  it('imports a Codex and a Claude Code session of one project into one thread, runs in time order', async () => {
    const summary = await npmImport(['--url', origin(), CODEX, CLAUDE]);
    expect(summary).toMatchObject({ dryRun: false, runsImported: 6, runsAlreadyPresent: 0 });
    first = single(summary);
    expect(first).toEqual({
      id: expect.stringMatching(/^th_/),
      threadId: expect.stringMatching(/^th_/),
      project: '/home/dev/shop',
      subagentOf: null,
      title: 'shop: Add a discount field to the cart and make the tests pass',
      created: true,
      runsImported: 6,
      runsAlreadyPresent: 0,
      providerThreads: [
        { id: expect.stringMatching(/^pt_/), provider: 'codex', nativeThreadRef: CODEX_SESSION, runs: 3 },
        { id: expect.stringMatching(/^pt_/), provider: 'claude', nativeThreadRef: CLAUDE_SESSION, runs: 3 },
      ],
      problems: [
        { file: CODEX, line: 32, reason: 'not valid JSON' },
        { file: CODEX, line: 34, reason: 'not a JSON object' },
        { file: CLAUDE, line: 26, reason: 'not valid JSON' },
      ],
    });

    const thread = await threadOf(first.threadId!);
    expect(thread.title).toBe('shop: Add a discount field to the cart and make the tests pass');
    expect(thread.headOrdinal).toBe(6);
    const [codex, claude] = first.providerThreads;
    expect(thread.providerThreads).toEqual([
      {
        id: codex!.id,
        provider: 'codex',
        nativeThreadRef: CODEX_SESSION,
        status: 'IDLE',
        coverage: { nativeRanges: [{ from: 1, to: 3 }] },
      },
      {
        id: claude!.id,
        provider: 'claude',
        nativeThreadRef: CLAUDE_SESSION,
        status: 'IDLE',
        coverage: { nativeRanges: [{ from: 4, to: 6 }] },
      },
    ]);

    const runs = thread.runs;
    expect(
      runs.map((run: any) => [
        run.ordinal,
        run.provider,
        run.status,
        run.providerThread.nativeThreadRef,
        run.createdAt,
        run.completedAt,
      ]),
    ).toEqual([
      [1, 'codex', 'COMPLETED', CODEX_SESSION, '2025-06-02T09:15:01.200Z', '2025-06-02T09:15:22.200Z'],
      [2, 'codex', 'INTERRUPTED', CODEX_SESSION, '2025-06-02T09:17:00.200Z', '2025-06-02T09:17:05.000Z'],
      [3, 'codex', 'COMPLETED', CODEX_SESSION, '2025-06-02T09:18:00.200Z', '2025-06-02T09:18:05.100Z'],
      [4, 'claude', 'COMPLETED', CLAUDE_SESSION, '2025-07-01T10:00:10.000Z', '2025-07-01T10:00:55.000Z'],
      [5, 'claude', 'INTERRUPTED', CLAUDE_SESSION, '2025-07-01T10:06:00.000Z', '2025-07-01T10:06:05.100Z'],
      [6, 'claude', 'COMPLETED', CLAUDE_SESSION, '2025-07-01T10:07:00.000Z', '2025-07-01T10:07:03.000Z'],
    ]);
    expect(runs.map((run: any) => [run.userMessage, run.assistantMessage])).toEqual([
      [
        'Add a discount field to the cart and make the tests pass',
        'Added `discount` to the cart, removed the legacy cart, and the tests pass.',
      ],
      ['Deploy it, the token is [redacted]', null],
      ['Cap discounts at 50%', 'I capped discounts at 50%.\n\nShould the cap also apply to coupons?'],
      [
        'Add a discount field to the cart. The API key is [redacted]',
        'The cart has a discount field and the tests pass.',
      ],
      ['Now deploy it', 'Deploying now.'],
      [
        'Wait, ask me which environment first',
        'Understood, I will not deploy without asking.\n\nWhich environment should I deploy to first: staging or production?',
      ],
    ]);

    // Each run's plan says it was imported, from which session, with no handoff made up for the past.
    const codexReason = `imported from codex session ${CODEX_SESSION}`;
    const claudeReason = `imported from claude session ${CLAUDE_SESSION}`;
    expect(
      runs.map((run: any) => [
        run.plan.decision,
        run.plan.providerThreadAction,
        run.plan.providerThread?.id ?? null,
        run.plan.handoffStrategy,
        run.plan.reasons,
        run.contextHandoff,
      ]),
    ).toEqual([
      ['NO_HANDOFF', 'CREATE', null, null, [codexReason], null],
      ['NO_HANDOFF', 'REUSE', codex!.id, null, [codexReason], null],
      ['NO_HANDOFF', 'REUSE', codex!.id, null, [codexReason], null],
      ['NO_HANDOFF', 'CREATE', null, null, [claudeReason], null],
      ['NO_HANDOFF', 'REUSE', claude!.id, null, [claudeReason], null],
      ['NO_HANDOFF', 'REUSE', claude!.id, null, [claudeReason], null],
    ]);
    expect(
      (await ok(`query($id: ID!) { thread(id: $id) { handoffs { id } transfers { id } } }`, { id: first.threadId }))
        .thread,
    ).toEqual({ handoffs: [], transfers: [] });

    // What the sessions did, as facts.
    const factTexts = (ordinal: number) => runs[ordinal - 1].facts.map((fact: any) => `${fact.kind} ${fact.text}`);
    expect(factTexts(1)).toEqual(
      expect.arrayContaining([
        'FILE_CHANGE src/cart.ts modified (+1 -0)',
        'FILE_CHANGE src/discount.ts added (+2 -0)',
        'COMMAND npm test (exit 0)',
        'TEST npm test: 4 passed, 0 failed',
        'PLAN_ITEM Add discount to Cart',
      ]),
    );
    expect(factTexts(2)).toEqual(expect.arrayContaining(['COMMAND AWS_ACCESS_KEY_ID=[redacted] ./deploy.sh (exit 1)']));
    expect(factTexts(4)).toEqual(
      expect.arrayContaining([
        'FILE_CHANGE src/discount.ts added (+2 -0)',
        'COMMAND npm test (exit 0)',
        'FAILURE Edit failed on src/missing.ts: File does not exist.',
      ]),
    );
    expect(runs[5].facts).toEqual([
      {
        kind: 'QUESTION',
        text: expect.stringMatching(/^Which environment should I deploy to first/),
        key: expect.any(String),
        status: 'open',
      },
    ]);
    expect(JSON.stringify(runs)).not.toMatch(/HIDDEN-|FAKE/);
  });

  it('adds nothing when the same sessions are imported again, and answers with the thread that holds them', async () => {
    const again = single(await npmImport(['--url', t.service.url, CODEX, CLAUDE]));
    expect(again).toEqual({ ...first, created: false, runsImported: 0, runsAlreadyPresent: 6 });
    // --thread naming the thread that holds them is the same import.
    const same = single(await npmImport(['--url', origin(), '--thread', first.threadId!, CLAUDE, CODEX]));
    expect(same).toMatchObject({ threadId: first.threadId, created: false, runsImported: 0, runsAlreadyPresent: 6 });

    // --thread naming another thread is refused, naming where the sessions live, and writes nothing.
    const elsewhere = uniqueId('elsewhere');
    const refused = await runImport(['--url', origin(), '--token', main.key, '--thread', elsewhere, CLAUDE, CODEX]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`--thread ${elsewhere} refused, nothing written`);
    expect(refused.stderr).toContain(`claude session ${CLAUDE_SESSION} (${CLAUDE}) is in thread ${first.threadId}`);
    expect((await ok(`query($id: ID!) { thread(id: $id) { id } }`, { id: elsewhere })).thread).toBeNull();
    expect((await threadOf(first.threadId!)).runs).toHaveLength(6);
  });

  it('plans the next Codex run as a handoff of what Claude did, naming its files and commands', async () => {
    const { planRun } = await ok(PLAN_RUN, { input: { threadId: first.threadId, provider: 'codex' } });
    expect(planRun).toMatchObject({
      decision: 'DELTA_HANDOFF',
      providerThreadAction: 'RESUME',
      providerThread: { id: first.providerThreads[0]!.id },
      coveredRunOrdinals: { from: 4, to: 6 },
    });

    const { startRun } = await ok(START_RUN, {
      input: { threadId: first.threadId, provider: 'codex', userMessage: 'Add coupons to the cart' },
    });
    expect(startRun.run.ordinal).toBe(7);
    expect(startRun.dispatch).toMatchObject({ providerThreadAction: 'RESUME', nativeThreadRef: CODEX_SESSION });
    expect(startRun.dispatch.context).toContain('src/discount.ts');
    expect(startRun.dispatch.context).toContain('npm test');

    // No import while a run is running: imported runs would land after it.
    const busy = await gql(IMPORT_RUNS, {
      input: {
        threadId: first.threadId,
        providerThread: { provider: 'codex', nativeThreadRef: CODEX_SESSION },
        runs: [],
      },
    });
    expect(codeOf(busy)).toBe('RUN_IN_PROGRESS');

    // The turn completes with Codex's own records of it: their facts come after the hand-made one.
    const completed = await ok(
      `mutation($input: CompleteRunInput!) { completeRun(input: $input) { status facts { kind text key status file { path change additions deletions } } } }`,
      {
        input: {
          runId: startRun.run.id,
          assistantMessage: 'Coupons are in.',
          facts: [{ kind: 'DECISION', text: 'Apply coupons before the cap' }],
          rawEvents: { format: 'CODEX', lines: codexTurn('Add coupons to the cart') },
        },
      },
    );
    // A file change the adapters read is typed, as a checkpoint's files are.
    const typed = (fact: (typeof CODEX_TURN_FACTS)[number]) => ({
      ...fact,
      file: fact.kind === 'FILE_CHANGE' ? { path: 'src/coupon.ts', change: 'ADDED', additions: 1, deletions: 0 } : null,
    });
    expect(completed.completeRun).toEqual({
      status: 'COMPLETED',
      facts: [
        { kind: 'DECISION', text: 'Apply coupons before the cap', key: null, status: null, file: null },
        ...CODEX_TURN_FACTS.map(typed),
      ],
    });
  });

  it('adds only the new turns of a session that grew', async () => {
    const folder = join(work, 'codex', '2025', '06', '02');
    await mkdir(folder, { recursive: true });
    const grown = join(folder, `rollout-2025-06-02T09-15-00-${CODEX_SESSION}.jsonl`);
    const next = [
      {
        timestamp: '2025-06-02T09:30:00.000Z',
        type: 'turn_context',
        payload: { turn_id: 'turn-4', cwd: '/home/dev/shop', model: 'gpt-5.1-codex' },
      },
      {
        timestamp: '2025-06-02T09:30:00.100Z',
        type: 'event_msg',
        payload: { type: 'user_message', message: 'Apply the cap to coupons too', images: [] },
      },
      {
        timestamp: '2025-06-02T09:30:04.000Z',
        type: 'event_msg',
        payload: { type: 'agent_message', message: 'The cap now covers coupons.' },
      },
      {
        timestamp: '2025-06-02T09:30:04.100Z',
        type: 'event_msg',
        payload: { type: 'task_complete', turn_id: 'turn-4', last_agent_message: 'The cap now covers coupons.' },
      },
    ];
    await writeFile(
      grown,
      `${await readFile(CODEX, 'utf8')}\n${next.map((record) => JSON.stringify(record)).join('\n')}\n`,
    );

    const summary = single(await npmImport(['--url', origin(), join(work, 'codex'), CLAUDE]));
    expect(summary).toMatchObject({ threadId: first.threadId, runsImported: 1, runsAlreadyPresent: 6 });
    expect(summary.providerThreads).toEqual([
      { id: first.providerThreads[0]!.id, provider: 'codex', nativeThreadRef: CODEX_SESSION, runs: 4 },
      { id: first.providerThreads[1]!.id, provider: 'claude', nativeThreadRef: CLAUDE_SESSION, runs: 3 },
    ]);
    const added = (await threadOf(first.threadId!)).runs.at(-1);
    expect(added).toMatchObject({
      ordinal: 8,
      provider: 'codex',
      userMessage: 'Apply the cap to coupons too',
      createdAt: '2025-06-02T09:30:00.100Z',
      plan: { decision: 'NO_HANDOFF', providerThreadAction: 'REUSE' },
    });
  });

  it('walks a Claude Code folder, subagents in threads of their own, one thread per project', async () => {
    const summary = await npmImport(['--url', origin(), join(SESSIONS, 'claude')], other.key);
    expect(summary.runsImported).toBe(6);
    expect(
      summary.threads.map((thread) => [
        thread.project,
        thread.subagentOf,
        thread.providerThreads.map((pt) => [pt.nativeThreadRef, pt.runs]),
      ]),
    ).toEqual([
      ['/home/dev/shop', null, [[CLAUDE_SESSION, 3]]],
      ['/home/dev/shop', CLAUDE_SESSION, [['a7f3e2d', 1]]],
      ['/home/dev/slug', null, [['2b9e4f10-5c3d-4e8a-b1a7-6f0d9c8e7a21', 2]]],
    ]);
    expect(summary.problems).toEqual([
      { file: join(SESSIONS, 'claude', `${CLAUDE_SESSION}.jsonl`), line: 26, reason: 'not valid JSON' },
    ]);
    // Another tenant: its own threads, not the one the first tenant's import made.
    expect(summary.threads.map((thread) => thread.id)).not.toContain(first.threadId);
  });

  it("keeps a provider's main session, not its subagent, as the provider thread the next run continues", async () => {
    const answer = await npmImport(['--url', origin(), CODEX_SUBAGENT_FILE, CODEX], other.key);
    expect(answer.threads.map((thread) => thread.subagentOf)).toEqual([null, CODEX_SESSION]);
    const summary = { ...answer.threads[0]!, threadId: answer.threads[0]!.id };
    expect(summary.providerThreads.map((pt) => [pt.nativeThreadRef, pt.runs])).toEqual([[CODEX_SESSION, 3]]);
    expect(answer.threads[1]!.providerThreads.map((pt) => [pt.nativeThreadRef, pt.runs])).toEqual([
      [CODEX_SUBAGENT, 1],
    ]);
    const main = summary.providerThreads[0]!;
    const { planRun } = await t.ok(PLAN_RUN, { input: { threadId: summary.threadId, provider: 'codex' } }, other.key);
    expect(planRun).toMatchObject({
      decision: 'NO_HANDOFF',
      providerThreadAction: 'REUSE',
      providerThread: { id: main.id },
    });
  });

  it('reports files of no known format without guessing, and paths that do not exist', async () => {
    const notes = join(work, 'notes.jsonl');
    await writeFile(notes, '{"note": "not a session"}\n');
    const missing = join(work, 'missing');
    const summary = await npmImport(['--url', origin(), notes, missing], other.key, 1);
    expect(summary).toEqual({
      dryRun: false,
      runsImported: 0,
      runsAlreadyPresent: 0,
      duplicateTurns: 0,
      unknownRecordTypes: {},
      threads: [],
      problems: [
        { file: missing, line: null, reason: 'no such file or folder' },
        { file: notes, line: null, reason: 'not a Codex rollout or a Claude Code session file' },
      ],
      warnings: [],
    });
  });
});

/** A Codex rollout of one session in `cwd`: its meta line, then one turn at `at` (a minute's time, HH:MM). */
function codexSession(id: string, cwd: string, day: string, userMessage: string, answer: string): string {
  const at = (second: number) => `${day}T10:00:${String(second).padStart(2, '0')}.000Z`;
  return [
    {
      timestamp: at(0),
      type: 'session_meta',
      payload: { id, timestamp: at(0), cwd, originator: 'codex_cli_rs', cli_version: '0.41.0' },
    },
    { timestamp: at(1), type: 'turn_context', payload: { turn_id: 'turn-1', cwd, model: 'gpt-5-codex' } },
    { timestamp: at(2), type: 'event_msg', payload: { type: 'user_message', message: userMessage, images: [] } },
    { timestamp: at(5), type: 'event_msg', payload: { type: 'agent_message', message: answer } },
    {
      timestamp: at(6),
      type: 'event_msg',
      payload: { type: 'task_complete', turn_id: 'turn-1', last_agent_message: answer },
    },
  ]
    .map((record) => `${JSON.stringify(record)}\n`)
    .join('');
}

describe('import by project', () => {
  const sessionsOf = (summary: ImportSummary) =>
    summary.threads.map((thread) => [thread.project, thread.providerThreads.map((pt) => [pt.provider, pt.runs])]);
  const held = async (provider: string, nativeThreadRef: string) =>
    (
      await t.ok(
        `query($p: String!, $n: String!) { providerThreadsByNativeRef(provider: $p, nativeThreadRef: $n) { threadId } }`,
        { p: provider, n: nativeThreadRef },
        split.key,
      )
    ).providerThreadsByNativeRef;

  it('gives each project its own thread, both providers in time order, so the next plan hands off', async () => {
    const slugCodex = join(work, 'slug', `rollout-2025-07-02T10-00-00-${SLUG_CODEX_SESSION}.jsonl`);
    await mkdir(join(work, 'slug'), { recursive: true });
    await writeFile(
      slugCodex,
      codexSession(
        SLUG_CODEX_SESSION,
        '/home/dev/slug',
        '2025-07-02',
        'Make slugs unique',
        'Slugs get a numeric suffix.',
      ),
    );
    const files = ['--url', origin(), CLAUDE, slugCodex, CODEX, SLUG_CLAUDE];
    const expected = [
      [
        '/home/dev/shop',
        [
          ['codex', 3],
          ['claude', 3],
        ],
      ],
      [
        '/home/dev/slug',
        [
          ['claude', 2],
          ['codex', 1],
        ],
      ],
    ];

    // A dry run says what would be made, and writes nothing.
    const dry = await npmImport(['--dry-run', ...files], split.key);
    expect(dry).toMatchObject({ dryRun: true, runsImported: 0, runsAlreadyPresent: 0 });
    expect(dry.threads.map(({ id, created }) => ({ id, created }))).toEqual([
      { id: null, created: true },
      { id: null, created: true },
    ]);
    expect(sessionsOf(dry)).toEqual(expected);
    expect(await held('codex', SLUG_CODEX_SESSION)).toEqual([]);
    expect(await held('claude', SLUG_CLAUDE_SESSION)).toEqual([]);

    const summary = await npmImport(files, split.key);
    expect(summary).toMatchObject({ dryRun: false, runsImported: 9, runsAlreadyPresent: 0 });
    expect(sessionsOf(summary)).toEqual(expected);
    const [shop, slug] = summary.threads;
    expect(shop!.id).not.toBe(slug!.id);
    expect(slug!.title).toBe(`slug: ${(await threadOf(slug!.id!, split.key)).runs[0].userMessage}`);
    expect((await t.ok(`query($id: ID!) { thread(id: $id) { project } }`, { id: shop!.id }, split.key)).thread).toEqual(
      {
        project: '/home/dev/shop',
      },
    );

    // A hand switch in each project is a real switch in its thread's lineage.
    const slugThread = await threadOf(slug!.id!, split.key);
    expect(slugThread.runs.map((run: any) => [run.ordinal, run.provider])).toEqual([
      [1, 'claude'],
      [2, 'claude'],
      [3, 'codex'],
    ]);
    const plan = async (threadId: string, provider: string) =>
      (await t.ok(PLAN_RUN, { input: { threadId, provider } }, split.key)).planRun;
    expect(await plan(slug!.id!, 'claude')).toMatchObject({
      decision: 'DELTA_HANDOFF',
      providerThreadAction: 'RESUME',
      coveredRunOrdinals: { from: 3, to: 3 },
    });
    expect(await plan(shop!.id!, 'codex')).toMatchObject({
      decision: 'DELTA_HANDOFF',
      providerThreadAction: 'RESUME',
      coveredRunOrdinals: { from: 4, to: 6 },
    });

    // threadline handoff prints that context alone, found by the project or named by the thread; it writes nothing.
    const preview = (
      await t.ok(
        `query($input: PlanRunInput!) { previewRun(input: $input) { context } }`,
        { input: { threadId: shop!.id, provider: 'codex' } },
        split.key,
      )
    ).previewRun;
    expect(preview.context).toContain('src/discount.ts');
    const byProject = await threadline(['handoff', '--to', 'codex', '--project', '/home/dev/shop'], split.key);
    expect(byProject).toMatchObject({ code: 0, stdout: `${preview.context}\n` });
    expect(byProject.stderr).toContain(`Thread ${shop!.id}, DELTA_HANDOFF: resume codex session ${CODEX_SESSION}`);
    const byThread = await threadline(['handoff', '--to', 'codex', '--thread', shop!.id!, '--json'], split.key);
    expect(JSON.parse(byThread.stdout)).toMatchObject({ threadId: shop!.id, context: preview.context });
    expect(await plan(shop!.id!, 'codex')).toMatchObject({ decision: 'DELTA_HANDOFF' });
    const nowhere = await threadline(['handoff', '--to', 'codex', '--project', '/home/dev/none'], split.key);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain('No thread for the project /home/dev/none');

    // threadline threads finds them by project.
    const listed = await threadline(['threads', '--project', '/home/dev/slug', '--json'], split.key);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ id: slug!.id, project: '/home/dev/slug', runCount: 3, providers: ['claude', 'codex'] }),
    ]);

    // Again: the same threads, nothing added.
    const again = await npmImport(files, split.key);
    expect(again).toMatchObject({ runsImported: 0, runsAlreadyPresent: 9 });
    expect(again.threads.map(({ id, created }) => ({ id, created }))).toEqual([
      { id: shop!.id, created: false },
      { id: slug!.id, created: false },
    ]);
  });

  it('puts every session in one thread with --split none, and one thread per session with --split session', async () => {
    const none = await npmImport(['--url', origin(), '--dry-run', '--split', 'none', CLAUDE, SLUG_CLAUDE], fresh.key);
    expect(sessionsOf(none)).toEqual([
      [
        null,
        [
          ['claude', 3],
          ['claude', 2],
        ],
      ],
    ]);
    const bySession = await npmImport(
      ['--url', origin(), '--dry-run', '--split', 'session', CODEX, CODEX_SUBAGENT_FILE, SLUG_CLAUDE],
      fresh.key,
    );
    // A subagent has a thread of its own, naming the session it served.
    expect(
      bySession.threads.map((thread) => [thread.subagentOf, thread.providerThreads.map((pt) => pt.nativeThreadRef)]),
    ).toEqual(
      expect.arrayContaining([
        [null, [CODEX_SESSION]],
        [CODEX_SESSION, [CODEX_SUBAGENT]],
        [null, [SLUG_CLAUDE_SESSION]],
      ]),
    );
  });

  it('refuses a FIFO and a device without waiting on them, follows a linked session file, says why for other links', async () => {
    const folder = join(work, 'links');
    await mkdir(folder, { recursive: true });
    const pipe = join(folder, 'pipe.jsonl');
    await execFileAsync('mkfifo', [pipe]);
    const linked = join(folder, `${SLUG_CLAUDE_SESSION}.jsonl`);
    await symlink(SLUG_CLAUDE, linked);
    await symlink(join(SESSIONS, 'codex'), join(folder, 'codex-folder'));
    const dangling = join(folder, 'dangling.jsonl');
    await symlink(join(work, 'gone.jsonl'), dangling);

    const summary = await npmImport(['--url', origin(), '--dry-run', folder, '/dev/null'], split.key, 1);
    expect(summary.threads.flatMap((thread) => thread.providerThreads.map((pt) => pt.nativeThreadRef))).toEqual([
      SLUG_CLAUDE_SESSION,
    ]);
    expect(summary.problems).toEqual([
      {
        file: join(folder, 'codex-folder'),
        line: null,
        reason: 'a symbolic link to a folder: not followed (it could loop); name that folder itself to import it',
      },
      { file: dangling, line: null, reason: 'a symbolic link to nothing (its target is missing): not read' },
      { file: pipe, line: null, reason: 'a FIFO (named pipe), not a regular file: not read' },
      { file: '/dev/null', line: null, reason: 'a character device, not a regular file: not read' },
    ]);
  });
});

describe('importRuns', () => {
  const run = (sourceKey: string, startedAt: string, extra: Record<string, unknown> = {}) => ({
    sourceKey,
    startedAt,
    status: 'COMPLETED',
    userMessage: `turn ${sourceKey}`,
    ...extra,
  });
  const newThread = async () =>
    (await ok(`mutation { createThread(input: { title: "import" }) { id } }`)).createThread.id as string;

  it('refuses bad input with BAD_USER_INPUT and writes nothing', async () => {
    const threadId = await newThread();
    const session = { provider: 'codex', nativeThreadRef: uniqueId('session') };
    const refusals: [string, Record<string, unknown>][] = [
      ['runs out of time order', { runs: [run('b', '2025-01-01T10:00:00Z'), run('a', '2025-01-01T09:00:00Z')] }],
      ['one turn twice', { runs: [run('a', '2025-01-01T09:00:00Z'), run('a', '2025-01-01T10:00:00Z')] }],
      [
        'an end before the start',
        { runs: [run('a', '2025-01-01T09:00:00Z', { completedAt: '2025-01-01T08:00:00Z' })] },
      ],
      ['a date without an offset', { runs: [run('a', '2025-01-01T09:00:00')] }],
      ['a completed run with an error', { runs: [run('a', '2025-01-01T09:00:00Z', { error: 'boom' })] }],
      [
        'an unknown provider',
        { providerThread: { provider: 'gemini', nativeThreadRef: 'x' }, runs: [run('a', '2025-01-01T09:00:00Z')] },
      ],
      ['101 runs', { runs: Array.from({ length: 101 }, (_, index) => run(`k${index}`, '2025-01-01T09:00:00Z')) }],
    ];
    for (const [what, input] of refusals) {
      const result = await gql(IMPORT_RUNS, { input: { threadId, providerThread: session, ...input } });
      expect(codeOf(result), what).toBe('BAD_USER_INPUT');
      expect(result.errors![0]!.extensions).toHaveProperty('field');
    }
    expect(await threadOf(threadId)).toMatchObject({ headOrdinal: 0, providerThreads: [], runs: [] });
    expect(
      (
        await ok(
          `query($p: String!, $r: String!) { providerThreadsByNativeRef(provider: $p, nativeThreadRef: $r) { id } }`,
          { p: 'codex', r: session.nativeThreadRef },
        )
      ).providerThreadsByNativeRef,
    ).toEqual([]);
  });

  it('appends a batch once, and refuses a session another thread holds', async () => {
    const threadId = await newThread();
    const session = { provider: 'claude', nativeThreadRef: uniqueId('session'), model: 'claude-sonnet-4-5' };
    const runs = [
      run('1', '2025-01-01T09:00:00Z', {
        status: 'FAILED',
        error: 'API error',
        facts: [{ kind: 'FAILURE', text: 'The model API failed' }],
      }),
      run('2', '2025-01-01T09:05:00Z'),
    ];
    const once = (await ok(IMPORT_RUNS, { input: { threadId, providerThread: session, runs } })).importRuns;
    expect(once).toMatchObject({
      thread: { id: threadId, headOrdinal: 2 },
      providerThread: { nativeThreadRef: session.nativeThreadRef },
      runs: [{ ordinal: 1 }, { ordinal: 2 }],
      alreadyPresent: 0,
    });
    const twice = (
      await ok(IMPORT_RUNS, {
        input: { threadId, providerThread: session, runs: [...runs, run('3', '2025-01-01T09:10:00Z')] },
      })
    ).importRuns;
    expect(twice).toMatchObject({
      thread: { headOrdinal: 3 },
      providerThread: { id: once.providerThread.id },
      runs: [{ ordinal: 3 }],
      alreadyPresent: 2,
    });
    const stored = await threadOf(threadId);
    expect(stored.runs.map((r: any) => [r.status, r.error, r.facts.map((fact: any) => fact.kind)])).toEqual([
      ['FAILED', 'API error', ['FAILURE']],
      ['COMPLETED', null, []],
      ['COMPLETED', null, []],
    ]);

    const conflict = await gql(IMPORT_RUNS, { input: { threadId: await newThread(), providerThread: session, runs } });
    expect(codeOf(conflict)).toBe('CONFLICT');
    expect(conflict.errors![0]!.extensions).toMatchObject({ threadId });
  });
});

describe('completeRun with raw events', () => {
  it('refuses records of another format, lines that are not JSON and lines without a turn, and completes nothing', async () => {
    const threadId = (await ok(`mutation { createThread(input: { title: "raw" }) { id } }`)).createThread.id;
    const { startRun } = await ok(START_RUN, {
      input: { threadId, provider: 'codex', userMessage: 'Add coupons to the cart' },
    });
    const refusals: [string, Record<string, unknown>][] = [
      ['Codex records sent as CLAUDE', { format: 'CLAUDE', lines: codexTurn('Add coupons') }],
      ['a line that is not JSON', { format: 'CODEX', lines: [...codexTurn('Add coupons'), '{"timestamp": '] }],
      ['no user message', { format: 'CODEX', lines: codexTurn('Add coupons').slice(2) }],
      ['two records on one line', { format: 'CODEX', lines: [codexTurn('Add coupons').slice(0, 2).join('\n')] }],
      ['an unknown format', { format: 'GEMINI', lines: codexTurn('Add coupons') }],
    ];
    for (const [what, rawEvents] of refusals) {
      const result = await gql(COMPLETE_RUN, { input: { runId: startRun.run.id, rawEvents } });
      expect(codeOf(result), what).toBe('BAD_USER_INPUT');
    }
    const { run } = await ok(`query($id: ID!) { run(id: $id) { status facts { kind } } }`, { id: startRun.run.id });
    expect(run).toEqual({ status: 'RUNNING', facts: [] });

    await ok(COMPLETE_RUN, {
      input: { runId: startRun.run.id, rawEvents: { format: 'CODEX', lines: codexTurn('Add coupons to the cart') } },
    });
    const done = await ok(`query($id: ID!) { run(id: $id) { status facts { kind text key status } } }`, {
      id: startRun.run.id,
    });
    expect(done.run).toEqual({ status: 'COMPLETED', facts: CODEX_TURN_FACTS });
  });
});
