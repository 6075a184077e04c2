// The providers and planner limits the model-based tests run with, shared by the model and the
// service it is compared with. Small limits, so that short random sequences reach every staleness
// signal; two extra providers, so that capabilities the built-ins all share are also exercised.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_PROVIDERS, type ProviderCapabilities } from '../../src/domain/providers.js';

export const LIMITS = {
  /** A delta drawn from more provider threads than this becomes a full summary. */
  maxDeltaSourceThreads: 1,
  /** More live runs than this since a provider thread's last one make it stale. */
  maxRunsElsewhere: 3,
  /** A provider thread already holding this many standing handoffs is stale when it misses runs. */
  maxChainedHandoffs: 2,
};

const restricted: ProviderCapabilities = {
  acceptsSystemContext: false,
  acceptsDeveloperContext: false,
  acceptsSyntheticUserContext: false,
  canConsumeHandoffSummaries: true,
  canGenerateSummaries: false,
  supportsDeltaHandoff: false,
  supportsFullThreadHandoff: true,
  supportsModelSwitchInThread: false,
  // No limit: the model cannot predict summary lengths, so SUMMARY_EXCEEDS_POLICY must never fire.
  maxRecommendedHandoffChars: null,
  canForkThread: false,
  canForkFromTurn: false,
  canRollbackThread: false,
  nativeThreadIds: 'weak',
};

const EXTRA_PROVIDERS = [
  // Takes only full summaries, cannot fork or roll back, and has no reliable native ids.
  { id: 'plain', displayName: 'Plain', capabilities: restricted },
  // Takes no handoff at all (UNSUPPORTED), but forks natively from its latest turn and rolls back.
  {
    id: 'deaf',
    displayName: 'Deaf',
    capabilities: { ...restricted, canConsumeHandoffSummaries: false, supportsDeltaHandoff: true, canForkThread: true, canRollbackThread: true, nativeThreadIds: 'strong' as const },
  },
];

export const PROVIDERS: ReadonlyMap<string, ProviderCapabilities> = new Map(
  [...BUILT_IN_PROVIDERS, ...EXTRA_PROVIDERS].map((provider) => [provider.id, provider.capabilities]),
);

export function capabilitiesOf(provider: string): ProviderCapabilities {
  const capabilities = PROVIDERS.get(provider);
  if (!capabilities) throw new Error(`the model knows no provider ${provider}`);
  return capabilities;
}

/** The environment a service needs to run with these providers and limits. */
export function serviceEnvironment(): Record<string, string> {
  const file = join(tmpdir(), `threadline-model-providers-${process.pid}.json`);
  writeFileSync(file, JSON.stringify({ providers: EXTRA_PROVIDERS }));
  return {
    THREADLINE_PROVIDERS_FILE: file,
    THREADLINE_MAX_DELTA_SOURCE_THREADS: String(LIMITS.maxDeltaSourceThreads),
    THREADLINE_MAX_RUNS_ELSEWHERE: String(LIMITS.maxRunsElsewhere),
    THREADLINE_MAX_CHAINED_HANDOFFS: String(LIMITS.maxChainedHandoffs),
  };
}
