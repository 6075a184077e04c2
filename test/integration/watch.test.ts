// Issue 28: `threadline watch` follows a folder while this test writes session lines into it, as the
// agents do: whole turns, a partial last line, a second provider in the same project, a restart of
// watch, an outage of the service (a proxy in front of it that stops accepting and comes back on the
// same port), and a file rotated away; and a large file that grows is read only by what it grew, across
// a restart, and read whole again once another file takes its place. The watcher is the bin, a child
// process, as a user runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

const key = uniqueId('watch-key');
const tenant = fileTenant();
const PROJECT = `/home/dev/${uniqueId('watched')}`;
const CODEX_SESSION = `0197c0de-${Math.random().toString(16).slice(2, 6)}-7000-8000-00000000wa7c`;
const CLAUDE_SESSION = uniqueId('claude-session');

let t: TestService;
let work: string;
let proxy: Proxy;
const watchers: ChildProcess[] = [];

beforeAll(async () => {
  t = await startTestService({ THREADLINE_API_KEYS: `${key}=${tenant}` });
  work = await mkdtemp(join(tmpdir(), 'threadline-watch-'));
  proxy = await Proxy.open(t.service.port);
});
afterAll(async () => {
  for (const child of watchers) child.kill('SIGKILL');
  await proxy?.close();
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A TCP proxy to the service that can go away and come back on the same port: an outage as a client sees it. */
class Proxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  private constructor(private readonly target: number) {}

  static async open(target: number): Promise<Proxy> {
    const proxy = new Proxy(target);
    await proxy.up();
    return proxy;
  }

  async up(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

interface Watcher {
  child: ChildProcess;
  log: () => string;
  stopped: Promise<number | null>;
}

function startWatch(folder = join(work, 'sessions')): Watcher {
  // A store of its own: where each file was read up to is kept there between runs.
  const store = ['--data-dir', join(work, 'store')];
  const args = ['bin/threadline.js', 'watch', '--only', folder, '--settle', '3', '--json', ...store];
  const child = spawn(process.execPath, [...args, '--url', `http://127.0.0.1:${proxy.port}`, '--token', key], {
    cwd: projectRoot(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  watchers.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stopped = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, log: () => output, stopped };
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 300; i++) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what}: still ${JSON.stringify(last)}`);
}

async function runsOfProject(
  project = PROJECT,
): Promise<{ ordinal: number; provider: string; userMessage: string }[][]> {
  const { threads } = await t.ok(
    `query($project: String!) { threads(filter: { project: $project }) { edges { node {
      runs(first: 100) { edges { node { ordinal provider userMessage } } } } } } }`,
    { project },
    key,
  );
  return threads.edges.map((edge: any) => edge.node.runs.edges.map((run: any) => run.node));
}

const codexMeta = (session = CODEX_SESSION, project = PROJECT) =>
  JSON.stringify({
    timestamp: '2026-03-02T10:00:00.000Z',
    type: 'session_meta',
    payload: { id: session, timestamp: '2026-03-02T10:00:00.000Z', cwd: project, originator: 'codex_cli_rs' },
  });

/** One Codex turn's records, `minute` minutes after 10:00, as lines (each ending in a newline). */
function codexTurn(minute: number, userMessage: string, project = PROJECT): string[] {
  const at = (second: number) => new Date(Date.UTC(2026, 2, 2, 10, minute, second)).toISOString();
  const id = `turn-${minute}`;
  return [
    { timestamp: at(0), type: 'turn_context', payload: { turn_id: id, cwd: project, model: 'gpt-5-codex' } },
    { timestamp: at(1), type: 'event_msg', payload: { type: 'user_message', message: userMessage, images: [] } },
    { timestamp: at(5), type: 'event_msg', payload: { type: 'agent_message', message: `Done: ${userMessage}` } },
    { timestamp: at(6), type: 'event_msg', payload: { type: 'task_complete', turn_id: id } },
  ].map((record) => `${JSON.stringify(record)}\n`);
}

function claudeTurn(n: number, userMessage: string): string {
  const base = { sessionId: CLAUDE_SESSION, cwd: PROJECT, isSidechain: false, userType: 'external', version: '2.0.0' };
  const at = (second: number) => `2026-03-02T11:0${n}:${String(second).padStart(2, '0')}.000Z`;
  return [
    {
      ...base,
      type: 'user',
      uuid: `u${n}`,
      parentUuid: null,
      timestamp: at(0),
      message: { role: 'user', content: userMessage },
    },
    {
      ...base,
      type: 'assistant',
      uuid: `a${n}`,
      parentUuid: `u${n}`,
      timestamp: at(4),
      message: {
        id: `msg_${n}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        stop_reason: 'end_turn',
        content: [{ type: 'text', text: `Claude did: ${userMessage}` }],
      },
    },
  ]
    .map((record) => `${JSON.stringify(record)}\n`)
    .join('');
}

