// The typed client (client/) over real HTTP against the real service: the transport, its errors, and
// runTurn's start -> dispatch -> bind -> complete loop with a switch, a resumed blank and a failure.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompleteRunDocument,
  createThreadlineClient,
  CreateThreadDocument,
  PlanRunDocument,
  runTurn,
  ThreadlineClientError,
  type AgentCall,
  type ThreadlineClient,
} from '../../client/index.js';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';

let t: TestService;
let client: ThreadlineClient;
beforeAll(async () => {
  t = await startTestService();
  client = createThreadlineClient({ url: t.service.url });
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
      const other = createThreadlineClient({ url });
      expect(other.endpoint).toBe(t.service.url);
      const threadId = uniqueId('client-url');
      expect((await other.request(CreateThreadDocument, { input: { id: threadId } })).createThread).toEqual({
        id: threadId,
        title: null,
        headOrdinal: 0,
      });
    }
  });

  it('rejects a GraphQL error with a ThreadlineClientError carrying its code, and execute answers it without throwing', async () => {
    const input = { threadId: uniqueId('missing'), provider: 'codex' };
    const error = await client.request(PlanRunDocument, { input }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ThreadlineClientError);
    expect((error as ThreadlineClientError).code).toBe('NOT_FOUND');
    expect((error as ThreadlineClientError).message).toMatch(/^NOT_FOUND: /);

    const result = await client.execute(PlanRunDocument, { input });
    expect(result.data).toBeNull();
    expect(result.errors.map((entry) => entry.extensions?.code)).toEqual(['NOT_FOUND']);
  });

  it('says BAD_RESPONSE when what answers is not a GraphQL service', async () => {
    const elsewhere = createThreadlineClient({ url: `${new URL(t.service.url).origin}/lineage` });
    const error = (await elsewhere
      .request(CreateThreadDocument, { input: {} })
      .catch((caught: unknown) => caught)) as ThreadlineClientError;
    expect(error).toBeInstanceOf(ThreadlineClientError);
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.status).toBe(404);
  });

  it('sends the API key as a bearer token, and surfaces UNAUTHENTICATED without one', async () => {
    const key = uniqueId('key');
    const secured = await startTestService({ THREADLINE_API_KEYS: `${key}=${uniqueId('tenant')}` });
    try {
      const anonymous = await createThreadlineClient({ url: secured.service.url })
        .request(CreateThreadDocument, { input: {} })
        .catch((caught: unknown) => caught);
      expect(anonymous).toBeInstanceOf(ThreadlineClientError);
      expect((anonymous as ThreadlineClientError).code).toBe('UNAUTHENTICATED');
      expect((anonymous as ThreadlineClientError).status).toBe(401);
      const wrong = await createThreadlineClient({ url: secured.service.url, apiKey: 'not-a-key' })
        .request(CreateThreadDocument, { input: {} })
        .catch((caught: unknown) => caught);
      expect((wrong as ThreadlineClientError).code).toBe('UNAUTHENTICATED');
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
    await createThreadlineClient({ url: t.service.url, fetch: counting }).request(CreateThreadDocument, {
      input: { id: threadId },
    });
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
    const error = await runTurn(
      client,
      { threadId: uniqueId('missing'), provider: 'codex', userMessage: 'Hello.' },
      () => {
        called = true;
        return { nativeThreadRef: 'never' };
      },
    ).catch((caught: unknown) => caught);
    expect((error as ThreadlineClientError).code).toBe('NOT_FOUND');
    expect(called).toBe(false);
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
          env: { ...process.env, THREADLINE_URL: new URL(t.service.url).origin, THREADLINE_TOKEN: '' },
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
