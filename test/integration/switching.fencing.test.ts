// Fencing of replaced dispatches and the resumed-blank rule (src/domain/fencing.ts): a session that
// was replaced cannot write into the lineage any more, and a provider that silently starts a fresh
// session instead of resuming is not taken for the same continuity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import {
  COMPLETE_RUN,
  HANDOFF_FIELDS,
  PLAN_FIELDS,
  createThread,
  expectCode,
  runTurns,
  startRun,
} from '../support/lineage.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

const DISPATCH = `dispatch { providerThreadAction nativeThreadRef context fencingToken }`;
const PAYLOAD = `run { id status providerThread { id } } plan { ${PLAN_FIELDS} } providerThread { id status } handoff { ${HANDOFF_FIELDS} } ${DISPATCH}`;
const START = `mutation($input: StartRunInput!) { startRun(input: $input) { ${PAYLOAD} } }`;
const RESUME_FAILURE = `mutation($input: ReportResumeFailureInput!) { reportResumeFailure(input: $input) { ${PAYLOAD} } }`;
const BIND = `mutation($input: BindProviderThreadInput!) { bindNativeThread(input: $input) {
  providerThread { id status nativeThreadRef statusReason resumeError } resumedBlank replanned { ${PAYLOAD} } } }`;
const FAIL = `mutation($input: FailRunInput!) { failRun(input: $input) { id status } }`;
const RUN = `query($id: ID!) { run(id: $id) { id status assistantMessage providerThread { id } ${DISPATCH} } }`;

/** Codex runs 1-2 on a bound provider thread, Claude run 3, then Codex run 4 resuming it. */
async function resumingRun() {
  const threadId = await createThread(t);
  const codex = await runTurns(t, threadId, 'codex', 2);
  await t.ok(BIND, {
    input: {
      providerThreadId: codex.providerThread.id,
      nativeThreadRef: 'codex-session-1',
      fencingToken: codex.dispatch.fencingToken,
    },
  });
  await runTurns(t, threadId, 'claude', 1);
  const resume = (await t.ok(START, { input: { threadId, provider: 'codex', userMessage: 'back to codex' } })).startRun;
  expect(resume.dispatch).toMatchObject({ providerThreadAction: 'RESUME', nativeThreadRef: 'codex-session-1' });
  return { threadId, codexThread: codex.providerThread.id as string, resume };
}

