// docs/live-updates.md's client script runs as written on the Node this project supports (20 and
// newer): extracted from the page, run with tsx against a started service, it prints the change a
// startRun makes to the thread it follows.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { START_RUN } from '../support/lineage.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';

const page = readFileSync(join(projectRoot(), 'docs/live-updates.md'), 'utf8');
const script = /```ts\n([\s\S]*?)```/.exec(page)![1]!;
// Beside the project's node_modules, so that its imports resolve; .cache is not tracked.
const file = join(projectRoot(), '.cache', `${uniqueId('live-updates')}.ts`);

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
  await mkdir(join(projectRoot(), '.cache'), { recursive: true });
  await writeFile(file, script);
});
afterAll(async () => {
  await t?.close();
  await rm(file, { force: true });
});

describe('docs/live-updates.md', () => {
  it("runs as written, printing the thread's changes", async () => {
    const threadId = uniqueId('live-doc');
    await t.ok(`mutation($id: ID!) { createThread(input: { id: $id }) { id } }`, { id: threadId });
    const child = spawn(process.execPath, ['--import', 'tsx', file, threadId], {
      cwd: projectRoot(),
      env: { ...process.env, THREADLINE_URL: new URL(t.service.url).origin, THREADLINE_TOKEN: t.apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      // The script reads the thread when it has started (tsx compiles it first), then follows what comes
      // after: runs are started and completed here until it has printed a change.
      for (let i = 0; i < 20 && !output.includes('\n'); i++) {
        const { startRun } = await t.ok(START_RUN, {
          input: { threadId, provider: 'codex', userMessage: `Turn ${i}` },
        });
        await t.ok(`mutation($id: ID!) { completeRun(input: { runId: $id, assistantMessage: "Done" }) { id } }`, {
          id: startRun.run.id,
        });
        for (let j = 0; j < 15 && !output.includes('\n'); j++) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const [first] = output.trim().split('\n');
      expect(JSON.parse(first!), output).toMatchObject({
        sequence: expect.any(Number),
        kind: expect.stringMatching(/^RUN_(STARTED|COMPLETED)$/),
        resync: false,
        thread: { headOrdinal: expect.any(Number), runs: { edges: expect.arrayContaining([]) } },
      });
    } finally {
      child.kill();
    }
  });
});