describe('threadline watch', () => {
  it('records turns as they complete, waits for partial lines, survives a restart, an outage and a rotation', async () => {
    const folder = join(work, 'sessions', 'codex', '2026', '03', '02');
    await mkdir(folder, { recursive: true });
    const codexFile = join(folder, `rollout-2026-03-02T10-00-00-${CODEX_SESSION}.jsonl`);
    await writeFile(codexFile, [`${codexMeta()}\n`, ...codexTurn(1, 'Add a cart')].join(''));

    let watcher = startWatch();
    const messages = async () => (await runsOfProject()).map((runs) => runs.map((run) => run.userMessage));
    expect(await eventually(messages, (m) => m.length === 1 && m[0]!.length === 1, 'the first turn')).toEqual([
      ['Add a cart'],
    ]);

    // A turn written up to the middle of a line: nothing of it is recorded until the line is whole.
    const second = codexTurn(2, 'Add a discount');
    const partial = second.slice(0, 2).join('') + second[2]!.slice(0, 30);
    await appendFile(codexFile, partial);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await messages()).toEqual([['Add a cart']]);
    await appendFile(codexFile, second[2]!.slice(30) + second[3]!);
    await eventually(messages, (m) => m[0]?.length === 2, 'the second turn, once whole');

    // The other agent in the same project: a real switch in the same thread.
    const claudeFile = join(work, 'sessions', 'claude', `${CLAUDE_SESSION}.jsonl`);
    await mkdir(join(work, 'sessions', 'claude'), { recursive: true });
    await writeFile(claudeFile, claudeTurn(1, 'Review the discount'));
    await eventually(messages, (m) => m[0]?.length === 3, "Claude's turn");
    const { planRun } = await t.ok(
      `query($input: PlanRunInput!) { planRun(input: $input) { decision providerThreadAction } }`,
      { input: { threadId: await threadId(), provider: 'codex' } },
      key,
    );
    expect(planRun).toEqual({ decision: 'DELTA_HANDOFF', providerThreadAction: 'RESUME' });

    // A restart: a turn written while it was stopped is recorded, nothing twice.
    watcher.child.kill('SIGTERM');
    expect(await watcher.stopped).toBe(0);
    await appendFile(codexFile, codexTurn(3, 'Add coupons').join(''));
    watcher = startWatch();
    await eventually(messages, (m) => m[0]?.length === 4, 'the turn written while stopped');

    // An outage: the turn waits, watch says so and keeps trying, then records it.
    await proxy.close();
    await appendFile(codexFile, codexTurn(4, 'Cap the coupons').join(''));
    await eventually(
      () => Promise.resolve(watcher.log()),
      (log) => log.includes('The service is away'),
      'the outage reported',
    );
    await proxy.up();
    await eventually(messages, (m) => m[0]?.length === 5, 'the turn written during the outage');
    expect(watcher.log()).toContain('The service answers again');

    // Rotated: the file moves away (gone) and comes back under another name; nothing is added twice.
    await rename(codexFile, join(folder, 'rotated.jsonl'));
    await eventually(
      () => Promise.resolve(watcher.log()),
      (log) => log.includes('is gone'),
      'the removal reported',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const runs = (await runsOfProject())[0]!;
    expect(runs.map((run) => [run.ordinal, run.provider, run.userMessage])).toEqual([
      [1, 'codex', 'Add a cart'],
      [2, 'codex', 'Add a discount'],
      [3, 'claude', 'Review the discount'],
      [4, 'codex', 'Add coupons'],
      [5, 'codex', 'Cap the coupons'],
    ]);
    expect(watcher.child.exitCode).toBeNull(); // still running
    watcher.child.kill('SIGTERM');
    expect(await watcher.stopped).toBe(0);
    // About fifteen steps, each waiting out the watcher's 3 s settle or a restart: 18 s alone, over a
    // minute beside the files that boot Neo4j processes on two cores.
  }, 180_000);

  it('reads a large file that grows only by what it grew, resumes there after a restart, and reads a replacement whole', async () => {
    const project = `/home/dev/${uniqueId('large')}`;
    const session = `0197c0de-${Math.random().toString(16).slice(2, 6)}-7000-8000-0000000large`;
    const folder = join(work, 'large');
    await mkdir(folder, { recursive: true });
    const file = join(folder, `rollout-2026-03-02T10-00-00-${session}.jsonl`);
    // 150 turns with long messages: a file of about 700 KB.
    const padding = 'x'.repeat(2_000);
    const turns = Array.from({ length: 150 }, (_, i) => codexTurn(i, `Step ${i} ${padding}`, project).join(''));
    await writeFile(file, `${codexMeta(session, project)}\n${turns.join('')}`);
    const size = (await stat(file)).size;
    expect(size).toBeGreaterThan(600_000);

    let watcher = startWatch(folder);
    const count = () => countOf(project);
    await eventually(count, (c) => c.runCount === 150, 'the large file recorded');
    expect(readsOf(watcher.log(), file)).toEqual([{ bytesRead: size, fresh: true }]);

    // It grows by one turn: only those bytes are read (in one read or more), none of what was there.
    const grown = codexTurn(150, 'One more step', project).join('');
    await appendFile(file, grown);
    await eventually(count, (c) => c.runCount === 151, 'the appended turn');
    const afterAppend = readsOf(watcher.log(), file).slice(1);
    expect(afterAppend.every((read) => !read.fresh)).toBe(true);
    expect(afterAppend.reduce((sum, read) => sum + read.bytesRead, 0)).toBe(Buffer.byteLength(grown));

    // Stopped, the file grows by two turns; started again, it reads just those, and records each once.
    watcher.child.kill('SIGTERM');
    expect(await watcher.stopped).toBe(0);
    const whileStopped = [codexTurn(151, 'Step while stopped', project), codexTurn(152, 'And another', project)]
      .map((lines) => lines.join(''))
      .join('');
    await appendFile(file, whileStopped);
    watcher = startWatch(folder);
    expect(await eventually(count, (c) => c.runCount === 153, 'the turns written while stopped')).toEqual({
      runCount: 153,
      newest: 'And another',
    });
    const resumed = readsOf(watcher.log(), file);
    expect(resumed.every((read) => !read.fresh)).toBe(true);
    expect(resumed.reduce((sum, read) => sum + read.bytesRead, 0)).toBe(Buffer.byteLength(whileStopped));

    // Another file takes its place under the same name (rotated in): it is read from its start.
    const next = `${codexMeta(session, project)}\n${codexTurn(160, 'After the rotation', project).join('')}`;
    await writeFile(`${file}.new`, next);
    await rename(`${file}.new`, file);
    await eventually(count, (c) => c.newest === 'After the rotation', 'the turn of the file rotated in');
    expect(readsOf(watcher.log(), file).at(-1)).toEqual({ bytesRead: Buffer.byteLength(next), fresh: true });
    expect((await count()).runCount).toBe(154);
    watcher.child.kill('SIGTERM');
    expect(await watcher.stopped).toBe(0);
  }, 120_000);
});

/** The project's one thread: how many runs it holds and the newest one's message. */
async function countOf(project: string): Promise<{ runCount: number; newest: string | null }> {
  const { threads } = await t.ok(
    `query($project: String!) { threads(filter: { project: $project }) { edges { node {
      runCount runs(last: 1) { edges { node { userMessage } } } } } } }`,
    { project },
    key,
  );
  const node = threads.edges[0]?.node;
  return { runCount: node?.runCount ?? 0, newest: node?.runs.edges[0]?.node.userMessage ?? null };
}

/** The reads the watcher logged of `file` (JSON lines on its stderr): bytes read and whether from the start. */
function readsOf(log: string, file: string): { bytesRead: number; fresh: boolean }[] {
  return log
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"bytesRead"'))
    .map((line) => JSON.parse(line) as { file: string; bytesRead: number; fresh: boolean })
    .filter((entry) => entry.file === file)
    .map(({ bytesRead, fresh }) => ({ bytesRead, fresh }));
}

async function threadId(): Promise<string> {
  const { threads } = await t.ok(
    `query($project: String!) { threads(filter: { project: $project }) { edges { node { id } } } }`,
    { project: PROJECT },
    key,
  );
  return threads.edges[0].node.id;
}
