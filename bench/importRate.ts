// How fast `threadline import` records sessions: a synthetic Codex rollout and a synthetic Claude
// Code session of a given size (written here from the record shapes of test/fixtures/sessions, big
// tool outputs as real sessions have, never committed), each imported by the CLI of a source tree
// into a fresh thread through that tree's service, timed from the command's start to its end.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClockWindow } from './cpuProfile.js';
import { cpuMs } from './serviceProcess.js';

export interface ImportRate {
  variant: string;
  format: 'codex' | 'claude';
  mib: number;
  turns: number;
  seconds: number;
  mibPerSecond: number;
  runsImported: number;
  /** CPU seconds the tree's service process and Neo4j used during the import; NaN when /proc did not say. */
  serviceCpuSeconds: number;
  neo4jCpuSeconds: number;
  load: number;
}

/** About this much of every turn is the tool's output, as in a session that reads files and runs tests. */
const OUTPUT_CHARS = 24_000;

const filler = (turn: number, chars: number) => {
  const line = `line ${turn}: src/module${turn % 97}.ts passes its checks; nothing else to report here.\n`;
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
};

const at = (turn: number, step: number) => new Date(Date.UTC(2025, 5, 1) + turn * 60_000 + step * 1000).toISOString();

async function writeLines(file: string, targetBytes: number, line: (turn: number) => string[]): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  let turn = 0;
  while (bytes < targetBytes) {
    for (const record of line(turn)) {
      const text = `${record}\n`;
      bytes += Buffer.byteLength(text);
      if (!out.write(text)) await once(out, 'drain');
    }
    turn++;
  }
  out.end();
  await once(out, 'finish');
  return turn;
}

/** A Codex rollout: session_meta, then per turn its context, the user's message, a shell call with a long output and the answer. */
function writeCodexRollout(file: string, bytes: number, sessionId: string): Promise<number> {
  const cwd = '/home/dev/bench';
  return writeLines(file, bytes, (turn) => [
    ...(turn === 0
      ? [
          JSON.stringify({
            timestamp: at(0, 0),
            type: 'session_meta',
            payload: { id: sessionId, timestamp: at(0, 0), cwd, originator: 'codex_cli_rs', cli_version: '0.40.0' },
          }),
        ]
      : []),
    JSON.stringify({
      timestamp: at(turn, 1),
      type: 'turn_context',
      payload: {
        turn_id: `turn-${turn}`,
        cwd,
        approval_policy: 'on-request',
        sandbox_policy: { type: 'workspace-write' },
        model: 'gpt-5-codex',
      },
    }),
    JSON.stringify({
      timestamp: at(turn, 1),
      type: 'event_msg',
      payload: { type: 'task_started', turn_id: `turn-${turn}` },
    }),
    JSON.stringify({
      timestamp: at(turn, 2),
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: `Step ${turn}: run the tests and fix what fails` }],
      },
    }),
    JSON.stringify({
      timestamp: at(turn, 2),
      type: 'event_msg',
      payload: { type: 'user_message', message: `Step ${turn}: run the tests and fix what fails`, images: [] },
    }),
    JSON.stringify({
      timestamp: at(turn, 3),
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', 'npm test'], workdir: cwd }),
        call_id: `call-${turn}`,
      },
    }),
    JSON.stringify({
      timestamp: at(turn, 4),
      type: 'response_item',
      payload: {
        type: 'function_call_output',
        call_id: `call-${turn}`,
        output: JSON.stringify({
          output: filler(turn, OUTPUT_CHARS),
          metadata: { exit_code: 0, duration_seconds: 1.2 },
        }),
      },
    }),
    JSON.stringify({
      timestamp: at(turn, 5),
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: `Step ${turn}: the tests pass.` }],
      },
    }),
    JSON.stringify({
      timestamp: at(turn, 5),
      type: 'event_msg',
      payload: { type: 'task_complete', turn_id: `turn-${turn}` },
    }),
  ]);
}

/** A Claude Code session: per turn the user's prompt, a Bash tool call, its long result and the answer, each record chained to the one before. */
function writeClaudeSession(file: string, bytes: number, sessionId: string): Promise<number> {
  const cwd = '/home/dev/bench';
  const record = (turn: number, step: number, type: 'user' | 'assistant', message: unknown) =>
    JSON.stringify({
      parentUuid: turn === 0 && step === 0 ? null : step === 0 ? `u-${turn - 1}-3` : `u-${turn}-${step - 1}`,
      isSidechain: false,
      userType: 'external',
      cwd,
      sessionId,
      version: '2.0.0',
      type,
      message,
      uuid: `u-${turn}-${step}`,
      timestamp: at(turn, step),
    });
  const model = 'claude-sonnet-4-5-20250929';
  return writeLines(file, bytes, (turn) => [
    record(turn, 0, 'user', { role: 'user', content: `Step ${turn}: run the tests and fix what fails` }),
    record(turn, 1, 'assistant', {
      id: `msg-${turn}-a`,
      role: 'assistant',
      model,
      content: [{ type: 'tool_use', id: `toolu-${turn}`, name: 'Bash', input: { command: 'npm test' } }],
    }),
    record(turn, 2, 'user', {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `toolu-${turn}`, content: filler(turn, OUTPUT_CHARS) }],
    }),
    record(turn, 3, 'assistant', {
      id: `msg-${turn}-b`,
      role: 'assistant',
      model,
      content: [{ type: 'text', text: `Step ${turn}: the tests pass.` }],
    }),
  ]);
}

