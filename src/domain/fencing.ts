// Fencing of replaced dispatches, and the resumed-blank rule. A run's dispatch can be replaced while
// the orchestrator still has the old one in flight: a resume failure (or a resumed blank) moves the
// run to a new provider thread. Every dispatch therefore carries a fencing token naming the run and
// its dispatch epoch; a call echoing a replaced dispatch's token comes from a session nobody
// listens to any more, and is refused before it changes anything. Calls without a token are not
// fenced, as before tokens existed.
import { ThreadlineError, badInput } from './errors.js';
import type { ProviderThreadAction, ProviderThreadRecord, RunRecord } from './records.js';
import { REPLACED_PROVIDER_THREAD_STATUSES } from './standing.js';

export interface DispatchToken {
  runId: string;
  epoch: number;
}

const SEPARATOR = '~';

/** The token of a run's current dispatch: opaque to clients, who echo it back as given. */
export function fencingTokenOf(run: Pick<RunRecord, 'id' | 'dispatchEpoch'>): string {
  return `${run.id}${SEPARATOR}${run.dispatchEpoch}`;
}

export function parseFencingToken(token: string): DispatchToken {
  const at = token.lastIndexOf(SEPARATOR);
  const epoch = Number(token.slice(at + 1));
  if (at <= 0 || !Number.isSafeInteger(epoch) || epoch < 1)
    throw badInput('fencingToken', 'is not a token this service gave out (echo Dispatch.fencingToken as given)');
  return { runId: token.slice(0, at), epoch };
}

/**
 * Refuses a call that echoes `token` unless it belongs to the run's current dispatch: same run,
 * same epoch, and a provider thread that was not replaced since. `boundProviderThreadId` is the
 * provider thread a bind names, which must be the one serving the run now.
 */
export function assertCurrentDispatch(
  token: DispatchToken,
  run: Pick<RunRecord, 'id' | 'dispatchEpoch' | 'providerThreadId'>,
  providerThread: Pick<ProviderThreadRecord, 'id' | 'status'>,
  boundProviderThreadId: string | null = null,
): void {
  if (token.runId !== run.id) throw badInput('fencingToken', `belongs to another run than ${run.id}`);
  if (token.epoch > run.dispatchEpoch)
    throw badInput('fencingToken', 'is not a token this service gave out (echo Dispatch.fencingToken as given)');
  const details = {
    runId: run.id,
    providerThreadId: run.providerThreadId,
    currentEpoch: run.dispatchEpoch,
    tokenEpoch: token.epoch,
  };
  if (token.epoch < run.dispatchEpoch) {
    throw new ThreadlineError(
      'STALE_DISPATCH',
      `Dispatch ${token.epoch} of run ${run.id} was replaced by dispatch ${run.dispatchEpoch} (provider thread ${run.providerThreadId}); nothing was recorded.`,
      details,
    );
  }
  if (boundProviderThreadId !== null && boundProviderThreadId !== run.providerThreadId) {
    throw new ThreadlineError(
      'STALE_DISPATCH',
      `Run ${run.id} is served by provider thread ${run.providerThreadId}, not ${boundProviderThreadId}; nothing was recorded.`,
      details,
    );
  }
  if (REPLACED_PROVIDER_THREAD_STATUSES.includes(providerThread.status)) {
    throw new ThreadlineError(
      'STALE_DISPATCH',
      `Provider thread ${providerThread.id} of run ${run.id} was replaced (${providerThread.status}); nothing was recorded.`,
      details,
    );
  }
}

/**
 * A resumed blank: the dispatch told the provider to resume or reuse native thread
 * `dispatchedNativeRef`, and the provider reports another one. Real agent apps do this when they
 * silently start a fresh session; it is not the same continuity, so it is a resume failure.
 */
export function resumedBlank(
  action: ProviderThreadAction,
  dispatchedNativeRef: string | null,
  boundNativeRef: string,
): dispatchedNativeRef is string {
  return (
    (action === 'resume' || action === 'reuse') &&
    dispatchedNativeRef !== null &&
    dispatchedNativeRef !== boundNativeRef
  );
}

export function resumedBlankError(dispatchedNativeRef: string, boundNativeRef: string): string {
  return `resumed blank: asked to resume native thread ${JSON.stringify(dispatchedNativeRef)}, the provider reported ${JSON.stringify(boundNativeRef)}`;
}
