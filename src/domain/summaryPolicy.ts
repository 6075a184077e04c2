import { z } from 'zod';
import type { ProviderDefinition } from './providers.js';

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
  const named: [string, string][] = [
    ['default', policy.default],
    ...Object.entries(policy.providers).map(([provider, value]): [string, string] => [`providers.${provider}`, value]),
  ];
  for (const [where, value] of named) {
    if (!BUILT_IN_SOURCES.has(value) && !Object.hasOwn(policy.summarizers, value)) {
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

/** Who writes a handoff's summary, once the capabilities of the provider asked are known. */
export interface SummaryWriter {
  /** The handoff's stored source: local, configured:<name>, provider:<id>. */
  label: string;
  /** Who is asked to write it (a provider's id or a summarizer's name); null: the local summarizer, at once. */
  name: string | null;
  /** The provider asked; null for the local summarizer and a configured one. */
  createdByProvider: string | null;
  /** For the run's plan: which provider is asked, or why the local summarizer writes it instead. */
  reason: string | null;
}

/** The local summarizer, writing at once. */
export const LOCAL_SUMMARY_WRITER: SummaryWriter = {
  label: 'local',
  name: null,
  createdByProvider: null,
  reason: null,
};

/**
 * Who writes a summary `source` was asked for, at a run's start and on regeneration alike: the
 * provider being left or entered when it can write summaries, else the local summarizer (and the
 * reason says why); a configured summarizer or the local one as named.
 */
export function summaryWriterFor(
  source: SummarySource,
  providers: { leaving: ProviderDefinition | null; entering: ProviderDefinition },
): SummaryWriter {
  if (source.kind === 'local') return LOCAL_SUMMARY_WRITER;
  if (source.kind === 'configured')
    return { label: sourceLabel(source, null), name: source.name, createdByProvider: null, reason: null };
  const writer = providers[source.kind];
  if (!writer || !writer.capabilities.canGenerateSummaries) {
    return {
      ...LOCAL_SUMMARY_WRITER,
      reason: `The summary was asked of the ${source.kind} provider${writer ? ` (${writer.id})` : ''}, which cannot write summaries; the local summarizer writes it.`,
    };
  }
  return {
    label: sourceLabel(source, writer.id),
    name: writer.id,
    createdByProvider: writer.id,
    reason: `${writer.id} (the ${source.kind} provider) is asked to write the handoff summary.`,
  };
}
