// The typed client (client/) over real HTTP against the real service: the transport, its errors, and
// runTurn's start -> dispatch -> bind -> complete loop with a switch, a resumed blank, a failure and
// provider-written summaries (written through writeSummary, waited for, expired, or never written).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompleteRunDocument,
  createThreadlineClient,
  CreateThreadDocument,
  PlanRunDocument,
  runTurn,
  SubmitHandoffSummaryDocument,
  ThreadlineClientError,
  type AgentCall,
  type SummaryRequest,
  type ThreadlineClient,
} from '../../client/index.js';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { refusal } from '../support/lineage.js';
import { manualClock } from '../support/clock.js';
import {
  settingsFile,
  startTestService,
  uniqueId,
  type TestService,
  type TestServiceOptions,
} from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

let t: TestService;
let client: ThreadlineClient;
beforeAll(async () => {
  t = await startTestService();
  client = t.client;
});
afterAll(async () => {
  await t?.close();
});

async function newThread(): Promise<string> {
  return (await client.request(CreateThreadDocument, { input: { id: uniqueId('client'), title: 'Typed client' } }))
    .createThread.id;
}

/**
 * A provider that resumes the native thread it is asked to and creates a session otherwise (a null
 * nativeThreadRef means create, whatever the action); it records every call.
 */
function faithfulAgent(calls: AgentCall[], provider: string) {
  return (call: AgentCall) => {
    calls.push(call);
    const resume = call.dispatch.providerThreadAction === 'RESUME' || call.dispatch.providerThreadAction === 'REUSE';
    const nativeThreadRef =
      resume && call.dispatch.nativeThreadRef ? call.dispatch.nativeThreadRef : uniqueId(`${provider}-native`);
    return { nativeThreadRef, assistantMessage: `answered ${call.dispatch.userMessage}` };
  };
}

async function runStatus(id: string) {
  return (
    await t.ok<{ run: { status: string; error: string | null; assistantMessage: string | null } }>(
      `query($id: ID!) { run(id: $id) { status error assistantMessage } }`,
      { id },
    )
  ).run;
}

describe('createThreadlineClient', () => {
  it('takes the base URL and the /graphql endpoint alike', async () => {
    const base = new URL(t.service.url).origin;
    for (const url of [base, `${base}/`, t.service.url, `${t.service.url}/`]) {
      const other = createThreadlineClient({ url, apiKey: t.apiKey });
      expect(other.endpoint).toBe(t.service.url);
      const threadId = uniqueId('client-url');
      expect((await other.request(CreateThreadDocument, { input: { id: threadId } })).createThread).toEqual({
        id: threadId,
        title: null,
        project: null,
        headOrdinal: 0,
      });
    }
  });

  it('rejects a GraphQL error with a ThreadlineClientError carrying its code, and execute answers it without throwing', async () => {
    const input = { threadId: uniqueId('missing'), provider: 'codex' };
    const error = await refusal(client.request(PlanRunDocument, { input }), 'NOT_FOUND');
    expect(error.message).toMatch(/^NOT_FOUND: /);

    const result = await client.execute(PlanRunDocument, { input });
    expect(result.data).toBeNull();
    expect(result.errors.map((entry) => entry.extensions?.code)).toEqual(['NOT_FOUND']);
  });

  it('says BAD_RESPONSE when what answers is not a GraphQL service', async () => {
    const elsewhere = createThreadlineClient({ url: `${new URL(t.service.url).origin}/lineage` });
    const error = await refusal(elsewhere.request(CreateThreadDocument, { input: {} }), 'BAD_RESPONSE');
    expect(error.status).toBe(404);
  });

  it('says ECONNREFUSED, as a client error with status 0, when nothing listens there', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const nobody = createThreadlineClient({ url: `http://127.0.0.1:${port}` });
    const error = await refusal(nobody.request(CreateThreadDocument, { input: {} }), 'ECONNREFUSED');
    expect(error).toBeInstanceOf(ThreadlineClientError);
    expect(error.status).toBe(0);
    expect(error.message).toContain(`http://127.0.0.1:${port}/graphql did not answer`);
  });

  it('sends the API key as a bearer token, and surfaces UNAUTHENTICATED without one', async () => {
    const key = uniqueId('key');
    const secured = await startTestService({ THREADLINE_API_KEYS: `${key}=${fileTenant('secured')}` });
    try {
      const anonymous = await refusal(secured.client.request(CreateThreadDocument, { input: {} }), 'UNAUTHENTICATED');
      expect(anonymous.status).toBe(401);
      await refusal(
        createThreadlineClient({ url: secured.service.url, apiKey: 'not-a-key' }).request(CreateThreadDocument, {
          input: {},
        }),
        'UNAUTHENTICATED',
      );
      const created = await createThreadlineClient({ url: secured.service.url, apiKey: key }).request(
        CreateThreadDocument,
        { input: { title: 'with a key' } },
      );
      expect(created.createThread.title).toBe('with a key');
    } finally {
      await secured.close();
    }
  });

  it('sends through the fetch it is given', async () => {
    const seen: string[] = [];
    const counting: typeof fetch = (input, init) => {
      seen.push(String(init?.body));
      return fetch(input, init);
    };
    const threadId = uniqueId('client-fetch');
    await createThreadlineClient({ url: t.service.url, apiKey: t.apiKey, fetch: counting }).request(
      CreateThreadDocument,
      {
        input: { id: threadId },
      },
    );
    expect(seen).toHaveLength(1);
    expect(JSON.parse(seen[0]!)).toMatchObject({
      query: expect.stringContaining('mutation CreateThread'),
      variables: { input: { id: threadId } },
    });
  });
});

