// previewRun over HTTP with the typed client: the plan and the exact context the following startRun
// delivers, and nothing written by the preview (the thread's nodes, relationships and change feed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreviewRunDocument, type PreviewRunQuery } from '../../client/index.js';
import { completeRun, createThread, refusal, startRun } from '../support/lineage.js';
import { settingsFile, startTestService, uniqueId, type TestService } from '../support/service.js';

const services: TestService[] = [];
let t: TestService;
beforeAll(async () => {
  t = await startTestService();
  services.push(t);
});
afterAll(async () => {
  for (const service of services) await service.close();
});

async function preview(service: TestService, threadId: string, provider: string, extra: object = {}) {
  return (await service.client.request(PreviewRunDocument, { input: { threadId, provider, ...extra } })).previewRun;
}

/** Everything the thread holds: its nodes, their relationships, and its change feed's position. */
async function footprint(service: TestService, threadId: string) {
  const { records } = await service.driver.executeQuery(
    `MATCH (n) WHERE n.threadId = $threadId OR n.id = $threadId
     OPTIONAL MATCH (n)-[r]-()
     WITH count(DISTINCT n) AS nodes, count(DISTINCT r) AS relationships
     MATCH (thread:Thread {id: $threadId})
     RETURN nodes, relationships, thread.changeSequence AS changes, thread.lastOrdinal AS lastOrdinal`,
    { threadId },
    { database: 'neo4j' },
  );
  return records[0]!.toObject();
}

/** Codex run 1 with facts a summary must keep; the next run may switch. */
async function threadWithFacts(service: TestService): Promise<string> {
  return (await codexRunWithFacts(service)).threadId;
}

async function codexRunWithFacts(service: TestService) {
  const threadId = await createThread(service, 'preview');
  const first = await startRun(service, threadId, 'codex', { userMessage: 'Add a streaming parser' });
  await completeRun(service, first.run.id, {
    facts: [
      { kind: 'GOAL', text: 'Ship the streaming parser' },
      { kind: 'FILE_CHANGE', text: 'src/stream.ts', file: { path: 'src/stream.ts', change: 'ADDED', additions: 40 } },
      { kind: 'COMMAND', text: 'npm test failed: 2 failing', key: 'npm test', status: 'failed' },
      { kind: 'QUESTION', text: 'Keep the legacy API?', key: 'q1', status: 'open' },
    ],
  });
  return { threadId, codexThread: first.providerThread.id as string };
}

function expectSameDelivery(seen: PreviewRunQuery['previewRun'], started: any) {
  expect(seen.context).toBe(started.dispatch.context);
  expect(seen.delivery).toBe(started.dispatch.delivery);
  expect(seen.providerThreadAction).toBe(started.dispatch.providerThreadAction);
  expect(seen.nativeThreadRef).toBe(started.dispatch.nativeThreadRef);
  expect(seen.plan).toEqual(started.plan);
}

describe('previewRun', () => {
  it('answers the context the following startRun delivers, and writes nothing', async () => {
    const threadId = await threadWithFacts(t);
    const before = await footprint(t, threadId);
    const seen = await preview(t, threadId, 'claude');
    const again = await preview(t, threadId, 'claude');
    expect(await footprint(t, threadId)).toEqual(before);
    expect(again).toEqual(seen);
    expect(seen.plan.decision).toBe('FULL_HANDOFF_NEW');
    expect(seen.context).toContain('src/stream.ts');
    expect(seen.pendingWriter).toBeNull();

    const started = await startRun(t, threadId, 'claude');
    expectSameDelivery(seen, started);
    expect(await footprint(t, threadId)).not.toEqual(before);
  });

  it('answers a delta back to the provider left, and the return resumes its native thread', async () => {
    const { threadId, codexThread } = await codexRunWithFacts(t);
    await t.ok(`mutation($input: BindProviderThreadInput!) { bindNativeThread(input: $input) { resumedBlank } }`, {
      input: { providerThreadId: codexThread, nativeThreadRef: uniqueId('codex-native') },
    });
    const onClaude = await startRun(t, threadId, 'claude');
    await completeRun(t, onClaude.run.id, {
      facts: [{ kind: 'COMMAND', text: 'npm test passed', key: 'npm test', status: 'passed' }],
    });
    const before = await footprint(t, threadId);
    const seen = await preview(t, threadId, 'codex');
    expect(await footprint(t, threadId)).toEqual(before);
    expect(seen.plan.decision).toBe('DELTA_HANDOFF');
    expect(seen.nativeThreadRef).toMatch(/^codex-native/);
    expectSameDelivery(seen, await startRun(t, threadId, 'codex'));
  });

  it('answers while a run is running, where startRun would refuse, and still writes nothing', async () => {
    const threadId = await threadWithFacts(t);
    const running = await startRun(t, threadId, 'claude');
    const before = await footprint(t, threadId);
    await preview(t, threadId, 'codex');
    expect(await footprint(t, threadId)).toEqual(before);
    await completeRun(t, running.run.id);
  });

  it('names the writer instead of a context when a provider is to write the summary', async () => {
    const service = await startTestService({
      THREADLINE_SUMMARIES_FILE: settingsFile({ providers: { claude: 'entering' } }),
    });
    services.push(service);
    const threadId = await threadWithFacts(service);
    const before = await footprint(service, threadId);
    const seen = await preview(service, threadId, 'claude');
    expect(await footprint(service, threadId)).toEqual(before);
    expect(seen).toMatchObject({ context: null, delivery: null, pendingWriter: 'provider:claude' });
    expectSameDelivery(seen, await startRun(service, threadId, 'claude'));
  });

  it('adds the reasons composing the context adds, as startRun records them (checkpoint fallback)', async () => {
    const service = await startTestService({
      THREADLINE_PROVIDERS_FILE: settingsFile({
        providers: [
          { id: 'claude', displayName: 'Claude, tiny budget', capabilities: { maxRecommendedHandoffChars: 600 } },
        ],
      }),
    });
    services.push(service);
    const threadId = await createThread(service);
    const run = await startRun(service, threadId, 'codex');
    await completeRun(service, run.run.id, {
      facts: Array.from({ length: 8 }, (_, i) => ({
        kind: 'DECISION',
        text: `Decision ${i}: ${'keep the module boundaries exactly as they are '.repeat(3)}`,
      })),
      checkpoint: { ref: 'ckpt-9', diffSummary: 'boundaries kept', files: [{ path: 'src/a.ts', change: 'MODIFIED' }] },
    });
    const seen = await preview(service, threadId, 'claude');
    expect(seen.plan.handoffStrategy).toBe('CHECKPOINT_SUMMARY');
    expect(seen.plan.reasons.join(' ')).toMatch(/checkpoint summary is sent instead/);
    expectSameDelivery(seen, await startRun(service, threadId, 'claude'));
  });

  it('refuses an unknown provider and an unknown thread with their codes', async () => {
    const threadId = await createThread(t);
    await refusal(preview(t, threadId, 'nobody'), 'BAD_USER_INPUT');
    await refusal(preview(t, uniqueId('missing'), 'codex'), 'NOT_FOUND');
  });
});
