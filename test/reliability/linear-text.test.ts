// The catastrophic-backtracking case of the redaction, over HTTP: a Codex turn whose user message is
// "token." repeated, sent as completeRun's raw events, once at the size that took 16 s and once at the
// longest line the service accepts. The run completes well within the test's bound (before the fix the
// first case alone blocked the service for 16 s), and /healthz, asked all the while, answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/api/validation.js';
import { codexTurn } from '../support/adversarialText.js';
import { startTestService, type TestService } from '../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

const COMPLETE_RUN = `mutation($input: CompleteRunInput!) { completeRun(input: $input) { status facts { kind text } } }`;

async function runningCodexRun(): Promise<string> {
  const { createThread } = await t.ok<{ createThread: { id: string } }>(
    'mutation { createThread(input: { title: "redos" }) { id } }',
  );
  const { startRun } = await t.ok<{ startRun: { run: { id: string } } }>(
    'mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }',
    { input: { threadId: createThread.id, provider: 'codex', userMessage: 'token.' } },
  );
  return startRun.run.id;
}

/** Asks /healthz one request after another until `work` settles; how many it answered meanwhile. */
async function healthzDuring<T>(work: Promise<T>): Promise<{ result: T; answered: number }> {
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  let answered = 0;
  const healthz = new URL('/healthz', t.service.url);
  do {
    const response = await fetch(healthz);
    expect(await response.json()).toEqual({ status: 'ok' });
    answered++;
  } while (!done);
  return { result: await settled, answered };
}

describe('raw events built to make redaction backtrack', () => {
  // The message line carries the text JSON-encoded, inside its record: the text is a little shorter.
  it.each([
    ['9,600 characters', 'token.'.repeat(1600)],
    ['the longest line', 'token.'.repeat(Math.floor((LIMITS.rawEventLine - 200) / 6))],
  ])('complete in linear time, /healthz answering meanwhile: %s', { timeout: 20_000 }, async (_name, text) => {
    const runId = await runningCodexRun();
    const lines = codexTurn(text);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(LIMITS.rawEventLine);
    const { result, answered } = await healthzDuring(
      t.gql<{ completeRun: { status: string; facts: { kind: string; text: string }[] } }>(COMPLETE_RUN, {
        input: { runId, assistantMessage: 'done', rawEvents: { format: 'CODEX', lines } },
      }),
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.completeRun.status).toBe('COMPLETED');
    // The failed command's output is kept, as a bounded excerpt that the redaction left as it was.
    const command = result.data!.completeRun.facts.find((fact) => fact.kind === 'COMMAND');
    expect(command?.text).toMatch(/^npm test \(exit 1\)/);
    expect(answered).toBeGreaterThan(0);
  });
});
