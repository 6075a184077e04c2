// How a fork's first run takes in its source: natively when the provider can continue the source's
// own conversation, else through portable context (docs/design.md, "Fork").
import { configIncompatibility, type Plan, type PlanRequest } from './planner.js';
import type { HandoffStrategy, ProviderThreadRecord, ProviderThreadStatus, TransferResolution } from './records.js';
import { REPLACED_PROVIDER_THREAD_STATUSES } from './standing.js';

export interface PendingFork {
  /** The source point's provider thread; null when the fork starts from a checkpoint alone. */
  sourceProviderThread: ProviderThreadRecord | null;
  sourceRunOrdinal: number;
  /** How many of the source provider thread's own turns lie at or before the source point. */
  sourceTurns: number;
  fromCheckpoint: boolean;
}

export type ForkResolution =
  | { kind: 'native'; providerThreadId: string; forkFromTurn: number; reason: string }
  | { kind: 'portable'; strategy: HandoffStrategy; resolution: TransferResolution; reason: string };

/** A replaced provider thread, or a closed one, has no session left to fork natively. */
const UNFORKABLE_STATUSES: ReadonlySet<ProviderThreadStatus> = new Set([
  ...REPLACED_PROVIDER_THREAD_STATUSES,
  'closed',
]);

export function resolveFork(fork: PendingFork, request: PlanRequest): ForkResolution {
  const source = fork.sourceProviderThread;
  const why = source
    ? whyNotNative(fork, source, request)
    : 'the fork starts from a checkpoint, with no provider thread to fork';
  if (source && why === null) {
    return {
      kind: 'native',
      providerThreadId: source.id,
      forkFromTurn: fork.sourceTurns,
      reason: `Provider thread ${source.id} is forked natively at its turn ${fork.sourceTurns} (run ${fork.sourceRunOrdinal}).`,
    };
  }
  return fork.fromCheckpoint
    ? {
        kind: 'portable',
        strategy: 'checkpoint_summary',
        resolution: 'checkpoint_context',
        reason: `The fork gets a checkpoint summary: ${why}.`,
      }
    : {
        kind: 'portable',
        strategy: 'full_thread_summary',
        resolution: 'portable_context',
        reason: `The fork gets portable context: ${why}.`,
      };
}

function whyNotNative(fork: PendingFork, source: ProviderThreadRecord, request: PlanRequest): string | null {
  const capabilities = request.provider.capabilities;
  if (source.provider !== request.provider.id)
    return `the source point was served by ${source.provider}, not ${request.provider.id}`;
  if (!capabilities.canForkThread) return `${request.provider.id} cannot fork threads`;
  const isLatestTurn = source.lastRunOrdinal === fork.sourceRunOrdinal;
  if (!isLatestTurn && !capabilities.canForkFromTurn) return `${request.provider.id} cannot fork from an earlier turn`;
  if (capabilities.nativeThreadIds !== 'strong' || source.nativeThreadRef === null)
    return `provider thread ${source.id} has no reliable native id`;
  if (UNFORKABLE_STATUSES.has(source.status))
    return `provider thread ${source.id} is ${source.status.replace('_', ' ')}`;
  if (request.cleanContext) return 'a clean context was requested';
  return configIncompatibility(source, request);
}

/** The fork's first-run plan: the planner's (a new provider thread with a full summary), or a native fork. */
export function planForFork(plan: Plan, resolution: ForkResolution): Plan {
  if (resolution.kind === 'native') {
    return {
      decision: 'no_handoff',
      providerThreadAction: 'native_fork',
      providerThreadId: resolution.providerThreadId,
      handoffStrategy: null,
      coveredRunOrdinals: null,
      stalenessSignals: [],
      reasons: [resolution.reason],
      forkFromTurn: resolution.forkFromTurn,
      replacedProviderThreadId: null,
    };
  }
  if (plan.handoffStrategy === null) return { ...plan, reasons: [...plan.reasons, resolution.reason] };
  return { ...plan, handoffStrategy: resolution.strategy, reasons: [...plan.reasons, resolution.reason] };
}
