// Every command block of README.md runs as written. Each ```sh block is either run here, twice (a
// newcomer may paste it again), with bash against a service this file started, or named below as
// covered elsewhere, with the reason. The environment is the one the README describes: THREADLINE_URL
// is the service's base URL and PORT its port; the import block's folders are in a HOME made for it.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { startTestService, type TestService } from '../support/service.js';
import { SINGLE_TENANT } from '../../src/config.js';

interface Block {
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  text: string;
}

/** The fenced blocks of a Markdown text. */
function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    if (end < 0) throw new Error(`README.md:${i + 1}: a fence that is never closed`);
    blocks.push({ line: i + 1, language: open[1]!, text: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** Blocks not run here, by their exact text, and where what they do is covered instead. */
const COVERED_ELSEWHERE = new Map<string, string>([
  [
    'npm install && npm start',
    'installs the dependencies and runs the service on port 4000 with its local Neo4j until Ctrl-C: CI installs the same way (.ci/run), ' +
      'this file starts the same service (test/support/service.ts), and the local Neo4j of npm start, its record and its stop are tested by ' +
      'test/own-neo4j/localNeo4j.test.ts and chooseNeo4j.test.ts',
  ],
  ['npm test', 'the whole test suite, this file included: it is what CI runs (.ci/run)'],
]);

/** Languages of blocks that are not commands. A block of any other language must be ```sh. */
const NOT_COMMANDS = new Set(['json']);

const README = readFileSync(join(projectRoot(), 'README.md'), 'utf8');
const blocks = fencedBlocks(README);
const commandBlocks = blocks.filter((block) => block.language === 'sh');
const runnable = commandBlocks.filter((block) => !COVERED_ELSEWHERE.has(block.text.trim()));

describe('README.md command blocks', () => {
  let t: TestService;
  let home: string;

  beforeAll(async () => {
    // The README's commands send no key, as a reader's first run does: a service without keys, which
    // writes under 'local' like theirs.
    t = await startTestService({}, { tenant: SINGLE_TENANT });
    // The import block reads the reader's own session folders: here they hold the test fixtures.
    home = await mkdtemp(join(tmpdir(), 'threadline-readme-home-'));
    const fixtures = join(projectRoot(), 'test/fixtures/sessions');
    await mkdir(join(home, '.claude', 'projects'), { recursive: true });
    await cp(join(fixtures, 'codex'), join(home, '.codex', 'sessions'), { recursive: true });
    await cp(join(fixtures, 'claude'), join(home, '.claude', 'projects', '-home-you-myapp'), { recursive: true });
  });

  afterAll(async () => {
    await t?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('are all ```sh, and each is run here or named as covered elsewhere', () => {
    for (const block of blocks)
      expect(
        block.language === 'sh' || NOT_COMMANDS.has(block.language),
        `README.md:${block.line} is a \`\`\`${block.language} block`,
      ).toBe(true);
    const texts = commandBlocks.map((block) => block.text.trim());
    for (const text of COVERED_ELSEWHERE.keys())
      expect(texts, `the README has no block ${JSON.stringify(text)} any more`).toContain(text);
    expect(runnable.length).toBeGreaterThanOrEqual(3);
  });

  it.each(runnable.map((block) => [block.line, block] as const))(
    'runs the block at README.md:%i as written, twice',
    async (_line, block) => {
      const origin = new URL(t.service.url).origin;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        THREADLINE_URL: origin,
        PORT: String(t.service.port),
        HOME: home,
      };
      delete env.THREADLINE_TOKEN;
      for (const time of ['first', 'second']) {
        const { code, output } = await bash(block.text, env);
        const where = `README.md:${block.line}, run a ${time} time, printed:\n${output}`;
        expect(code, where).toBe(0);
        // No GraphQL errors in an answer printed as it came (curl), and no HTML error page. (The demo shows
        // one refusal on purpose, in its own words; an unexpected one ends it with a non-zero exit code.)
        expect(output, where).not.toMatch(/"errors"\s*:/);
        expect(output, where).not.toMatch(/<!DOCTYPE html|<html/i);
        // Every curl of the block was answered with data.
        expect((output.match(/\{"data":/g) ?? []).length, where).toBeGreaterThanOrEqual(
          (block.text.match(/^curl /gm) ?? []).length,
        );
      }
    },
    600_000,
  );
});

/** Runs a block with bash, stopping at the first command that fails; resolves with its exit code and all it printed. */
function bash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-e', '-c', script],
      { cwd: projectRoot(), env, timeout: 540_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}
