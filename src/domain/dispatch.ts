import { fencingTokenOf } from './fencing.js';
import type { DispatchRecord, HandoffRecord, ProviderThreadRecord, RunRecord } from './records.js';

/**
 * What the orchestrator sends the provider: the handoff as leading context, then the user's message.
 * For a native fork, providerThread is the source one: its native ref is what the provider forks.
 */
export function buildDispatch(
  run: Pick<RunRecord, 'id' | 'plan' | 'userMessage' | 'dispatchEpoch'>,
  providerThread: ProviderThreadRecord | null,
  handoff: HandoffRecord | null,
): DispatchRecord {
  const action = run.plan.providerThreadAction;
  const ready = handoff?.status === 'ready' ? handoff : null;
  return {
    providerThreadAction: action,
    nativeThreadRef: action === 'create' ? null : (providerThread?.nativeThreadRef ?? null),
    forkFromTurn: action === 'native_fork' ? (run.plan.forkFromTurn ?? null) : null,
    delivery: ready?.delivery ?? null,
    context: ready?.summaryText ?? null,
    userMessage: run.userMessage,
    fencingToken: fencingTokenOf(run),
  };
}

/** The provider thread whose native ref the dispatch carries: for a native fork, the source one. */
export function dispatchProviderThreadId(run: Pick<RunRecord, 'plan' | 'providerThreadId'>): string {
  return run.plan.providerThreadAction === 'native_fork' && run.plan.providerThreadId
    ? run.plan.providerThreadId
    : run.providerThreadId;
}
