// The catastrophic-backtracking case of the redaction, over HTTP: a Codex turn whose user message is
// "token." repeated, sent as completeRun's raw events, once at the size that took 16 s and once at the
// longest line the service accepts. The run completes in about the time of plain text of the same
// length (before the fix the first case alone blocked the service for 16 s), /healthz answering.
// Then a body of raw events near the 1 MB limit: reading it leaves /healthz answering all along.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/api/validation.js';
import { codexTurn, commandsTurn } from '../support/adversarialText.js';
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

/**
 * Asks /healthz one request after another until `work` settles, each answer checked: the longest wait
 * from one answer (or the start) to the next, and how long `work` took.
 */
async function healthzDuring<T>(work: () => Promise<T>): Promise<{ result: T; longestWait: number; took: number }> {
  let done = false;
  const start = performance.now();
  let took = 0;
  const settled = work().finally(() => {
    done = true;
    took = performance.now() - start;
  });
  let longestWait = 0;
  let last = start;
  const healthz = new URL('/healthz', t.service.url);
  do {
    const response = await fetch(healthz);
    expect(await response.json()).toEqual({ status: 'ok' });
    longestWait = Math.max(longestWait, performance.now() - last);
    last = performance.now();
  } while (!done);
  return { result: await settled, longestWait, took };
}

describe('raw events built to make redaction backtrack', () => {
  // The message line carries the text JSON-encoded, inside its record: the text is a little shorter.
  it.each([
    ['9,600 characters', 'token.'.repeat(1600)],
    ['the longest line', 'token.'.repeat(Math.floor((LIMITS.rawEventLine - 200) / 6))],
  ])('complete in linear time, /healthz answering meanwhile: %s', { timeout: 20_000 }, async (_name, text) => {
    const complete = async (lines: string[]) => {
      const runId = await runningCodexRun();
      return healthzDuring(() =>
        t.gql<{ completeRun: { status: string; facts: { kind: string; text: string }[] } }>(COMPLETE_RUN, {
          input: { runId, assistantMessage: 'done', rawEvents: { format: 'CODEX', lines } },
        }),
      );
    };
    const lines = codexTurn(text);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(LIMITS.rawEventLine);
    // The same turn with plain text of the same length: what linear work takes for it.
    const plain = await complete(codexTurn('a'.repeat(text.length)));
    const { result, took } = await complete(lines);
    expect(result.errors).toBeUndefined();
    expect(result.data?.completeRun.status).toBe('COMPLETED');
    // The failed command's output is kept, as a bounded excerpt that the redaction left as it was.
    const command = result.data!.completeRun.facts.find((fact) => fact.kind === 'COMMAND');
    expect(command?.text).toMatch(/^npm test \(exit 1\)/);
    // Before the fix the backtracking text took 16 s at 9,600 characters, hours at the longest line.
    expect(took / plain.took).toBeLessThan(10);
  });
});

describe('raw events near the body limit', () => {
  // A turn of many commands, half of them failing, with their outputs: about a megabyte of JSON.
  const lines = commandsTurn('npm test -- case 1 passed Tests: 1 failed token=abcdef1234 '.repeat(10_800));
  const body = JSON.stringify({
    query: COMPLETE_RUN,
    variables: { input: { runId: '', assistantMessage: 'done', rawEvents: { format: 'CODEX', lines } } },
  });

  it('are read in slices: /healthz waits a small part of the request at most', { timeout: 60_000 }, async () => {
    expect(body.length).toBeGreaterThan(0.9 * 1024 * 1024);
    expect(body.length).toBeLessThan(1024 * 1024);
    expect(lines.length).toBeLessThanOrEqual(LIMITS.rawEventLines);
    const runId = await runningCodexRun();
    const request = body.replace('"runId":""', `"runId":${JSON.stringify(runId)}`);
    const { result, longestWait, took } = await healthzDuring(async () => {
      const response = await fetch(t.service.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t.apiKey}` },
        body: request,
      });
      return (await response.json()) as { data?: { completeRun: { status: string } }; errors?: unknown };
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?.completeRun.status).toBe('COMPLETED');
    // Read in one go, the body held the event loop for most of the request: 0.93 of it before the
    // slices and the fix of the comparison of commands, 0.66 with that fix alone.
    expect(longestWait / took).toBeLessThan(0.4);
  });
});