/** One `threadline import` of `file` into thread `threadId` by the CLI of `root` against `url`; its summary. */
async function importWithCli(
  root: string,
  url: string,
  file: string,
  threadId: string,
  profileDir: string | null,
): Promise<{ runsImported: number }> {
  const profiling = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const child = spawn(
    process.execPath,
    [...profiling, join(root, 'bin/threadline.js'), 'import', '--url', url, '--thread', threadId, '--json', file],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`threadline import of ${file} failed (${code}):\n${stderr.slice(-2000)}`);
  return { runsImported: (JSON.parse(stdout) as { runsImported: number }).runsImported };
}

export interface ImportTarget {
  variant: string;
  root: string;
  url: string;
  /** The service process the import goes to, whose CPU time is read. */
  pid: number;
}

/**
 * Each format's file imported once per tree, the trees alternating, each into a thread of its own;
 * the files are written once and removed at the end.
 */
export async function measureImportRate(
  targets: ImportTarget[],
  mib: { codex: number; claude: number },
  prefix: string,
  loadNow: () => number,
  log: (line: string) => void,
  neo4jPid: number | null,
  /** Where the import commands write their CPU profiles; null: not profiled. */
  profileDir: string | null,
  /** Told the clock window of each import, by tree. */
  timed: (variant: string, window: ClockWindow) => void,
): Promise<ImportRate[]> {
  const dir = mkdtempSync(join(tmpdir(), 'threadline-import-bench-'));
  const rates: ImportRate[] = [];
  let written = 0;
  /** A session file of its own per import: importing the same native session into a second thread is refused. */
  const writeSession = async (format: 'codex' | 'claude', bytes: number) => {
    const sessionId = `0197c0de-${format === 'codex' ? '0b0b' : '0c0c'}-7000-8000-${(Date.now() * 100 + written++).toString(16).padStart(12, '0').slice(-12)}`;
    const file = join(dir, `${format === 'codex' ? `rollout-2025-06-01T00-00-00-${sessionId}` : sessionId}.jsonl`);
    const turns = await (format === 'codex' ? writeCodexRollout : writeClaudeSession)(file, bytes, sessionId);
    return { file, turns };
  };
  try {
    // Warm-up, untimed: each tree's import path compiled, in the command and in the service, and
    // Neo4j's plans for its statements cached, before anything is timed.
    for (const format of ['codex', 'claude'] as const)
      for (const { variant, root, url } of targets) {
        const { file } = await writeSession(format, 2 ** 20);
        await importWithCli(root, url, file, `${prefix}-${variant}-${format}-warm`, null);
      }
    for (const format of ['codex', 'claude'] as const) {
      const bytes = mib[format] * 2 ** 20;
      const files = new Map<string, { file: string; turns: number }>();
      for (const { variant } of targets) files.set(variant, await writeSession(format, bytes));
      for (const { variant, root, url, pid } of targets) {
        const { file, turns } = files.get(variant)!;
        const size = statSync(file).size / 2 ** 20;
        log(`importing a ${size.toFixed(1)} MiB ${format} session (${turns} turns) with the ${variant} tree`);
        const started = performance.now();
        const window: ClockWindow = { fromNs: process.hrtime.bigint(), toNs: 0n };
        const [serviceBefore, neo4jBefore] = [cpuMs(pid), neo4jPid === null ? null : cpuMs(neo4jPid)];
        const { runsImported } = await importWithCli(root, url, file, `${prefix}-${variant}-${format}`, profileDir);
        const seconds = (performance.now() - started) / 1000;
        window.toNs = process.hrtime.bigint();
        timed(variant, window);
        const cpuSeconds = (before: number | null, after: number | null) =>
          before === null || after === null ? NaN : Math.round((after - before) / 100) / 10;
        const rate: ImportRate = {
          variant,
          format,
          mib: Math.round(size * 10) / 10,
          turns,
          seconds: Math.round(seconds * 10) / 10,
          mibPerSecond: Math.round((size / seconds) * 100) / 100,
          runsImported,
          serviceCpuSeconds: cpuSeconds(serviceBefore, cpuMs(pid)),
          neo4jCpuSeconds: cpuSeconds(neo4jBefore, neo4jPid === null ? null : cpuMs(neo4jPid)),
          load: loadNow(),
        };
        rates.push(rate);
        log(
          `  ${variant} ${format}: ${rate.seconds} s, ${rate.mibPerSecond} MiB/s, ${runsImported} runs, CPU: service ${rate.serviceCpuSeconds} s, Neo4j ${rate.neo4jCpuSeconds} s, load ${rate.load.toFixed(2)}`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rates;
}
