// A fully capable provider and a plan request for the pure planner and fork tests. Spelled out here
// rather than taken from BUILT_IN_PROVIDERS, so a change to the built-ins cannot silently change what
// those tests exercise.
import type { PlanRequest } from '../../../src/domain/planner.js';
import type { ProviderCapabilities, ProviderDefinition } from '../../../src/domain/providers.js';

const CAPABLE: ProviderCapabilities = {
  acceptsSystemContext: false,
  acceptsDeveloperContext: true,
  acceptsSyntheticUserContext: true,
  canConsumeHandoffSummaries: true,
  canGenerateSummaries: true,
  supportsDeltaHandoff: true,
  supportsFullThreadHandoff: true,
  supportsModelSwitchInThread: true,
  maxRecommendedHandoffChars: 32_000,
  canForkThread: true,
  canForkFromTurn: true,
  canRollbackThread: true,
  nativeThreadIds: 'strong',
};

export function provider(id = 'codex', capabilities: Partial<ProviderCapabilities> = {}): ProviderDefinition {
  return { id, displayName: id.toUpperCase(), capabilities: { ...CAPABLE, ...capabilities } };
}

export function request(overrides: Partial<PlanRequest> = {}): PlanRequest {
  return { provider: provider(), model: null, runtimeMode: null, cleanContext: false, ...overrides };
}
