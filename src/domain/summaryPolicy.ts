import { z } from 'zod';

/** Who writes a handoff summary. */
export type SummarySource =
  { kind: 'local' } | { kind: 'leaving' } | { kind: 'entering' } | { kind: 'configured'; name: string };

export interface SummarizerSettings {
  baseUrl: string;
  model: string;
  /** The environment variable holding the API key; null: no key. */
  apiKeyEnv: string | null;
  timeoutMs: number;
}

export interface SummaryPolicy {
  /** Policy value for providers without their own: local, leaving, entering or a summarizer's name. */
  default: string;
  providers: Record<string, string>;
  summarizers: Record<string, SummarizerSettings>;
  /** A PENDING handoff not submitted in this time fails and the local summary replaces it. */
  pendingTimeoutSeconds: number;
}

export const DEFAULT_SUMMARY_POLICY: SummaryPolicy = {
  default: 'local',
  providers: {},
  summarizers: {},
  pendingTimeoutSeconds: 600,
};

const BUILT_IN_SOURCES = new Set(['local', 'leaving', 'entering']);

const summaryPolicySchema = z
  .object({
    default: z.string().min(1).default('local'),
    providers: z.record(z.string(), z.string().min(1)).default({}),
    summarizers: z
      .record(
        z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, 'summarizer names are lowercase letters, digits, _ or -'),
        z
          .object({
            baseUrl: z.url(),
            model: z.string().min(1),
            apiKeyEnv: z
              .string()
              .regex(/^[A-Z_][A-Z0-9_]*$/, 'must name an environment variable')
              .nullable()
              .default(null),
            timeoutMs: z.number().int().min(100).max(600_000).default(30_000),
          })
          .strict(),
      )
      .default({}),
    pendingTimeoutSeconds: z.number().int().min(1).max(86_400).default(600),
  })
  .strict();

/** Validates a summaries file (parsed JSON); every policy value must be a built-in source or a configured summarizer. */
export function parseSummaryPolicy(content: unknown, source: string): SummaryPolicy {
  const parsed = summaryPolicySchema.safeParse(content);
  if (!parsed.success) throw new Error(`${source}: ${z.prettifyError(parsed.error)}`);
  const policy = parsed.data;
  for (const [where, value] of [
    ['default', policy.default],
    ...Object.entries(policy.providers).map(([provider, value]) => [`providers.${provider}`, value]),
  ]) {
    if (!BUILT_IN_SOURCES.has(value!) && !Object.hasOwn(policy.summarizers, value!)) {
      throw new Error(`${source}: ${where}: "${value}" is not local, leaving, entering or a configured summarizer`);
    }
  }
  return policy;
}

/** The source a handoff for `targetProvider` is written by, or the one named explicitly. */
export function summarySourceFor(
  policy: SummaryPolicy,
  targetProvider: string,
  explicit: string | null = null,
): SummarySource | null {
  // Own keys only: a name such as toString or constructor is neither a provider's value nor a summarizer.
  const value =
    explicit ??
    (Object.hasOwn(policy.providers, targetProvider) ? policy.providers[targetProvider] : undefined) ??
    policy.default;
  if (value === 'local' || value === 'leaving' || value === 'entering') return { kind: value };
  return Object.hasOwn(policy.summarizers, value) ? { kind: 'configured', name: value } : null;
}

/** The handoff's stored source: local, configured:<name>, provider:<id>. */
export function sourceLabel(source: SummarySource, writer: string | null): string {
  if (source.kind === 'local') return 'local';
  if (source.kind === 'configured') return `configured:${source.name}`;
  return `provider:${writer}`;
}