describe('fencing tokens', () => {
  it('gives every dispatch a token, and a new one when a resume failure replaces it', async () => {
    const { resume } = await resumingRun();
    expect(resume.dispatch.fencingToken).toEqual(expect.any(String));
    const replanned = (
      await t.ok(RESUME_FAILURE, {
        input: { runId: resume.run.id, error: 'thread not found', fencingToken: resume.dispatch.fencingToken },
      })
    ).reportResumeFailure;
    expect(replanned.dispatch.fencingToken).not.toBe(resume.dispatch.fencingToken);
    const read = (await t.ok(RUN, { id: resume.run.id })).run;
    expect(read.dispatch.fencingToken).toBe(replanned.dispatch.fencingToken);
  });

  it("refuses a replaced session's late completion with STALE_DISPATCH, racing the new one, and records nothing of it", async () => {
    const { resume } = await resumingRun();
    const replanned = (await t.ok(RESUME_FAILURE, { input: { runId: resume.run.id, error: 'thread not found' } }))
      .reportResumeFailure;
    const [late, current] = await Promise.all([
      t.gql(COMPLETE_RUN, {
        input: {
          runId: resume.run.id,
          assistantMessage: 'from the old session',
          fencingToken: resume.dispatch.fencingToken,
        },
      }),
      t.gql(COMPLETE_RUN, {
        input: {
          runId: resume.run.id,
          assistantMessage: 'from the new session',
          fencingToken: replanned.dispatch.fencingToken,
        },
      }),
    ]);
    expect(current.errors).toBeUndefined();
    await expectCode(Promise.resolve(late), 'STALE_DISPATCH');
    expect(late.errors![0]!.extensions).toMatchObject({ runId: resume.run.id, currentEpoch: 2, tokenEpoch: 1 });
    const read = (await t.ok(RUN, { id: resume.run.id })).run;
    expect(read).toMatchObject({
      status: 'COMPLETED',
      assistantMessage: 'from the new session',
      providerThread: { id: replanned.providerThread.id },
    });
  });

  it('refuses a late failRun, bind and resume-failure report of the replaced dispatch; the run keeps running', async () => {
    const { resume, codexThread } = await resumingRun();
    const replanned = (await t.ok(RESUME_FAILURE, { input: { runId: resume.run.id, error: 'thread not found' } }))
      .reportResumeFailure;
    const stale = resume.dispatch.fencingToken;
    await expectCode(
      t.gql(FAIL, { input: { runId: resume.run.id, error: 'old session died', fencingToken: stale } }),
      'STALE_DISPATCH',
    );
    await expectCode(
      t.gql(BIND, {
        input: { providerThreadId: codexThread, nativeThreadRef: 'codex-session-2', fencingToken: stale },
      }),
      'STALE_DISPATCH',
    );
    await expectCode(
      t.gql(RESUME_FAILURE, { input: { runId: resume.run.id, error: 'again', fencingToken: stale } }),
      'STALE_DISPATCH',
    );
    // The current token may not bind the replaced provider thread either: the run is served by the new one.
    await expectCode(
      t.gql(BIND, {
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
    expect((await t.ok(RUN, { id: resume.run.id })).run.status).toBe('RUNNING');
    // Calls without a token are not fenced, as before tokens existed.
    await t.ok(FAIL, { input: { runId: resume.run.id, error: 'stopped' } });
  });

  it('refuses a bind of a provider thread replaced as stale, and a token that is not one', async () => {
    const threadId = await createThread(t);
    const first = (await t.ok(START, { input: { threadId, provider: 'codex', userMessage: 'first' } })).startRun;
    await t.ok(COMPLETE_RUN, { input: { runId: first.run.id, fencingToken: first.dispatch.fencingToken } });
    const clean = (
      await t.ok(START, { input: { threadId, provider: 'codex', userMessage: 'again', cleanContext: true } })
    ).startRun;
    expect(clean.plan.stalenessSignals).toContain('CLEAN_CONTEXT_REQUESTED');
    await expectCode(
      t.gql(BIND, {
        input: {
          providerThreadId: first.providerThread.id,
          nativeThreadRef: 'late',
          fencingToken: first.dispatch.fencingToken,
        },
      }),
      'STALE_DISPATCH',
    );
    await expectCode(
      t.gql(COMPLETE_RUN, { input: { runId: clean.run.id, fencingToken: 'no-such-token' } }),
      'BAD_USER_INPUT',
    );
    await expectCode(
      t.gql(COMPLETE_RUN, { input: { runId: clean.run.id, fencingToken: first.dispatch.fencingToken } }),
      'BAD_USER_INPUT',
    );
    await t.ok(COMPLETE_RUN, { input: { runId: clean.run.id, fencingToken: clean.dispatch.fencingToken } });
  });
});

describe('a resumed blank', () => {
  it('is a resume failure: the run gets a new provider thread and a full summary, and the answer says what to send', async () => {
    const { resume, codexThread } = await resumingRun();
    expect(resume.plan.decision).toBe('DELTA_HANDOFF');
    const bound = (
      await t.ok(BIND, {
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
    const { replanned } = bound;
    expect(replanned.run.id).toBe(resume.run.id);
    expect(replanned.plan).toMatchObject({
      decision: 'FULL_HANDOFF_NEW',
      providerThreadAction: 'CREATE',
      stalenessSignals: ['RESUME_FAILED'],
      coveredRunOrdinals: { from: 1, to: 3 },
    });
    expect(replanned.providerThread.id).not.toBe(codexThread);
    expect(replanned.handoff).toMatchObject({ strategy: 'FULL_THREAD_SUMMARY', supersedes: { id: resume.handoff.id } });
    expect(replanned.dispatch).toMatchObject({
      providerThreadAction: 'CREATE',
      nativeThreadRef: null,
      context: replanned.handoff.summaryText,
    });
    // The blank session's own completion is the old dispatch's: fenced.
    await expectCode(
      t.gql(COMPLETE_RUN, { input: { runId: resume.run.id, fencingToken: resume.dispatch.fencingToken } }),
      'STALE_DISPATCH',
    );
    // The orchestrator binds the session it now starts with the full summary, and completes.
    await t.ok(BIND, {
      input: {
        providerThreadId: replanned.providerThread.id,
        nativeThreadRef: 'codex-session-2',
        fencingToken: replanned.dispatch.fencingToken,
      },
    });
    await t.ok(COMPLETE_RUN, { input: { runId: resume.run.id, fencingToken: replanned.dispatch.fencingToken } });
  });

  it('is detected without a token too, and not on a run that created its provider thread', async () => {
    const { resume, codexThread } = await resumingRun();
    const bound = (
      await t.ok(BIND, { input: { providerThreadId: codexThread, nativeThreadRef: 'codex-session-fresh' } })
    ).bindNativeThread;
    expect(bound.resumedBlank).toBe(true);
    await t.ok(COMPLETE_RUN, { input: { runId: resume.run.id } });
    const created = await startRun(t, await createThread(t), 'claude');
    expect(created.dispatch.providerThreadAction).toBe('CREATE');
    const first = await t.ok(
      `mutation($input: BindProviderThreadInput!) { bindProviderThread(input: $input) { status nativeThreadRef } }`,
      {
        input: { providerThreadId: created.providerThread.id, nativeThreadRef: 'gemini-1' },
      },
    );
    expect(first.bindProviderThread).toEqual({ status: 'ACTIVE', nativeThreadRef: 'gemini-1' });
    const again = (
      await t.ok(BIND, { input: { providerThreadId: created.providerThread.id, nativeThreadRef: 'gemini-2' } })
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
      await t.ok(BIND, {
        input: {
          providerThreadId: codexThread,
          nativeThreadRef: 'codex-session-1',
          fencingToken: resume.dispatch.fencingToken,
        },
      })
    ).bindNativeThread;
    expect(bound).toMatchObject({ resumedBlank: false, replanned: null, providerThread: { status: 'ACTIVE' } });
    await t.ok(COMPLETE_RUN, { input: { runId: resume.run.id, fencingToken: resume.dispatch.fencingToken } });
  });
});
