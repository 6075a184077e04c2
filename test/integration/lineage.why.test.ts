// The API says why: a handoff or transfer that stopped standing carries its reason and time, and a
// provider thread a rollback or a resume failure changed says why, with the error it was given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { completeRun, createThread, runTurns, startRun } from '../support/lineage.js';

const HANDOFF = `query($id: ID!) { contextHandoff(id: $id) { status endedBecause endedAt supersededBy { id } } }`;
const PROVIDER_THREAD = `query($id: ID!) { providerThread(id: $id) { status statusReason resumeError rollbackError } }`;
const TRANSFERS = `query($id: ID!) { thread(id: $id) { transfers { kind status endedBecause endedAt } } }`;

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

const handoff = async (id: string) => (await t.ok(HANDOFF, { id })).contextHandoff;
const providerThread = async (id: string) => (await t.ok(PROVIDER_THREAD, { id })).providerThread;

/** Codex 1-5, Claude 6-8 with H1, Codex 9 with H2. */
async function designExample() {
  const threadId = await createThread(t);
  const c1 = (await runTurns(t, threadId, 'codex', 5))!.providerThread.id as string;
  const sixth = await runTurns(t, threadId, 'claude', 3);
  const ninth = await runTurns(t, threadId, 'codex', 1);
  return { threadId, c1, l1: sixth!.providerThread.id as string, h2: ninth!.handoff.id as string };
}

describe('why a handoff stopped standing', () => {
  it('stands with no reason, and REGENERATED once a new one replaced it', async () => {
    const { h2 } = await designExample();
    expect(await handoff(h2)).toEqual({ status: 'READY', endedBecause: null, endedAt: null, supersededBy: null });
    const regenerated = (await t.ok(`mutation { regenerateHandoff(input: { handoffId: "${h2}" }) { id } }`))
      .regenerateHandoff;
    const old = await handoff(h2);
    expect(old).toMatchObject({
      status: 'SUPERSEDED',
      endedBecause: 'REGENERATED',
      supersededBy: { id: regenerated.id },
    });
    expect(Date.parse(old.endedAt)).toBeGreaterThan(0);
  });

  it('ROLLED_BACK when a rollback withdrew it, and the provider threads say why they changed', async () => {
    const { threadId, c1, l1, h2 } = await designExample();
    await t.ok(`mutation { rollbackThread(input: { threadId: "${threadId}", toOrdinal: 7 }) { rolledBackRunCount } }`);
    expect(await handoff(h2)).toMatchObject({ status: 'SUPERSEDED', endedBecause: 'ROLLED_BACK', supersededBy: null });
    expect(await providerThread(c1)).toEqual({
      status: 'ROLLED_BACK',
      statusReason:
        'The rollback to run 7 took 1 of its own turns; its provider rolls back natively: awaiting confirmProviderRollback or reportProviderRollbackFailure.',
      resumeError: null,
      rollbackError: null,
    });
    await t.ok(
      `mutation { reportProviderRollbackFailure(input: { providerThreadId: "${c1}", error: "turn 6 not found" }) { id } }`,
    );
    expect(await providerThread(c1)).toMatchObject({
      status: 'DIVERGENT',
      statusReason: 'Its native rollback failed: turn 6 not found',
      rollbackError: 'turn 6 not found',
    });
    await t.ok(`mutation { confirmProviderRollback(input: { providerThreadId: "${l1}" }) { id } }`);
    expect(await providerThread(l1)).toMatchObject({
      status: 'IDLE',
      statusReason: 'Its native rollback was confirmed.',
    });
  });

  it('RESUME_FAILED when the provider thread it was for could not be resumed, which says so', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 2);
    await runTurns(t, threadId, 'claude', 1);
    const back = await startRun(t, threadId, 'codex');
    await t.ok(
      `mutation { reportResumeFailure(input: { runId: "${back.run.id}", error: "session expired" }) { run { id } } }`,
    );
    expect(await handoff(back.handoff.id)).toMatchObject({ status: 'SUPERSEDED', endedBecause: 'RESUME_FAILED' });
    expect(await providerThread(back.providerThread.id)).toMatchObject({
      status: 'RESUME_FAILED',
      resumeError: 'session expired',
      statusReason: 'It could not be resumed: session expired',
    });
    const { transfers } = (await t.ok(TRANSFERS, { id: threadId })).thread;
    expect(transfers.filter((transfer: any) => transfer.status === 'SUPERSEDED')).toEqual([
      { kind: 'PROVIDER_HANDOFF', status: 'SUPERSEDED', endedBecause: 'RESUME_FAILED', endedAt: expect.any(String) },
    ]);
    await completeRun(t, back.run.id);
  });

  it('REPLACED_BY_NEWER_MERGE_BACK for an older pending merge-back of the same fork', async () => {
    const threadId = await createThread(t);
    await runTurns(t, threadId, 'codex', 2);
    const fork = (await t.ok(`mutation { forkThread(input: { sourceThreadId: "${threadId}" }) { id } }`)).forkThread.id;
    await runTurns(t, fork, 'codex', 1);
    await t.ok(`mutation { mergeBack(input: { forkThreadId: "${fork}" }) { id } }`);
    await runTurns(t, fork, 'codex', 1);
    await t.ok(`mutation { mergeBack(input: { forkThreadId: "${fork}" }) { id } }`);
    const { transfers } = (await t.ok(TRANSFERS, { id: threadId })).thread;
    expect(
      transfers
        .filter((transfer: any) => transfer.kind === 'MERGE_BACK')
        .map((transfer: any) => [transfer.status, transfer.endedBecause]),
    ).toEqual([
      ['SUPERSEDED', 'REPLACED_BY_NEWER_MERGE_BACK'],
      ['PENDING', null],
    ]);
  });
});
