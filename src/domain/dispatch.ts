import type { DispatchRecord, HandoffRecord, ProviderThreadRecord, RunRecord } from './records.js';

/** What the orchestrator sends the provider: the handoff as leading context, then the user's message. */
export function buildDispatch(run: RunRecord, providerThread: ProviderThreadRecord | null, handoff: HandoffRecord | null): DispatchRecord {
  const action = run.plan.providerThreadAction;
  const ready = handoff?.status === 'ready' ? handoff : null;
  return {
    providerThreadAction: action,
    nativeThreadRef: action === 'create' ? null : (providerThread?.nativeThreadRef ?? null),
    delivery: ready?.delivery ?? null,
    context: ready?.summaryText ?? null,
    userMessage: run.userMessage,
  };
}
