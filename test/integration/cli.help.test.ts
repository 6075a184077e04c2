// Issue 28: `threadline <command> --help` only prints. Every subcommand's help is asked for, as the
// bin runs it, and nothing may change: the tracked files and the files next to them (git status),
// the default store, a store named with --data-dir, and the temporary folder (but for tsx's cache).
// And a stopped `npm run import` (npm, its shell, the bin) leaves no process of it running (issue 27).
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/graph/projectRoot.js';

const run = promisify(execFile);
const CLAUDE = '7d3c6a52-1b7e-4a55-9c39-4d1f0e2b8a61';
const root = projectRoot();
const COMMANDS = [
  'start',
  'import',
  'watch',
  'handoff',
  'threads',
  'mcp',
  'query',
  'export',
  'audit',
  'backup',
  'restore',
  'demo',
  'bench',
];

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'threadline-cli-help-'));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Every file under a folder with its size and modification time; nothing when it does not exist. */
async function snapshot(folder: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const entries = await readdir(folder, { recursive: true });
  return Promise.all(
    entries.sort().map(async (entry) => {
      const info = await stat(join(folder, entry)).catch(() => null);
      return `${entry} ${info?.size} ${info?.mtimeMs}`;
    }),
  );
}

const gitStatus = async () =>
  (await run('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root })).stdout;

describe('threadline --help', () => {
  it('prints every command, and each command its usage, writing nothing anywhere', async () => {
    const temp = join(work, 'tmp');
    await run('mkdir', [temp]);
    const store = join(work, 'store');
    const before = { git: await gitStatus(), store: await snapshot(join(root, '.threadline')) };
    // The children's temporary folder is one of their own, so that anything written there is seen.
    const env = { ...process.env, TMPDIR: temp, NEO4J_URI: '', THREADLINE_DATA_DIR: '' };

    const top = await run(process.execPath, ['bin/threadline.js', '--help'], { cwd: root, env });
    for (const command of COMMANDS) expect(top.stdout).toContain(`  ${command} `);

    for (const command of COMMANDS) {
      const args = ['bin/threadline.js', command, '--help', '--data-dir', store];
      const { stdout } = await run(process.execPath, args, { cwd: root, env, timeout: 60_000 });
      expect(stdout, command).toContain(`Usage: threadline ${command} `);
      // A tool's own usage, printed after the command's, names the command as the user types it.
      expect(stdout, command).not.toContain('npm run ');
    }

    expect(await gitStatus()).toBe(before.git);
    expect(await snapshot(join(root, '.threadline'))).toEqual(before.store);
    expect(existsSync(store)).toBe(false);
    // tsx's compile cache of the TypeScript it loaded (kept between runs, the same for every command) is
    // the one thing allowed there.
    expect((await readdir(temp)).filter((entry) => !/^tsx-\d+$/.test(entry))).toEqual([]);
  });

  it("prints the npm scripts' usage as npm runs them, writing nothing", async () => {
    const before = { git: await gitStatus(), perspective: await stat(join(root, 'docs/bloom-perspective.json')) };
    for (const [script, tool] of [
      ['fuzz', 'tools/fuzz.ts'],
      ['eval:handoffs', 'tools/evalHandoffs.ts'],
      ['bloom:perspective', 'tools/bloomPerspective.ts'],
      ['bench:throughput', 'bench/commands/throughput.ts'],
      ['bench:answer-size', 'bench/answerSize.ts'],
    ]) {
      const args = ['--import', 'tsx', tool!, '--help'];
      const { stdout } = await run(process.execPath, args, { cwd: root, timeout: 60_000 });
      expect(stdout, script).toMatch(new RegExp(`^Usage: npm run ${script}\\b`));
      const failure = await run(process.execPath, [...args.slice(0, -1), '--sideways'], { cwd: root }).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure, script).toMatchObject({ code: 2, stderr: expect.stringContaining(`Usage: npm run ${script}`) });
    }
    expect(await gitStatus()).toBe(before.git);
    expect((await stat(join(root, 'docs/bloom-perspective.json'))).mtimeMs).toBe(before.perspective.mtimeMs);
  });

  it('leaves no process behind when npm run import is stopped mid-import', async () => {
    // A service that accepts the connection and never answers: the import waits on it until stopped.
    let asked: () => void;
    const connected = new Promise<void>((resolve) => (asked = resolve));
    const silent = createServer(() => asked());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const marker = join(work, `marker-${process.pid}.jsonl`);
    await writeFile(marker, await readFile(join(root, 'test/fixtures/sessions/claude', `${CLAUDE}.jsonl`), 'utf8'));
    try {
      const npm = spawn('npm', ['run', '--silent', 'import', '--', '--url', url, marker], {
        cwd: root,
        stdio: 'ignore',
      });
      const running = async () =>
        (await run('ps', ['-eo', 'pid,ppid,stat,args'])).stdout.split('\n').filter((line) => line.includes(marker));
      await connected; // the import is under way, waiting for the service's answer
      expect((await running()).some((line) => line.includes('bin/threadline.js'))).toBe(true);
      npm.kill('SIGTERM');
      for (let i = 0; i < 50 && (await running()).length > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await running(), 'processes left').toEqual([]);
    } finally {
      silent.close();
    }
  });

  it('answers a usage error with exit status 2 and the way to the help', async () => {
    const failure = await run(process.execPath, ['bin/threadline.js', 'import', '--split', 'sideways', 'x'], {
      cwd: root,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain('Allowed choices are project, session, none');
    // The benchmark takes hours and rewrites docs/benchmarks.md: a misspelt option stops it before any work.
    const misspelt = await run(process.execPath, ['bin/threadline.js', 'bench', '--iteration', '20'], {
      cwd: root,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(misspelt).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--iteration'") });
    expect((misspelt as { stderr: string }).stderr).toContain('Usage: threadline bench');
  });
});
