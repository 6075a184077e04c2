// Measures what a handoff keeps (issue 16): session files read by the adapters, turned into the
// full-thread SummaryInput the service would build after an import, rendered at a budget, and checked
// for the artifacts the sessions show and for anything an adapter must never store. Pure: the caller
// reads the files.
import { isExploration } from '../domain/commands.js';
import { renderSummaryReport, type SummaryFact, type SummaryInput, type SummaryRun } from '../domain/summary.js';
import { parseSession } from './index.js';
import { INJECTED_MARKERS } from './injected.js';
import { asObject, parseJson } from './json.js';
import { redactSecrets } from './redact.js';
import type { ImportedRun, ParsedSession } from './types.js';

export const DEFAULT_BUDGET = 32_000;
const TIGHT_BUDGET = 4_000;
/** The default-budget overall share below which the evaluation fails. */
export const REQUIRED_SHARE = 0.95;

export const CATEGORIES = ['files', 'commands', 'tests', 'plan', 'questions', 'failures'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface SessionFile {
  name: string;
  text: string;
}

export interface Artifact {
  category: Category;
  /** What the handoff has to say for the artifact to count as kept. */
  text: string;
}

export interface BudgetResult {
  budget: number;
  length: number;
  /** Even full condensing did not fit: the summarizer cut the text hard. */
  cut: boolean;
  kept: Record<Category, { kept: number; total: number }>;
  overall: { kept: number; total: number };
  lost: Artifact[];
  /** Forbidden strings the handoff contains. */
  leaks: string[];
}

export interface ThreadEvaluation {
  name: string;
  sessions: number;
  runs: number;
  /** Files no adapter recognised, and the same session read twice: left out, as the importer does. */
  skipped: string[];
  results: BudgetResult[];
}

// Record types that carry a model's reasoning: Codex reasoning items and reasoning events, Claude
// thinking blocks. Their text is never stored, so no part of it may reach a handoff.
const REASONING_TYPES = new Set([
  'reasoning',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'thinking',
  'redacted_thinking',
]);
// A reasoning text is recognised by its opening characters; shorter strings (a signature, a heading)
// would match ordinary words.
const REASONING_PROBE = 40;
const REASONING_MIN = 12;

// An item the summarizer prints is cut to a few hundred characters: an artifact is kept when its
// opening, enough to name it, is there.
const IDENTIFYING_CHARS = 120;

const PLAN_OPEN = new Set(['open', 'in_progress']);
const ASK_OPEN = new Set(['', 'open', 'pending']);

/**
 * The thread an import of `files` makes: every session's runs in the order they started (ordinals
 * 1..n), each run's facts on its ordinal, a failed run's error its last failure, as tools/import.ts
 * sends them.
 */
function threadOf(
  name: string,
  files: readonly SessionFile[],
): { input: SummaryInput; sessions: ParsedSession[]; skipped: string[] } {
  const sessions = new Map<string, ParsedSession>();
  const skipped: string[] = [];
  for (const file of files) {
    const parsed = parseSession(file.name, file.text);
    const key = parsed === null ? null : `${parsed.provider} ${parsed.sessionId}`;
    if (parsed === null || key === null || sessions.has(key)) skipped.push(file.name);
    else sessions.set(key, parsed);
  }
  const turns = [...sessions.values()]
    .flatMap((session) => session.runs.map((run) => ({ provider: session.provider, run })))
    // ISO 8601 UTC times order as strings; the sort is stable, like the importer's.
    .sort((a, b) => (a.run.startedAt < b.run.startedAt ? -1 : a.run.startedAt > b.run.startedAt ? 1 : 0));
  const runs: SummaryRun[] = turns.map(({ provider, run }, index) => ({
    ordinal: index + 1,
    provider,
    status: run.status,
    userMessage: run.userMessage,
    assistantMessage: run.assistantMessage,
    error: errorOf(run),
  }));
  const facts: SummaryFact[] = turns.flatMap(({ run }, index) =>
    run.facts.map(({ kind, text, key, status }) => ({ runOrdinal: index + 1, kind, text, key, status })),
  );
  const lastProvider = runs.at(-1)?.provider;
  return {
    input: {
      strategy: 'full_thread_summary',
      threadId: name,
      title: name,
      covered: { from: 1, to: Math.max(1, runs.length) },
      providers: [...new Set(runs.map((run) => run.provider))],
      runs,
      omittedRunCount: 0,
      facts,
      latestCheckpoint: null,
      // A handoff goes to the other provider; which one does not change what the document holds.
      targetProvider: lastProvider === 'codex' ? 'claude' : 'codex',
    },
    sessions: [...sessions.values()],
    skipped,
  };
}

function errorOf(run: ImportedRun): string | null {
  return run.status === 'failed' ? (run.facts.findLast((fact) => fact.kind === 'failure')?.text ?? null) : null;
}

/**
 * What the sessions show that a successor needs: files changed, commands and tests run, plan items and
 * questions still open at the end (the newest state of each), failures, and runs that failed or were
 * cut off. Each once.
 */
function artifactsOf(input: SummaryInput): Artifact[] {
  const newest = new Map<string, SummaryFact>();
  for (const fact of input.facts) newest.set(`${fact.kind}\u0000${fact.key ?? fact.text}`, fact);
  const latest = [...newest.values()];
  const status = (fact: SummaryFact) => (fact.status ?? '').trim().toLowerCase();
  const of = (category: Category, facts: SummaryFact[], textOf: (fact: SummaryFact) => string): Artifact[] =>
    facts.map((fact) => ({ category, text: textOf(fact) }));
  const all = [
    ...of(
      'files',
      latest.filter((f) => f.kind === 'file_change'),
      (f) => f.key ?? f.text,
    ),
    ...of(
      'commands',
      latest.filter((f) => f.kind === 'command' && !isExploration(f.key ?? f.text)),
      (f) => f.key ?? f.text,
    ),
    ...of(
      'tests',
      latest.filter((f) => f.kind === 'test' && !isExploration(f.key ?? f.text)),
      (f) => f.key ?? f.text,
    ),
    ...of(
      'plan',
      latest.filter((f) => f.kind === 'plan_item' && PLAN_OPEN.has(status(f))),
      (f) => f.text,
    ),
    ...of(
      'questions',
      latest.filter((f) => (f.kind === 'question' || f.kind === 'approval_request') && ASK_OPEN.has(status(f))),
      (f) => f.text,
    ),
    ...of(
      'failures',
      input.facts.filter((f) => f.kind === 'failure'),
      // What failed is its first line; the handoff keeps the end of the error, not all of it.
      (f) => f.text.split('\n', 1)[0]!,
    ),
    ...input.runs
      .filter((run) => run.status === 'failed' || run.status === 'interrupted')
      .map((run) => ({ category: 'failures' as const, text: `run ${run.ordinal} ${run.status}` })),
  ];
  const seen = new Set<string>();
  return all.filter((artifact) => {
    const id = `${artifact.category}\u0000${collapse(artifact.text)}`;
    return !seen.has(id) && seen.add(id);
  });
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function isKept(artifact: Artifact, handoff: string): boolean {
  return collapse(handoff).includes(collapse(artifact.text).slice(0, IDENTIFYING_CHARS));
}

/**
 * Strings no handoff of these files may contain: injected-instruction markers, the opening of every
 * reasoning or thinking text the files hold, and `extra` (planted secrets, markers a fixture promises).
 */
export function forbiddenStrings(files: readonly SessionFile[], extra: readonly string[] = []): string[] {
  const reasoning = files.flatMap((file) =>
    file.text.split(/\r?\n/).flatMap((line) => reasoningTexts(parseJson(line), false)),
  );
  const probes = reasoning
    .map((text) => collapse(text).slice(0, REASONING_PROBE))
    .filter((probe) => probe.length >= REASONING_MIN);
  return [...new Set([...INJECTED_MARKERS, ...probes, ...extra])];
}

/** The strings inside reasoning records (not their type names or signatures). */
function reasoningTexts(value: unknown, inside: boolean): string[] {
  if (typeof value === 'string') return inside ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => reasoningTexts(item, inside));
  const object = asObject(value);
  if (object === null) return [];
  const reasoning = inside || (typeof object.type === 'string' && REASONING_TYPES.has(object.type));
  return Object.entries(object).flatMap(([key, item]) =>
    key === 'type' || key === 'signature' ? [] : reasoningTexts(item, reasoning),
  );
}

/** The forbidden strings the handoff holds, and any secret-shaped text the redaction would still change. */
export function leaksIn(handoff: string, forbidden: readonly string[]): string[] {
  const found = forbidden.filter((text) => handoff.includes(text));
  return redactSecrets(handoff) === handoff
    ? found
    : [...found, 'a secret-shaped string (redaction would change the handoff)'];
}

export function evaluateThread(
  name: string,
  files: readonly SessionFile[],
  options: { forbidden?: readonly string[]; budgets?: readonly number[] } = {},
): ThreadEvaluation {
  const { input, sessions, skipped } = threadOf(name, files);
  const artifacts = artifactsOf(input);
  const forbidden = forbiddenStrings(files, options.forbidden);
  const results = (options.budgets ?? [DEFAULT_BUDGET, TIGHT_BUDGET]).map((budget): BudgetResult => {
    const { text, cut } = renderSummaryReport(input, budget);
    const kept = Object.fromEntries(
      CATEGORIES.map((category) => [category, { kept: 0, total: 0 }]),
    ) as BudgetResult['kept'];
    const lost: Artifact[] = [];
    for (const artifact of artifacts) {
      const tally = kept[artifact.category];
      tally.total += 1;
      if (isKept(artifact, text)) tally.kept += 1;
      else lost.push(artifact);
    }
    return {
      budget,
      length: text.length,
      cut,
      kept,
      overall: { kept: artifacts.length - lost.length, total: artifacts.length },
      lost,
      leaks: leaksIn(text, forbidden),
    };
  });
  return { name, sessions: sessions.length, runs: input.runs.length, skipped, results };
}

/** Kept over total; nothing to keep is all of it kept. */
export function share({ kept, total }: { kept: number; total: number }): number {
  return total === 0 ? 1 : kept / total;
}

/** Why an evaluation fails: a default-budget share below REQUIRED_SHARE, or a forbidden string at any budget. */
export function failuresOf(evaluation: ThreadEvaluation): string[] {
  return evaluation.results.flatMap((result) => [
    ...(result.budget === DEFAULT_BUDGET && share(result.overall) < REQUIRED_SHARE
      ? [
          `${evaluation.name}: ${formatShare(result.overall)} kept at ${result.budget} characters, below ${REQUIRED_SHARE * 100}%`,
        ]
      : []),
    ...result.leaks.map(
      (leak) => `${evaluation.name}: the ${result.budget}-character handoff contains ${JSON.stringify(leak)}`,
    ),
  ]);
}

export function formatShare(tally: { kept: number; total: number }): string {
  return tally.total === 0 ? '-' : `${(share(tally) * 100).toFixed(1)}%`;
}
