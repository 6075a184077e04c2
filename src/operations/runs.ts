// The end of a run's life cycle: completion and failure, fenced when the caller echoes its dispatch's token.
import { ThreadlineError, notFound, present } from '../domain/errors.js';
import { assertCurrentDispatch, parseFencingToken, type DispatchToken } from '../domain/fencing.js';
import type { ProviderThreadRecord, RunRecord } from '../domain/records.js';
import { finishRun, lockRunForUpdate, type LockedRun, type RunOutcome } from '../graph/repositories/runs.js';
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
  const token = parsedToken(fencingToken);
  // One statement locks the thread, ends the run if it is running and records the change; the checks
  // below read what it found under the lock. Without a token, what they refuse (no such run, a run
  // not running) is what the statement did not write: it needs no transaction around it to roll back.
  const end = async (tx: Tx): Promise<RunRecord> => {
    const ended = await finishRun(tx, runId, outcome);
    // A replaced dispatch's late answer is refused before the run's status is looked at: it says why.
    const locked = dispatchedRun(ended?.locked ?? null, runId, token);
    if (locked.run.status !== 'running') {
      throw new ThreadlineError('CONFLICT', `Run ${runId} is ${locked.run.status}, not running.`, {
        status: locked.run.status,
      });
    }
    return present(ended?.finished, `run ${runId} as ended`);
  };
  return token === null ? context.graph.writeInOneStatement(end) : context.graph.write(end);
}

/**
 * The run and its thread under the thread's lock, for a call about the run's dispatch: NOT_FOUND when
 * there is no such run, and, when the caller echoes a fencing token, STALE_DISPATCH unless it is the
 * run's current dispatch.
 */
export async function lockDispatchedRun(tx: Tx, runId: string, fencingToken: string | null): Promise<LockedRun> {
  const token = parsedToken(fencingToken);
  return dispatchedRun(await lockRunForUpdate(tx, runId), runId, token);
}

function parsedToken(fencingToken: string | null): DispatchToken | null {
  return fencingToken === null ? null : parseFencingToken(fencingToken);
}

/** What the checks of a call about a run's dispatch read of the run and of its provider thread. */
interface DispatchCheck {
  run: Pick<RunRecord, 'id' | 'status' | 'dispatchEpoch' | 'providerThreadId'>;
  providerThread: Pick<ProviderThreadRecord, 'id' | 'status'> | null;
}

function dispatchedRun<T extends DispatchCheck>(locked: T | null, runId: string, token: DispatchToken | null): T {
  if (!locked) throw notFound('Run', runId);
  if (token)
    assertCurrentDispatch(token, locked.run, present(locked.providerThread, `provider thread of run ${runId}`));
  return locked;
}