describe('runTurn', () => {
  it('plays turns on one provider, then a switch that carries a handoff, binding and completing each', async () => {
    const threadId = await newThread();
    const calls: AgentCall[] = [];
    const first = await runTurn(
      client,
      { threadId, provider: 'codex', userMessage: 'Add a parser.' },
      faithfulAgent(calls, 'codex'),
    );
    expect(first.served).toBe(first.started);
    expect(first.resumedBlank).toBe(false);
    expect(first.run).toEqual({ id: first.started.run.id, ordinal: 1, status: 'COMPLETED' });
    expect(calls[0]!.dispatch).toMatchObject({
      providerThreadAction: 'CREATE',
      nativeThreadRef: null,
      context: null,
      userMessage: 'Add a parser.',
    });
    expect(calls[0]!.replaced).toBeNull();

    const second = await runTurn(
      client,
      { threadId, provider: 'codex', userMessage: 'Test it.' },
      faithfulAgent(calls, 'codex'),
    );
    expect(second.started.plan.decision).toBe('NO_HANDOFF');
    expect(calls[1]!.dispatch).toMatchObject({
      providerThreadAction: 'REUSE',
      nativeThreadRef: first.reply.nativeThreadRef,
    });
    expect(second.started.providerThread.id).toBe(first.started.providerThread.id);

    const switched = await runTurn(
      client,
      { threadId, provider: 'claude', userMessage: 'Review it.' },
      faithfulAgent(calls, 'claude'),
    );
    expect(switched.started.plan).toMatchObject({
      decision: 'FULL_HANDOFF_NEW',
      providerThreadAction: 'CREATE',
      handoffStrategy: 'FULL_THREAD_SUMMARY',
      coveredRunOrdinals: { from: 1, to: 2 },
    });
    expect(switched.started.handoff).toMatchObject({
      strategy: 'FULL_THREAD_SUMMARY',
      status: 'READY',
      toProviderThreadId: switched.started.providerThread.id,
    });
    expect(calls[2]!.dispatch.context).toContain('Add a parser.');
    expect(calls[2]!.dispatch.delivery).not.toBeNull();
    expect(switched.run.status).toBe('COMPLETED');
    expect(await runStatus(switched.run.id)).toEqual({
      status: 'COMPLETED',
      error: null,
      assistantMessage: 'answered Review it.',
    });
  });

  it('re-dispatches a resumed blank with the re-planned full summary, and the blank session is fenced off', async () => {
    const threadId = await newThread();
    for (const [provider, userMessage] of [
      ['codex', 'Write the exporter.'],
      ['claude', 'Review the exporter.'],
    ] as const) {
      await runTurn(client, { threadId, provider, userMessage }, faithfulAgent([], provider));
    }
    const calls: AgentCall[] = [];
    let lateCompletion: unknown = null;
    const turn = await runTurn(
      client,
      { threadId, provider: 'codex', userMessage: 'Apply the review.' },
      async (call) => {
        calls.push(call);
        if (!call.replaced)
          return { nativeThreadRef: uniqueId('codex-blank'), assistantMessage: 'answered without context' };
        // The blank session finishes late, echoing its replaced dispatch's token.
        lateCompletion = await client
          .request(CompleteRunDocument, {
            input: { runId: call.run.id, fencingToken: call.replaced.dispatch.fencingToken, assistantMessage: 'late' },
          })
          .catch((caught: unknown) => caught);
        return { nativeThreadRef: uniqueId('codex-fresh'), assistantMessage: 'answered with the full summary' };
      },
    );

    expect(calls).toHaveLength(2);
    expect(calls[0]!.dispatch.providerThreadAction).toBe('RESUME');
    expect(calls[0]!.plan.decision).toBe('DELTA_HANDOFF');
    expect(calls[1]!.replaced).toMatchObject({
      dispatch: { fencingToken: calls[0]!.dispatch.fencingToken },
      providerThread: { id: calls[0]!.providerThread.id, status: 'RESUME_FAILED' },
    });
    expect(calls[1]!.plan).toMatchObject({
      decision: 'FULL_HANDOFF_NEW',
      providerThreadAction: 'CREATE',
      stalenessSignals: ['RESUME_FAILED'],
    });
    expect(calls[1]!.dispatch.context).toContain('Write the exporter.');
    expect(calls[1]!.dispatch.fencingToken).not.toBe(calls[0]!.dispatch.fencingToken);

    expect(lateCompletion).toBeInstanceOf(ThreadlineClientError);
    expect((lateCompletion as ThreadlineClientError).code).toBe('STALE_DISPATCH');

    expect(turn.resumedBlank).toBe(true);
    expect(turn.served.providerThread.id).not.toBe(turn.started.providerThread.id);
    expect(turn.run).toEqual({ id: turn.started.run.id, ordinal: 3, status: 'COMPLETED' });
    expect(await runStatus(turn.run.id)).toMatchObject({
      status: 'COMPLETED',
      assistantMessage: 'answered with the full summary',
    });
  });

  it('fails the run, fenced by its dispatch, when the agent throws, and rethrows the agent error', async () => {
    const threadId = await newThread();
    let runId = '';
    let providerThreadId = '';
    const error = await runTurn(client, { threadId, provider: 'codex', userMessage: 'Break.' }, (call) => {
      runId = call.run.id;
      providerThreadId = call.providerThread.id;
      throw new Error('the provider crashed');
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('the provider crashed');
    expect(await runStatus(runId)).toEqual({ status: 'FAILED', error: 'the provider crashed', assistantMessage: null });

    // The thread goes on, on the same provider thread, which no session was bound to: the provider creates one.
    const calls: AgentCall[] = [];
    const next = await runTurn(
      client,
      { threadId, provider: 'codex', userMessage: 'Try again.' },
      faithfulAgent(calls, 'codex'),
    );
    expect(calls[0]!.dispatch).toMatchObject({ providerThreadAction: 'REUSE', nativeThreadRef: null });
    expect(next.run).toMatchObject({ ordinal: 2, status: 'COMPLETED' });
    expect(next.started.providerThread.id).toBe(providerThreadId);
  });

  it('surfaces a refusal of startRun as a typed error, before the agent is called', async () => {
    let called = false;
    await refusal(
      runTurn(client, { threadId: uniqueId('missing'), provider: 'codex', userMessage: 'Hello.' }, () => {
        called = true;
        return { nativeThreadRef: 'never' };
      }),
      'NOT_FOUND',
    );
    expect(called).toBe(false);
  });
});

describe('runTurn with provider-written summaries', () => {
  // Claude writes the summary of a switch into Claude (docs/summaries.md): startRun leaves it PENDING.
  let entering: TestService;
  let enteringClient: ThreadlineClient;
  beforeAll(async () => {
    entering = await serviceWithSummaries({ providers: { claude: 'entering' } });
    enteringClient = entering.client;
  });
  afterAll(async () => {
    await entering?.close();
  });

  async function serviceWithSummaries(policy: unknown, options?: TestServiceOptions): Promise<TestService> {
    return startTestService({ THREADLINE_SUMMARIES_FILE: settingsFile(policy) }, options);
  }

  /** A thread whose Codex run 1 recorded a goal and an open question; the next Claude run's handoff is PENDING. */
  async function threadOnCodex(on: ThreadlineClient): Promise<string> {
    const { createThread } = await on.request(CreateThreadDocument, { input: { id: uniqueId('client-summary') } });
    await runTurn(on, { threadId: createThread.id, provider: 'codex', userMessage: 'Write the parser.' }, (call) => ({
      ...faithfulAgent([], 'codex')(call),
      facts: [
        { kind: 'GOAL', text: 'Ship the streaming parser' },
        { kind: 'QUESTION', text: 'Keep the legacy API?', key: 'q1', status: 'open' },
      ],
    }));
    return createThread.id;
  }

  /** The PENDING handoff of the thread's run 2, once that run has started. */
  async function pendingHandoffOf(service: TestService, threadId: string): Promise<string> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const { thread } = await service.ok(
        `query($id: ID!) { thread(id: $id) { runs(last: 1) { edges { node { ordinal contextHandoff { id status } } } } } }`,
        { id: threadId },
      );
      const handoff = thread.runs.edges[0].node.ordinal === 2 ? thread.runs.edges[0].node.contextHandoff : null;
      if (handoff?.status === 'PENDING') return handoff.id as string;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('no PENDING handoff appeared');
  }

  async function contextOf(service: TestService, runId: string) {
    return (
      await service.ok(
        `query($id: ID!) { run(id: $id) { status error plan { reasons } dispatch { context delivery }
          contextHandoff { id status source createdByProvider summaryText supersedes { id status endedBecause } } } }`,
        { id: runId },
      )
    ).run;
  }

  it('has writeSummary write a PENDING summary, submits it, and sends the agent the context it became', async () => {
    const threadId = await threadOnCodex(enteringClient);
    const requests: SummaryRequest[] = [];
    const calls: AgentCall[] = [];
    const turn = await runTurn(
      enteringClient,
      { threadId, provider: 'claude', userMessage: 'Review the parser.' },
      faithfulAgent(calls, 'claude'),
      {
        writeSummary: (request, run) => {
          requests.push(request);
          expect(run.dispatch.context).toBeNull();
          return 'Goal: ship the streaming parser.';
        },
      },
    );

    expect(turn.started.handoff).toMatchObject({ status: 'PENDING', source: 'provider:claude' });
    expect(turn.started.dispatch.context).toBeNull();
    expect(requests).toEqual([
      {
        handoffId: turn.started.handoff!.id,
        writer: 'claude',
        targetProvider: 'claude',
        strategy: 'FULL_THREAD_SUMMARY',
        document: expect.stringContaining('Keep the legacy API?'),
        budgetChars: 32000,
      },
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.handoff).toMatchObject({
      id: turn.started.handoff!.id,
      status: 'READY',
      createdByProvider: 'claude',
      summaryRequest: null,
    });
    // The text as written, and the fact it left out, appended by the service.
    expect(calls[0]!.dispatch.context).toMatch(/^Goal: ship the streaming parser\./);
    expect(calls[0]!.dispatch.context).toContain('- question: Keep the legacy API?');
    expect(calls[0]!.dispatch).toMatchObject({ delivery: 'SYSTEM', fencingToken: turn.started.dispatch.fencingToken });
    expect(turn.served.dispatch).toEqual(calls[0]!.dispatch);
    expect(turn.run.status).toBe('COMPLETED');
    expect(await contextOf(entering, turn.run.id)).toMatchObject({
      status: 'COMPLETED',
      dispatch: { context: calls[0]!.dispatch.context, delivery: 'SYSTEM' },
      contextHandoff: { id: turn.started.handoff!.id, status: 'READY', summaryText: calls[0]!.dispatch.context },
    });
  });

  it('without writeSummary, interrupts the run with SUMMARY_PENDING rather than send it without its context', async () => {
    const threadId = await threadOnCodex(enteringClient);
    let called = false;
    const error = await refusal(
      runTurn(enteringClient, { threadId, provider: 'claude', userMessage: 'Review the parser.' }, () => {
        called = true;
        return { nativeThreadRef: 'never' };
      }),
      'SUMMARY_PENDING',
    );
    expect(error.extensions).toMatchObject({
      runId: expect.any(String),
      handoffId: expect.any(String),
      writer: 'claude',
      waitedMs: expect.any(Number),
    });
    expect(called).toBe(false);
    const run = await contextOf(entering, error.extensions.runId as string);
    expect(run.status).toBe('INTERRUPTED');
    expect(run.error).toMatch(/^SUMMARY_PENDING: /);
    expect(run.contextHandoff).toMatchObject({ id: error.extensions.handoffId, status: 'PENDING' });
  });

  it('fails the run, before the agent, when the written summary is refused or the writer throws', async () => {
    const refusedThread = await threadOnCodex(enteringClient);
    let runId = '';
    let called = false;
    const agent = (call: AgentCall) => {
      called = true;
      return faithfulAgent([], 'claude')(call);
    };
    await refusal(
      runTurn(
        enteringClient,
        { threadId: refusedThread, provider: 'claude', userMessage: 'Review the parser.' },
        agent,
        {
          writeSummary: (request, run) => {
            runId = run.run.id;
            return 'x'.repeat(request.budgetChars! + 1);
          },
        },
      ),
      'BAD_USER_INPUT',
    );
    expect(await contextOf(entering, runId)).toMatchObject({
      status: 'FAILED',
      error: expect.stringContaining('32000'),
      contextHandoff: { status: 'PENDING' },
    });

    const throwingThread = await threadOnCodex(enteringClient);
    const thrown = await runTurn(
      enteringClient,
      { threadId: throwingThread, provider: 'claude', userMessage: 'Review the parser.' },
      agent,
      {
        writeSummary: (_request, run) => {
          runId = run.run.id;
          throw new Error('claude could not summarize');
        },
      },
    ).catch((caught: unknown) => caught);
    expect((thrown as Error).message).toBe('claude could not summarize');
    expect(await contextOf(entering, runId)).toMatchObject({ status: 'FAILED', error: 'claude could not summarize' });
    expect(called).toBe(false);
  });

  it('with summaryWaitMs, waits for a summary submitted elsewhere and sends it', async () => {
    const threadId = await threadOnCodex(enteringClient);
    // Another part of the orchestrator answers summary requests: it finds the PENDING handoff and submits.
    const worker = (async () => {
      const handoffId = await pendingHandoffOf(entering, threadId);
      await enteringClient.request(SubmitHandoffSummaryDocument, {
        input: { handoffId, summaryText: 'Written elsewhere: the parser.', createdByProvider: 'claude' },
      });
      return handoffId;
    })();
    const calls: AgentCall[] = [];
    const turn = await runTurn(
      enteringClient,
      { threadId, provider: 'claude', userMessage: 'Review the parser.' },
      faithfulAgent(calls, 'claude'),
      { summaryWaitMs: 30_000, summaryPollMs: 100 },
    );
    expect(await worker).toBe(turn.started.handoff!.id);
    expect(turn.started.dispatch.context).toBeNull();
    expect(calls[0]!.handoff).toMatchObject({ id: turn.started.handoff!.id, status: 'READY' });
    expect(calls[0]!.dispatch.context).toMatch(/^Written elsewhere: the parser\./);
    expect(turn.run.status).toBe('COMPLETED');
  });

  it('sends the local summary that replaces an expired one, waited for or written too late', async () => {
    // Its sweep expires only its own tenant's handoffs, when the test moves its clock on.
    const clock = manualClock();
    const expiring = await serviceWithSummaries(
      { providers: { claude: 'entering' }, pendingTimeoutSeconds: 2 },
      { clock, tenant: fileTenant('expiry') },
    );
    try {
      const on = expiring.client;
      const threadId = await threadOnCodex(on);
      const calls: AgentCall[] = [];
      const waiting = runTurn(
        on,
        { threadId, provider: 'claude', userMessage: 'Review the parser.' },
        faithfulAgent(calls, 'claude'),
        { summaryWaitMs: 60_000, summaryPollMs: 50 },
      );
      // Once the turn waits on its PENDING handoff, a sweep a minute on (past the timeout) replaces it.
      await pendingHandoffOf(expiring, threadId);
      await clock.advance(60_000);
      const turn = await waiting;
      const pendingId = turn.started.handoff!.id;
      expect(turn.started.handoff!.status).toBe('PENDING');
      expect(calls[0]!.handoff).toMatchObject({ status: 'READY', source: 'local', createdByProvider: null });
      expect(calls[0]!.handoff!.id).not.toBe(pendingId);
      expect(calls[0]!.dispatch.context).toContain('Keep the legacy API?');
      expect(calls[0]!.plan.reasons.join(' ')).toMatch(
        /failed \(not submitted within 2 s\); a local summary replaced it/,
      );
      expect(turn.run.status).toBe('COMPLETED');
      expect(await contextOf(expiring, turn.run.id)).toMatchObject({
        dispatch: { context: calls[0]!.dispatch.context },
        contextHandoff: {
          id: calls[0]!.handoff!.id,
          source: 'local',
          supersedes: { id: pendingId, status: 'FAILED', endedBecause: 'EXPIRED' },
        },
      });

      // A writer slower than the timeout: its text is refused (CONFLICT), and the local summary goes out.
      const slowThread = await threadOnCodex(on);
      const slowCalls: AgentCall[] = [];
      const slow = await runTurn(
        on,
        { threadId: slowThread, provider: 'claude', userMessage: 'Review the parser.' },
        faithfulAgent(slowCalls, 'claude'),
        {
          writeSummary: async (request) => {
            await clock.advance(60_000);
            const { contextHandoff } = await expiring.ok(`query($id: ID!) { contextHandoff(id: $id) { status } }`, {
              id: request.handoffId,
            });
            expect(contextHandoff.status).toBe('FAILED');
            return 'Too late: the parser.';
          },
        },
      );
      expect(slowCalls[0]!.handoff).toMatchObject({ status: 'READY', source: 'local' });
      expect(slowCalls[0]!.handoff!.id).not.toBe(slow.started.handoff!.id);
      expect(slowCalls[0]!.dispatch.context).toContain('Keep the legacy API?');
      expect(slowCalls[0]!.dispatch.context).not.toContain('Too late');
      expect(slow.run.status).toBe('COMPLETED');
    } finally {
      await expiring.close();
    }
  });
});

describe('the orchestrator example of docs/client.md', () => {
  const example = readFileSync(join(projectRoot(), 'client/examples/orchestrator.ts'), 'utf8');

  it('is the file the docs show, whole', () => {
    const doc = readFileSync(join(projectRoot(), 'docs/client.md'), 'utf8');
    const shown = /```ts\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(shown).toBe(example);
    expect(example.split('\n').length).toBeLessThanOrEqual(22);
  });

  it('runs against the service: three turns across two providers', async () => {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        'npx',
        ['tsx', 'client/examples/orchestrator.ts'],
        {
          cwd: projectRoot(),
          env: { ...process.env, THREADLINE_URL: new URL(t.service.url).origin, THREADLINE_TOKEN: t.apiKey },
        },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
      );
    });
    const lines = output.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^#1 codex: NO_HANDOFF, context 0 chars, COMPLETED$/);
    expect(lines[1]).toMatch(/^#2 claude: FULL_HANDOFF_NEW, context [1-9]\d* chars, COMPLETED$/);
    expect(lines[2]).toMatch(/^#3 codex: DELTA_HANDOFF, context [1-9]\d* chars, COMPLETED$/);
  }, 120_000);
});
