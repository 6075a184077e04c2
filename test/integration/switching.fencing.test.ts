// Fencing of replaced dispatches and the resumed-blank rule (src/domain/fencing.ts): a session that
// was replaced cannot write into the lineage any more, and a provider that silently starts a fresh
// session instead of resuming is not taken for the same continuity. The orchestrator's calls go
// through the typed client, as an orchestrator's would; the checks read what it does not select
// (a run's answer and provider thread, a handoff's text, a provider thread) with raw queries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BindNativeThreadDocument,
  CompleteRunDocument,
  CreateThreadDocument,
  FailRunDocument,
  ReportResumeFailureDocument,
  RunContextDocument,
  StartRunDocument,
  type StartRunInput,
  type ThreadlineClient,
} from '../../client/index.js';
import { refusal } from '../support/lineage.js';
import { startTestService, uniqueId, type TestService } from '../support/service.js';

let t: TestService;
let client: ThreadlineClient;
beforeAll(async () => {
  t = await startTestService();
  client = t.client;
});
afterAll(async () => {
  await t?.close();
});

async function createThread(): Promise<string> {
  const id = uniqueId('thread');
  await client.request(CreateThreadDocument, { input: { id, title: 'test thread' } });
  return id;
}

async function startRun(input: Omit<StartRunInput, 'userMessage'> & { userMessage?: string }) {
  return (
    await client.request(StartRunDocument, {
      input: { ...input, userMessage: input.userMessage ?? `message for ${input.provider}` },
    })
  ).startRun;
}

/** Starts and completes `count` runs on one provider; returns the last start. */
async function runTurns(threadId: string, provider: string, count: number) {
  let last: Awaited<ReturnType<typeof startRun>> | undefined;
  for (let i = 0; i < count; i++) {
    last = await startRun({ threadId, provider });
    await client.request(CompleteRunDocument, { input: { runId: last.run.id, assistantMessage: 'done' } });
  }
  return last!;
}

async function runRead(id: string) {
  return (await t.ok(`query($id: ID!) { run(id: $id) { id status assistantMessage providerThread { id } } }`, { id }))
    .run;
}

async function runContext(id: string) {
  return (await client.request(RunContextDocument, { id })).run!;
}

/** Codex runs 1-2 on a bound provider thread, Claude run 3, then Codex run 4 resuming it. */
async function resumingRun() {
  const threadId = await createThread();
  const codex = await runTurns(threadId, 'codex', 2);
  await client.request(BindNativeThreadDocument, {
    input: {
      providerThreadId: codex.providerThread.id,
      nativeThreadRef: 'codex-session-1',
      fencingToken: codex.dispatch.fencingToken,
    },
  });
  await runTurns(threadId, 'claude', 1);
  const resume = await startRun({ threadId, provider: 'codex', userMessage: 'back to codex' });
  expect(resume.dispatch).toMatchObject({ providerThreadAction: 'RESUME', nativeThreadRef: 'codex-session-1' });
  return { threadId, codexThread: codex.providerThread.id, resume };
}

