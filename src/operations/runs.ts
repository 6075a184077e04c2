// The end of a run's life cycle: completion and failure, fenced when the caller echoes its dispatch's token.
import { ThreadlineError, notFound, present } from '../domain/errors.js';
import { assertCurrentDispatch, parseFencingToken } from '../domain/fencing.js';
import type { RunRecord } from '../domain/records.js';
import { recordChange } from '../graph/repositories/changes.js';
import { finishRun, lockRunForUpdate, type RunOutcome } from '../graph/repositories/runs.js';
import type { LockedThread } from '../graph/repositories/threads.js';
import { inOrder } from '../graph/pipeline.js';
import type { Tx } from '../graph/transactions.js';
import { newId, type OperationContext } from './context.js';

export type CompletionInput = Omit<RunOutcome, 'status' | 'error' | 'checkpoint'> & {
  checkpoint: Omit<NonNullable<RunOutcome['checkpoint']>, 'id'> | null;
};

export async function completeRun(
  context: OperationContext,
  runId: string,
  input: CompletionInput,
  fencingToken: string | null,
): Promise<RunRecord> {
  const checkpoint = input.checkpoint && { ...input.checkpoint, id: newId('cp') };
  return endRun(context, runId, { ...input, checkpoint, status: 'completed', error: null }, fencingToken);
}

export async function failRun(
  context: OperationContext,
  runId: string,
  error: string,
  interrupted: boolean,
  fencingToken: string | null,
): Promise<RunRecord> {
  return endRun(
    context,
    runId,
    { status: interrupted ? 'interrupted' : 'failed', error, assistantMessage: null, facts: [], checkpoint: null },
    fencingToken,
  );
}

async function endRun(
  context: OperationContext,
  runId: string,
  outcome: RunOutcome,
  fencingToken: string | null,
): Promise<RunRecord> {
  return context.graph.write(async (tx) => {
    // A replaced dispatch's late answer is refused before the run's status is looked at: it says why.
    const locked = await lockDispatchedRun(tx, runId, fencingToken);
    if (locked.run.status !== 'running') {
      throw new ThreadlineError('CONFLICT', `Run ${runId} is ${locked.run.status}, not running.`, {
        status: locked.run.status,
      });
    }
    // The change record needs nothing the run's end answers: sent with it, one round trip.
    const [finished] = await inOrder([
      finishRun(tx, runId, outcome),
      recordChange(tx, locked.run.threadId, outcome.status === 'completed' ? 'run_completed' : 'run_failed'),
    ] as const);
    return finished;
  });
}

/**
 * The run and its thread under the thread's lock, for a call about the run's dispatch: NOT_FOUND when
 * there is no such run, and, when the caller echoes a fencing token, STALE_DISPATCH unless it is the
 * run's current dispatch.
 */
export async function lockDispatchedRun(
  tx: Tx,
  runId: string,
  fencingToken: string | null,
): Promise<{ run: RunRecord; thread: LockedThread }> {
  const token = fencingToken === null ? null : parseFencingToken(fencingToken);
  const locked = await lockRunForUpdate(tx, runId);
  if (!locked) throw notFound('Run', runId);
  if (token)
    assertCurrentDispatch(token, locked.run, present(locked.providerThread, `provider thread of run ${runId}`));
  return locked;
}
