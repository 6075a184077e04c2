// How fast `threadline import` records sessions: a synthetic Codex rollout and a synthetic Claude
// Code session of a given size, shaped like a day's work (bench/sessionShapes.ts), each imported by
// the CLI of a source tree into a fresh thread through that tree's service, timed from the command's
// start to its end.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClockWindow } from './cpuProfile.js';
import { cpuMs } from './serviceProcess.js';
import { writeClaudeSession, writeCodexRollout } from './sessionShapes.js';

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
