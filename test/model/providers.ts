// The providers and planner limits the model-based tests run with, shared by the model and the
// service it is compared with. Small limits, so that short random sequences reach every staleness
// signal; two extra providers, so that capabilities the built-ins all share are also exercised.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_PROVIDERS, type ProviderCapabilities } from '../../src/domain/providers.js';
import { startChatCompletionsServer } from '../support/chatCompletionsServer.js';

export const LIMITS = {
  /** A delta drawn from more provider threads than this becomes a full summary. */
  maxDeltaSourceThreads: 1,
  /** More live runs than this since a provider thread's last one make it stale. */
  maxRunsElsewhere: 3,
  /** A provider thread already holding this many standing handoffs is stale when it misses runs. */
  maxChainedHandoffs: 2,
};

/**
 * Who writes each provider's switch summaries (the summary policy the services run with): Claude
 * itself, as the entering provider (PENDING until submitted or expired); for Plain a configured
 * summarizer that answers HTTP 500 (`broken`: the handoff FAILS and a local summary replaces it);
 * the local summarizer for the rest. regenerateHandoff may name any of them, or `local`.
 *
 * No configured summarizer that answers: its handoff is PENDING while it is called, so under load
 * the sweeper may expire it first, and the operation then answers with the expiry's replacement,
 * which the model cannot tell from the summarizer's handoff by the answer alone.
 * test/integration/summaries.sources.test.ts covers that path.
 */
export type SummaryWriter = 'local' | 'entering' | 'broken';
export const SUMMARY_WRITERS: Readonly<Record<string, SummaryWriter>> = { claude: 'entering', plain: 'broken' };

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
    capabilities: {
      ...restricted,
      canConsumeHandoffSummaries: false,
      supportsDeltaHandoff: true,
      canForkThread: true,
      canRollbackThread: true,
      nativeThreadIds: 'strong' as const,
    },
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

/** The configured summarizer: a real HTTP server failing with HTTP 500. */
export interface Summarizers {
  urls: { broken: string };
  close(): Promise<void>;
}

export async function startSummarizers(): Promise<Summarizers> {
  const broken = await startChatCompletionsServer();
  broken.setMode({ kind: 'fail', status: 500 });
  return { urls: { broken: broken.url }, close: () => broken.close() };
}

/**
 * The environment a service needs to run with these providers, limits and summary policy.
 * `pendingTimeoutSeconds`: how long a PENDING handoff may wait before each instance's sweeper
 * expires it (the sweeper looks every half of it, at most every 30 s).
 */
export function serviceEnvironment(summarizers: Summarizers, pendingTimeoutSeconds: number): Record<string, string> {
  const file = join(tmpdir(), `threadline-model-providers-${process.pid}.json`);
  writeFileSync(file, JSON.stringify({ providers: EXTRA_PROVIDERS }));
  const summarizer = (baseUrl: string) => ({ baseUrl, model: 'summary-model', timeoutMs: 10_000 });
  const summaries = join(tmpdir(), `threadline-model-summaries-${process.pid}.json`);
  writeFileSync(
    summaries,
    JSON.stringify({
      default: 'local',
      providers: SUMMARY_WRITERS,
      summarizers: { broken: summarizer(summarizers.urls.broken) },
      pendingTimeoutSeconds,
    }),
  );
  return {
    THREADLINE_PROVIDERS_FILE: file,
    THREADLINE_SUMMARIES_FILE: summaries,
    THREADLINE_MAX_DELTA_SOURCE_THREADS: String(LIMITS.maxDeltaSourceThreads),
    THREADLINE_MAX_RUNS_ELSEWHERE: String(LIMITS.maxRunsElsewhere),
    THREADLINE_MAX_CHAINED_HANDOFFS: String(LIMITS.maxChainedHandoffs),
  };
}
