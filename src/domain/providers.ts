import { z } from 'zod';
import { badInput, echoedId } from './errors.js';
import type { ContextDelivery } from './records.js';

const capabilitiesSchema = z
  .object({
    acceptsSystemContext: z.boolean(),
    acceptsDeveloperContext: z.boolean(),
    acceptsSyntheticUserContext: z.boolean(),
    canConsumeHandoffSummaries: z.boolean(),
    canGenerateSummaries: z.boolean(),
    supportsDeltaHandoff: z.boolean(),
    supportsFullThreadHandoff: z.boolean(),
    supportsModelSwitchInThread: z.boolean(),
    maxRecommendedHandoffChars: z.number().int().min(200).max(10_000_000).nullable(),
    canForkThread: z.boolean(),
    canForkFromTurn: z.boolean(),
    canRollbackThread: z.boolean(),
    nativeThreadIds: z.enum(['strong', 'weak', 'none']),
  })
  .strict();

export type ProviderCapabilities = z.infer<typeof capabilitiesSchema>;

export interface ProviderDefinition {
  id: string;
  displayName: string;
  capabilities: ProviderCapabilities;
}

const sharedAgentCapabilities = {
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
} as const;

export const BUILT_IN_PROVIDERS: readonly ProviderDefinition[] = [
  {
    id: 'codex',
    displayName: 'Codex',
    capabilities: { ...sharedAgentCapabilities, acceptsDeveloperContext: true, acceptsSystemContext: false },
  },
  {
    id: 'claude',
    displayName: 'Claude',
    capabilities: { ...sharedAgentCapabilities, acceptsDeveloperContext: false, acceptsSystemContext: true },
  },
];

const providerIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,63}$/, 'must be lowercase letters, digits, _ or -, starting with a letter');

const providersFileSchema = z
  .object({
    providers: z.array(
      z
        .object({
          id: providerIdSchema,
          displayName: z.string().min(1).max(200),
          // An override of a built-in may name only the capabilities it changes.
          capabilities: capabilitiesSchema.partial(),
        })
        .strict(),
    ),
  })
  .strict();

/**
 * Merges a providers file (already parsed JSON) over the built-ins. A new provider must declare
 * every capability; an override of a built-in inherits what it leaves out.
 */
export function mergeProviders(fileContent: unknown, source: string): ProviderDefinition[] {
  const parsed = providersFileSchema.safeParse(fileContent);
  if (!parsed.success) {
    throw new Error(`${source}: ${z.prettifyError(parsed.error)}`);
  }
  const byId = new Map(BUILT_IN_PROVIDERS.map((provider) => [provider.id, provider]));
  for (const entry of parsed.data.providers) {
    const base = byId.get(entry.id);
    const capabilities = capabilitiesSchema.safeParse({ ...base?.capabilities, ...entry.capabilities });
    if (!capabilities.success) {
      throw new Error(`${source}: provider "${entry.id}": ${z.prettifyError(capabilities.error)}`);
    }
    byId.set(entry.id, { id: entry.id, displayName: entry.displayName, capabilities: capabilities.data });
  }
  return [...byId.values()];
}

/** Developer context if accepted, else system, else synthetic user, else a preamble to the user message. */
export function deliveryFor(capabilities: ProviderCapabilities): ContextDelivery {
  if (capabilities.acceptsDeveloperContext) return 'developer';
  if (capabilities.acceptsSystemContext) return 'system';
  if (capabilities.acceptsSyntheticUserContext) return 'synthetic_user';
  return 'preamble';
}

/** The provider configured as `name`; refused as bad input at `field` when none is. */
export function knownProvider(
  providers: ReadonlyMap<string, ProviderDefinition>,
  name: string,
  field = 'provider',
): ProviderDefinition {
  const provider = providers.get(name);
  if (!provider)
    throw badInput(
      field,
      `unknown provider ${JSON.stringify(echoedId(name))}; known: ${[...providers.keys()].join(', ')}`,
    );
  return provider;
}
