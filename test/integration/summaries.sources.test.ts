// Every summary source of the design through GraphQL: the provider entered or left (PENDING until
// submitted), a configured chat-completions summarizer (against a local test server), the local
// fallback when they fail or never answer, regeneration chains, manual context, checkpoint summaries
// and omissions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatCompletionsServer, type ChatCompletionsServer } from '../support/chatCompletionsServer.js';
import { manualClock } from '../support/clock.js';
import {
  codeOf,
  settingsFile,
  startTestService,
  type DriverFaults,
  type TestService,
  type TestServiceOptions,
} from '../support/service.js';
import {
  HANDOFF_FIELDS,
  START_RUN,
  completeRun,
  coverage,
  createThread,
  expectCode,
  startRun,
} from '../support/lineage.js';
import { fileTenant } from '../support/tenants.js';

const PROVENANCE = `${HANDOFF_FIELDS} source inputDigest budgetChars length requestedAt writtenAt usedAt failureReason omissions endedBecause endedAt
  summaryRequest { handoffId writer targetProvider strategy document budgetChars }`;
const HANDOFF = `query($id: ID!) { contextHandoff(id: $id) { ${PROVENANCE} } }`;
const SUBMIT = `mutation($input: SubmitHandoffSummaryInput!) { submitHandoffSummary(input: $input) { ${PROVENANCE} } }`;
const REGENERATE = `mutation($input: RegenerateHandoffInput!) { regenerateHandoff(input: $input) { ${PROVENANCE} } }`;
const RUN_CONTEXT = `query($id: ID!) { run(id: $id) { plan { reasons handoffStrategy } contextHandoff { ${PROVENANCE} } dispatch { context delivery } } }`;

let summarizerServer: ChatCompletionsServer;
const services: TestService[] = [];
async function serviceWith(
  summaries: unknown,
  providers?: unknown,
  options?: TestServiceOptions,
): Promise<TestService> {
  const env: Record<string, string> = { THREADLINE_SUMMARIES_FILE: settingsFile(summaries) };
  if (providers) env.THREADLINE_PROVIDERS_FILE = settingsFile(providers);
  const service = await startTestService(env, options);
  services.push(service);
  return service;
}

beforeAll(async () => {
  summarizerServer = await startChatCompletionsServer();
  process.env.TEST_SUMMARIZER_KEY = 'sk-test-summarizer-key-0001';
});
afterAll(async () => {
  for (const service of services) await service.close();
  await summarizerServer?.close();
});

/** What the graph keeps of a handoff's input document: the document (null when not kept) and its digest. */
async function storedInput(t: TestService, handoffId: string) {
  const { records } = await t.driver.executeQuery(
    'MATCH (h:ContextHandoff {id: $handoffId}) RETURN h.inputDocument AS document, h.inputDigest AS digest',
    { handoffId },
    { database: 'neo4j' },
  );
  return records[0]!.toObject() as { document: string | null; digest: string | null };
}

/** Codex run 1 with facts a summary must keep; the next run is on `provider`. */
async function threadWithFacts(t: TestService) {
  const threadId = await createThread(t, 'facts');
  const first = await startRun(t, threadId, 'codex');
  await completeRun(t, first.run.id, {
    facts: [
      { kind: 'GOAL', text: 'Ship the streaming parser' },
      { kind: 'FILE_CHANGE', text: 'src/stream.ts', key: 'src/stream.ts', status: 'added' },
      { kind: 'COMMAND', text: 'npm run build passed', key: 'npm run build' },
      { kind: 'QUESTION', text: 'Keep the legacy API?', key: 'q1', status: 'open' },
    ],
  });
  return threadId;
}