describe('fencing tokens', () => {
  it('gives every dispatch a token, and a new one when a resume failure replaces it', async () => {
    const { resume } = await resumingRun();
    expect(resume.dispatch.fencingToken).toEqual(expect.any(String));
    const replanned = (
      await client.request(ReportResumeFailureDocument, {
        input: { runId: resume.run.id, error: 'thread not found', fencingToken: resume.dispatch.fencingToken },
      })
    ).reportResumeFailure;
    expect(replanned.dispatch.fencingToken).not.toBe(resume.dispatch.fencingToken);
    const read = await runContext(resume.run.id);
    expect(read.dispatch.fencingToken).toBe(replanned.dispatch.fencingToken);
  });

  it("refuses a replaced session's late completion with STALE_DISPATCH, racing the new one, and records nothing of it", async () => {
    const { resume } = await resumingRun();
    const replanned = (
      await client.request(ReportResumeFailureDocument, { input: { runId: resume.run.id, error: 'thread not found' } })
    ).reportResumeFailure;
    const [late, current] = await Promise.all([
      client.execute(CompleteRunDocument, {
        input: {
          runId: resume.run.id,
          assistantMessage: 'from the old session',
          fencingToken: resume.dispatch.fencingToken,
        },
      }),
      client.execute(CompleteRunDocument, {
        input: {
          runId: resume.run.id,
          assistantMessage: 'from the new session',
          fencingToken: replanned.dispatch.fencingToken,
        },
      }),
    ]);
    expect(current.errors).toEqual([]);
    expect(late.errors.map((error) => error.extensions?.code)).toEqual(['STALE_DISPATCH']);
    expect(late.errors[0]!.extensions).toMatchObject({ runId: resume.run.id, currentEpoch: 2, tokenEpoch: 1 });
    expect(await runRead(resume.run.id)).toMatchObject({
      status: 'COMPLETED',
      assistantMessage: 'from the new session',
      providerThread: { id: replanned.providerThread.id },
    });
  });

  it('refuses a late failRun, bind and resume-failure report of the replaced dispatch; the run keeps running', async () => {
    const { resume, codexThread } = await resumingRun();
    const replanned = (
      await client.request(ReportResumeFailureDocument, { input: { runId: resume.run.id, error: 'thread not found' } })
    ).reportResumeFailure;
    const stale = resume.dispatch.fencingToken;
    await refusal(
      client.request(FailRunDocument, {
        input: { runId: resume.run.id, error: 'old session died', fencingToken: stale },
      }),
      'STALE_DISPATCH',
    );
    await refusal(
      client.request(BindNativeThreadDocument, {
        input: { providerThreadId: codexThread, nativeThreadRef: 'codex-session-2', fencingToken: stale },
      }),
      'STALE_DISPATCH',
    );
    await refusal(
      client.request(ReportResumeFailureDocument, {
        input: { runId: resume.run.id, error: 'again', fencingToken: stale },
      }),
      'STALE_DISPATCH',
    );
    // The current token may not bind the replaced provider thread either: the run is served by the new one.
    await refusal(
      client.request(BindNativeThreadDocument, {
        input: {
          providerThreadId: codexThread,
          nativeThreadRef: 'codex-session-2',
          fencingToken: replanned.dispatch.fencingToken,
        },
      }),
      'STALE_DISPATCH',
    );
    const old = await t.ok(`query($id: ID!) { providerThread(id: $id) { status nativeThreadRef } }`, {
      id: codexThread,
    });
    expect(old.providerThread).toEqual({ status: 'RESUME_FAILED', nativeThreadRef: 'codex-session-1' });
    expect((await runContext(resume.run.id)).status).toBe('RUNNING');
    // Calls without a token are not fenced, as before tokens existed.
    await client.request(FailRunDocument, { input: { runId: resume.run.id, error: 'stopped' } });
  });

  it('refuses a bind of a provider thread replaced as stale, and a token that is not one', async () => {
    const threadId = await createThread();
    const first = await startRun({ threadId, provider: 'codex', userMessage: 'first' });
    await client.request(CompleteRunDocument, {
      input: { runId: first.run.id, fencingToken: first.dispatch.fencingToken },
    });
    const clean = await startRun({ threadId, provider: 'codex', userMessage: 'again', cleanContext: true });
    expect(clean.plan.stalenessSignals).toContain('CLEAN_CONTEXT_REQUESTED');
    await refusal(
      client.request(BindNativeThreadDocument, {
        input: {
          providerThreadId: first.providerThread.id,
          nativeThreadRef: 'late',
          fencingToken: first.dispatch.fencingToken,
        },
      }),
      'STALE_DISPATCH',
    );
    await refusal(
      client.request(CompleteRunDocument, { input: { runId: clean.run.id, fencingToken: 'no-such-token' } }),
      'BAD_USER_INPUT',
    );
    await refusal(
      client.request(CompleteRunDocument, {
        input: { runId: clean.run.id, fencingToken: first.dispatch.fencingToken },
      }),
      'BAD_USER_INPUT',
    );
    await client.request(CompleteRunDocument, {
      input: { runId: clean.run.id, fencingToken: clean.dispatch.fencingToken },
    });
  });
});