describe('the provider being entered or left writes the summary', () => {
  it('entering: PENDING with a summary request, then READY on submission, with omissions appended', async () => {
    const t = await serviceWith({ providers: { claude: 'entering' } });
    const threadId = await threadWithFacts(t);
    const started = (
      await t.ok(
        START_RUN.replace(
          'handoff {',
          `handoff { source summaryRequest { writer targetProvider strategy document budgetChars } `,
        ),
        { input: { threadId, provider: 'claude', userMessage: 'continue' } },
      )
    ).startRun;
    expect(started.handoff).toMatchObject({
      status: 'PENDING',
      createdByProvider: 'claude',
      source: 'provider:claude',
      summaryText: '',
    });
    expect(started.handoff.summaryRequest).toMatchObject({
      writer: 'claude',
      targetProvider: 'claude',
      strategy: 'FULL_THREAD_SUMMARY',
      budgetChars: 32000,
    });
    expect(started.handoff.summaryRequest.document).toContain('src/stream.ts');
    // Kept while its writer has to read it, and only then: it holds the covered history whole.
    expect((await storedInput(t, started.handoff.id)).document).toBe(started.handoff.summaryRequest.document);
    expect(started.dispatch).toMatchObject({ context: null, delivery: null });
    expect(started.plan.reasons.join(' ')).toMatch(/claude \(the entering provider\) is asked/);

    const over = await expectCode(
      t.gql(SUBMIT, {
        input: { handoffId: started.handoff.id, summaryText: 'x'.repeat(32001), createdByProvider: 'claude' },
      }),
      'BAD_USER_INPUT',
    );
    expect(over.errors![0]!.message).toMatch(/32000/);
    // Like many model-written summaries, it drops a file path and an open question.
    const text = 'Goal: ship the streaming parser; npm run build passed.';
    const ready = (
      await t.ok(SUBMIT, { input: { handoffId: started.handoff.id, summaryText: text, createdByProvider: 'claude' } })
    ).submitHandoffSummary;
    expect(ready).toMatchObject({
      status: 'READY',
      createdByProvider: 'claude',
      omissions: ['file: src/stream.ts', 'question: Keep the legacy API?'],
      summaryRequest: null,
    });
    expect(ready.summaryText.startsWith(text)).toBe(true);
    expect(ready.summaryText).toContain(
      '## Facts not in the summary above\n- file: src/stream.ts\n- question: Keep the legacy API?',
    );
    expect(ready.length).toBe(ready.summaryText.length);
    expect(ready.writtenAt).not.toBeNull();
    expect(await storedInput(t, started.handoff.id)).toEqual({ document: null, digest: ready.inputDigest });
    const run = (await t.ok(RUN_CONTEXT, { id: started.run.id })).run;
    expect(run.dispatch).toEqual({ context: ready.summaryText, delivery: 'SYSTEM' });
    await expectCode(
      t.gql(SUBMIT, { input: { handoffId: started.handoff.id, summaryText: 'again', createdByProvider: 'claude' } }),
      'CONFLICT',
    );
  });

  it('leaving: the provider that served the last run is asked', async () => {
    const t = await serviceWith({ default: 'leaving' });
    const threadId = await threadWithFacts(t);
    const started = await startRun(t, threadId, 'claude');
    const handoff = (await t.ok(HANDOFF, { id: started.handoff.id })).contextHandoff;
    expect(handoff).toMatchObject({
      status: 'PENDING',
      createdByProvider: 'codex',
      source: 'provider:codex',
      summaryRequest: { writer: 'codex', targetProvider: 'claude' },
    });
  });

  it('a PENDING handoff not submitted in time FAILS and a local summary supersedes it', async () => {
    const clock = manualClock();
    const t = await serviceWith({ default: 'entering', pendingTimeoutSeconds: 1 }, undefined, {
      clock,
      tenant: fileTenant('expiry-timeout'),
    });
    const threadId = await threadWithFacts(t);
    const started = await startRun(t, threadId, 'claude');
    // A sweep half a timeout on leaves it pending; one a minute on (past its timeout, however long
    // the test took so far) replaces it.
    await clock.advance(500);
    expect((await t.ok(HANDOFF, { id: started.handoff.id })).contextHandoff.status).toBe('PENDING');
    await clock.advance(60_000);
    const run = (await t.ok(RUN_CONTEXT, { id: started.run.id })).run;
    expect(run.contextHandoff).toMatchObject({
      status: 'READY',
      source: 'local',
      createdByProvider: null,
      supersedes: { id: started.handoff.id },
    });
    const failed = (await t.ok(HANDOFF, { id: started.handoff.id })).contextHandoff;
    expect(failed).toMatchObject({
      status: 'FAILED',
      failureReason: 'not submitted within 1 s',
      supersededBy: { id: run.contextHandoff.id },
      endedBecause: 'EXPIRED',
    });
    expect(Date.parse(failed.endedAt)).toBeGreaterThan(0);
    // Neither the failed one nor the local one that replaced it keeps an input document; both keep its digest.
    for (const id of [started.handoff.id, run.contextHandoff.id])
      expect(await storedInput(t, id)).toEqual({ document: null, digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(run.plan.reasons.join(' ')).toMatch(/failed \(not submitted within 1 s\); a local summary replaced it/);
    expect(run.dispatch.context).toBe(run.contextHandoff.summaryText);
  });
});

describe('a configured chat-completions summarizer', () => {
  const summaries = (timeoutMs = 2000) => ({
    default: 'fast',
    summarizers: {
      fast: { baseUrl: summarizerServer.url, model: 'summary-model-1', apiKeyEnv: 'TEST_SUMMARIZER_KEY', timeoutMs },
    },
  });

  it('writes the handoff from the structured document, checked for omissions', async () => {
    const t = await serviceWith(summaries());
    const threadId = await threadWithFacts(t);
    summarizerServer.requests.length = 0;
    summarizerServer.setMode({ kind: 'reply', content: 'Parser work: src/stream.ts was added.' });
    const started = await startRun(t, threadId, 'claude');
    expect(summarizerServer.requests).toHaveLength(1);
    const request = summarizerServer.requests[0]!;
    expect(request.headers.authorization).toBe('Bearer sk-test-summarizer-key-0001');
    const body = request.body as { model: string; temperature: number; messages: { content: string }[] };
    expect(body).toMatchObject({ model: 'summary-model-1', temperature: 0 });
    expect(body.messages[1]!.content).toContain('Keep the legacy API?');
    const handoff = (await t.ok(HANDOFF, { id: started.handoff.id })).contextHandoff;
    expect(handoff).toMatchObject({
      status: 'READY',
      source: 'configured:fast',
      createdByProvider: 'fast',
      omissions: ['command: npm run build', 'question: Keep the legacy API?'],
    });
    expect(handoff.summaryText.startsWith('Parser work: src/stream.ts was added.')).toBe(true);
    expect(handoff.summaryText.length).toBeLessThanOrEqual(32000);
    expect(handoff.inputDigest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('falls back to a local summary when the summarizer errors or times out', async () => {
    const t = await serviceWith(summaries(1500));
    for (const mode of [
      { kind: 'fail' as const, status: 500 },
      { kind: 'slow' as const, delayMs: 6000, content: 'late' },
    ]) {
      const threadId = await threadWithFacts(t);
      summarizerServer.setMode(mode);
      const started = await startRun(t, threadId, 'claude');
      const run = (await t.ok(RUN_CONTEXT, { id: started.run.id })).run;
      expect(run.contextHandoff).toMatchObject({ status: 'READY', source: 'local', createdByProvider: null });
      const failed = (await t.ok(HANDOFF, { id: run.contextHandoff.supersedes.id })).contextHandoff;
      expect(failed.status).toBe('FAILED');
      expect(failed.failureReason).toMatch(mode.kind === 'fail' ? /http/ : /timeout/);
      expect(failed.failureReason).not.toContain('sk-test-summarizer-key-0001');
      expect(run.plan.reasons.join(' ')).toMatch(/summarizer fast failed/);
      expect(run.dispatch.context).toContain('Keep the legacy API?');
    }
    summarizerServer.setMode({ kind: 'reply', content: 'canned summary' });
  });

  it('a summary that arrives after its handoff expired is dropped; the start and the regeneration still answer', async () => {
    // The summarizer answers well within its own timeout, but after the pending timeout: the sweep
    // replaces the handoff first. The run was started (and the handoff regenerated) all the same.
    const clock = manualClock();
    const t = await serviceWith({ ...summaries(20_000), pendingTimeoutSeconds: 1 }, undefined, {
      clock,
      tenant: fileTenant('expiry-late'),
    });
    const threadId = await threadWithFacts(t);
    /** `request`'s answer, with the summarizer holding its summary until a sweep a minute on has run. */
    const answeredAfterExpiry = async <T>(request: () => Promise<T>): Promise<T> => {
      let release = () => {};
      const until = new Promise<void>((resolve) => (release = resolve));
      summarizerServer.requests.length = 0;
      summarizerServer.setMode({ kind: 'gated', until, content: 'too late' });
      const answer = request();
      while (summarizerServer.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await clock.advance(60_000);
      release();
      return answer;
    };
    const started = (
      await answeredAfterExpiry(() =>
        t.ok(START_RUN, { input: { threadId, provider: 'claude', userMessage: 'continue' } }),
      )
    ).startRun;
    const run = (await t.ok(RUN_CONTEXT, { id: started.run.id })).run;
    expect(started.handoff).toMatchObject({ id: run.contextHandoff.id, status: 'READY' });
    expect(run.contextHandoff).toMatchObject({ status: 'READY', source: 'local' });
    const expired = (await t.ok(HANDOFF, { id: run.contextHandoff.supersedes.id })).contextHandoff;
    expect(expired).toMatchObject({
      status: 'FAILED',
      endedBecause: 'EXPIRED',
      source: 'configured:fast',
      summaryText: '',
    });

    const regenerated = (
      await answeredAfterExpiry(() => t.ok(REGENERATE, { input: { handoffId: run.contextHandoff.id } }))
    ).regenerateHandoff;
    expect(regenerated).toMatchObject({
      status: 'FAILED',
      endedBecause: 'EXPIRED',
      source: 'configured:fast',
      supersedes: { id: run.contextHandoff.id },
    });
    const after = (await t.ok(RUN_CONTEXT, { id: started.run.id })).run;
    expect(after.contextHandoff).toMatchObject({
      status: 'READY',
      source: 'local',
      supersedes: { id: regenerated.id },
    });
    summarizerServer.setMode({ kind: 'reply', content: 'canned summary' });
  });
});

describe('a committed run whose summarizer write fails', () => {
  it('is answered with its handoff PENDING, and a retry meets the run it started', async () => {
    const faults: DriverFaults = { failWrites: false };
    const t = await serviceWith(
      {
        default: 'fast',
        summarizers: {
          fast: { baseUrl: summarizerServer.url, model: 'summary-model-1', apiKeyEnv: 'TEST_SUMMARIZER_KEY' },
        },
      },
      undefined,
      { faults },
    );
    const threadId = await threadWithFacts(t);
    summarizerServer.requests.length = 0;
    let release = () => {};
    const until = new Promise<void>((resolve) => (release = resolve));
    summarizerServer.setMode({ kind: 'gated', until, content: 'written while the graph refuses writes' });
    const input = { threadId, provider: 'claude', userMessage: 'continue' };
    const answer = t.gql(START_RUN, { input });
    // The summarizer is asked only once the run's transaction committed: from then on, writes fail.
    while (summarizerServer.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    faults.failWrites = true;
    release();
    const result = await answer;
    faults.failWrites = false;
    summarizerServer.setMode({ kind: 'reply', content: 'canned summary' });

    expect(result.errors).toBeUndefined();
    const started = result.data!.startRun;
    expect(started.run).toMatchObject({ status: 'RUNNING', contextHandoff: { id: started.handoff.id } });
    expect(started.handoff).toMatchObject({ status: 'PENDING', summaryText: '' });
    const run = (await t.ok(RUN_CONTEXT, { id: started.run.id })).run;
    expect(run.contextHandoff).toMatchObject({ id: started.handoff.id, status: 'PENDING', source: 'configured:fast' });
    const retry = await t.gql(START_RUN, { input });
    expect(codeOf(retry)).toBe('RUN_IN_PROGRESS');
    expect(retry.errors![0]!.extensions).toMatchObject({ runId: started.run.id });
    // Its sweep sees every tenant's handoffs: stop it before other tests leave handoffs pending.
    await t.close();
    services.splice(services.indexOf(t), 1);
  });
});

describe('regeneration, manual context and checkpoint summaries', () => {
  it('regenerates into a SUPERSEDES chain with coverage unchanged', async () => {
    const t = await serviceWith({});
    const threadId = await threadWithFacts(t);
    const started = await startRun(t, threadId, 'claude');
    const before = (await coverage(t, started.providerThread.id)).coverage;
    const second = (await t.ok(REGENERATE, { input: { handoffId: started.handoff.id } })).regenerateHandoff;
    const third = (await t.ok(REGENERATE, { input: { handoffId: second.id, source: 'local' } })).regenerateHandoff;
    expect(third).toMatchObject({
      status: 'READY',
      coveredRunOrdinals: started.handoff.coveredRunOrdinals,
      toProviderThreadId: started.providerThread.id,
      targetRunId: started.run.id,
      supersedes: { id: second.id },
    });
    expect(third.summaryText).toBe(started.handoff.summaryText);
    expect(third.inputDigest).toBe(second.inputDigest);
    const middle = (await t.ok(HANDOFF, { id: second.id })).contextHandoff;
    expect(middle).toMatchObject({
      status: 'SUPERSEDED',
      supersedes: { id: started.handoff.id },
      supersededBy: { id: third.id },
    });
    const after = (await coverage(t, started.providerThread.id)).coverage;
    expect(after).toEqual({ ...before, handoffIds: [third.id] });
    expect((await t.ok(RUN_CONTEXT, { id: started.run.id })).run.contextHandoff.id).toBe(third.id);
    await expectCode(t.gql(REGENERATE, { input: { handoffId: second.id } }), 'CONFLICT');
    await expectCode(t.gql(REGENERATE, { input: { handoffId: third.id, source: 'nobody' } }), 'BAD_USER_INPUT');
  });

  it('regenerates locally, as a run starts, when the provider asked cannot write summaries', async () => {
    const t = await serviceWith(
      { default: 'entering' },
      {
        providers: [
          { id: 'claude', displayName: 'Claude, no summaries', capabilities: { canGenerateSummaries: false } },
        ],
      },
    );
    const threadId = await threadWithFacts(t);
    const started = await startRun(t, threadId, 'claude');
    const atStart = (await t.ok(RUN_CONTEXT, { id: started.run.id })).run;
    expect(atStart.contextHandoff).toMatchObject({ status: 'READY', source: 'local', summaryRequest: null });
    const reason = atStart.plan.reasons.find((line: string) => line.includes('cannot write summaries'));
    expect(reason).toMatch(/entering provider \(claude\)/);

    // Asked for by name, and by the policy: the same rule, the same local summary.
    const named = (await t.ok(REGENERATE, { input: { handoffId: atStart.contextHandoff.id, source: 'entering' } }))
      .regenerateHandoff;
    const byPolicy = (await t.ok(REGENERATE, { input: { handoffId: named.id } })).regenerateHandoff;
    for (const regenerated of [named, byPolicy]) {
      expect(regenerated).toMatchObject({
        status: 'READY',
        source: 'local',
        createdByProvider: null,
        summaryRequest: null,
        summaryText: atStart.contextHandoff.summaryText,
      });
    }
    const run = (await t.ok(RUN_CONTEXT, { id: started.run.id })).run;
    expect(run.contextHandoff.id).toBe(byPolicy.id);
    expect(run.dispatch.context).toBe(atStart.contextHandoff.summaryText);
    expect(run.plan.reasons.filter((line: string) => line.includes(reason))).toHaveLength(3);
  });

  it('takes operator-written manual context over the range the planner chose', async () => {
    const t = await serviceWith({});
    const threadId = await threadWithFacts(t);
    const started = (
      await t.ok(START_RUN.replace('handoff {', 'handoff { source '), {
        input: {
          threadId,
          provider: 'claude',
          userMessage: 'go',
          manualContext: 'Operator note: only touch src/stream.ts',
        },
      })
    ).startRun;
    expect(started.handoff).toMatchObject({
      strategy: 'MANUAL_CONTEXT',
      summaryText: 'Operator note: only touch src/stream.ts',
      createdByProvider: null,
      source: 'user',
      coveredRunOrdinals: { from: 1, to: 1 },
    });
    expect(started.dispatch.context).toBe('Operator note: only touch src/stream.ts');
    const { records } = await t.driver.executeQuery(
      'MATCH (tr:ContextTransfer {handoffId: $id}) RETURN tr.createdBy AS by',
      { id: started.handoff.id },
      { database: 'neo4j' },
    );
    expect(records[0]!.get('by')).toBe('user');
    await completeRun(t, started.run.id);
    await expectCode(
      t.gql(START_RUN, { input: { threadId, provider: 'codex', userMessage: 'go', manualContext: 'x'.repeat(32001) } }),
      'BAD_USER_INPUT',
    );
  });

  it('sends a checkpoint summary when even a condensed full summary cannot fit', async () => {
    const t = await serviceWith(
      {},
      {
        providers: [
          { id: 'claude', displayName: 'Claude, tiny budget', capabilities: { maxRecommendedHandoffChars: 600 } },
        ],
      },
    );
    const threadId = await createThread(t);
    const run = await startRun(t, threadId, 'codex');
    await completeRun(t, run.run.id, {
      facts: Array.from({ length: 8 }, (_, i) => ({
        kind: 'DECISION',
        text: `Decision ${i}: ${'keep the module boundaries exactly as they are '.repeat(3)}`,
      })),
      checkpoint: { ref: 'ckpt-77', diffSummary: 'boundaries kept', files: [{ path: 'src/a.ts', change: 'MODIFIED' }] },
    });
    const next = await startRun(t, threadId, 'claude');
    expect(next.handoff.strategy).toBe('CHECKPOINT_SUMMARY');
    expect(next.handoff.summaryText.length).toBeLessThanOrEqual(600);
    expect(next.handoff.summaryText).toContain('ckpt-77');
    const plan = (await t.ok(RUN_CONTEXT, { id: next.run.id })).run.plan;
    expect(plan.handoffStrategy).toBe('CHECKPOINT_SUMMARY');
    expect(plan.reasons.join(' ')).toMatch(/checkpoint summary is sent instead/);
  });
});