describe('a resumed blank', () => {
  it('is a resume failure: the run gets a new provider thread and a full summary, and the answer says what to send', async () => {
    const { resume, codexThread } = await resumingRun();
    expect(resume.plan.decision).toBe('DELTA_HANDOFF');
    const bound = (
      await client.request(BindNativeThreadDocument, {
        input: {
          providerThreadId: codexThread,
          nativeThreadRef: 'codex-session-fresh',
          fencingToken: resume.dispatch.fencingToken,
        },
      })
    ).bindNativeThread;
    expect(bound.resumedBlank).toBe(true);
    expect(bound.providerThread).toMatchObject({
      id: codexThread,
      status: 'RESUME_FAILED',
      nativeThreadRef: 'codex-session-1',
    });
    expect(bound.providerThread.resumeError).toContain('codex-session-fresh');
    const replanned = bound.replanned!;
    expect(replanned.run.id).toBe(resume.run.id);
    expect(replanned.plan).toMatchObject({
      decision: 'FULL_HANDOFF_NEW',
      providerThreadAction: 'CREATE',
      stalenessSignals: ['RESUME_FAILED'],
      coveredRunOrdinals: { from: 1, to: 3 },
    });
    expect(replanned.providerThread.id).not.toBe(codexThread);
    expect(replanned.handoff).toMatchObject({ strategy: 'FULL_THREAD_SUMMARY' });
    // The client selects neither what a handoff replaced nor its text (the dispatch carries it): read them.
    const { contextHandoff: handoff } = await t.ok(
      `query($id: ID!) { contextHandoff(id: $id) { supersedes { id } summaryText } }`,
      { id: replanned.handoff!.id },
    );
    expect(handoff.supersedes).toEqual({ id: resume.handoff!.id });
    expect(replanned.dispatch).toMatchObject({
      providerThreadAction: 'CREATE',
      nativeThreadRef: null,
      context: handoff.summaryText,
    });
    // The blank session's own completion is the old dispatch's: fenced.
    await refusal(
      client.request(CompleteRunDocument, {
        input: { runId: resume.run.id, fencingToken: resume.dispatch.fencingToken },
      }),
      'STALE_DISPATCH',
    );
    // The orchestrator binds the session it now starts with the full summary, and completes.
    await client.request(BindNativeThreadDocument, {
      input: {
        providerThreadId: replanned.providerThread.id,
        nativeThreadRef: 'codex-session-2',
        fencingToken: replanned.dispatch.fencingToken,
      },
    });
    await client.request(CompleteRunDocument, {
      input: { runId: resume.run.id, fencingToken: replanned.dispatch.fencingToken },
    });
  });

  it('is detected without a token too, and not on a run that created its provider thread', async () => {
    const { resume, codexThread } = await resumingRun();
    const bound = (
      await client.request(BindNativeThreadDocument, {
        input: { providerThreadId: codexThread, nativeThreadRef: 'codex-session-fresh' },
      })
    ).bindNativeThread;
    expect(bound.resumedBlank).toBe(true);
    await client.request(CompleteRunDocument, { input: { runId: resume.run.id } });
    const created = await startRun({ threadId: await createThread(), provider: 'claude' });
    expect(created.dispatch.providerThreadAction).toBe('CREATE');
    // bindProviderThread, the unfenced bind that came before bindNativeThread, has no client operation.
    const first = await t.ok(
      `mutation($input: BindProviderThreadInput!) { bindProviderThread(input: $input) { status nativeThreadRef } }`,
      {
        input: { providerThreadId: created.providerThread.id, nativeThreadRef: 'gemini-1' },
      },
    );
    expect(first.bindProviderThread).toEqual({ status: 'ACTIVE', nativeThreadRef: 'gemini-1' });
    const again = (
      await client.request(BindNativeThreadDocument, {
        input: { providerThreadId: created.providerThread.id, nativeThreadRef: 'gemini-2' },
      })
    ).bindNativeThread;
    expect(again).toMatchObject({
      resumedBlank: false,
      replanned: null,
      providerThread: { status: 'ACTIVE', nativeThreadRef: 'gemini-2' },
    });
  });

  it('keeps the same continuity when the provider reports the native id it was asked to resume', async () => {
    const { resume, codexThread } = await resumingRun();
    const bound = (
      await client.request(BindNativeThreadDocument, {
        input: {
          providerThreadId: codexThread,
          nativeThreadRef: 'codex-session-1',
          fencingToken: resume.dispatch.fencingToken,
        },
      })
    ).bindNativeThread;
    expect(bound).toMatchObject({ resumedBlank: false, replanned: null, providerThread: { status: 'ACTIVE' } });
    await client.request(CompleteRunDocument, {
      input: { runId: resume.run.id, fencingToken: resume.dispatch.fencingToken },
    });
  });
});
