/**
 * Local deterministic handoff summarizer: renders a Markdown handoff document from structured run
 * data. Pure: the same input always gives byte-identical output.
 */
import { describeOrdinals } from './ranges.js';
import type { FileChangeKind, HandoffStrategy, RunFactKind, RunStatus } from './records.js';

export type SummaryStrategy = HandoffStrategy;
export type SummaryRunStatus = RunStatus;
export type SummaryFactKind = RunFactKind;
export type SummaryFileChangeKind = FileChangeKind;

export interface SummaryRun {
  ordinal: number;
  provider: string;
  status: SummaryRunStatus;
  userMessage: string;
  assistantMessage: string | null;
  error: string | null;
}
export interface SummaryFact {
  runOrdinal: number;
  kind: SummaryFactKind;
  text: string;
  key: string | null;
  status: string | null;
  /** A file_change fact's typed change, when it was recorded with one. */
  file?: SummaryFile | null;
}
export interface SummaryFile {
  path: string;
  change: SummaryFileChangeKind;
  additions: number | null;
  deletions: number | null;
}
export interface SummaryCheckpoint {
  runOrdinal: number;
  ref: string;
  diffSummary: string | null;
  files: SummaryFile[];
}
export interface SummaryInput {
  strategy: SummaryStrategy;
  threadId: string;
  title: string | null;
  /** Ordinal range the handoff covers. */
  covered: { from: number; to: number };
  /** The live runs of that range, as ranges; the whole range when absent. Rolled-back ordinals are never claimed. */
  coveredLive?: readonly { from: number; to: number }[];
  /** Providers that served the covered runs, in first-use order. */
  providers: string[];
  /** Covered live runs that were loaded, any order. */
  runs: SummaryRun[];
  /** Older covered runs that were not loaded at all. */
  omittedRunCount: number;
  /** Facts of the covered live runs, any order. */
  facts: SummaryFact[];
  latestCheckpoint: SummaryCheckpoint | null;
  /** Who will read the document. */
  targetProvider: string;
}

const HIDDEN_KINDS: ReadonlySet<string> = new Set<SummaryFactKind>(['reasoning', 'protocol', 'tool_output']);
const PLAN_DONE: ReadonlySet<string> = new Set(['done', 'completed', 'cancelled', 'canceled']);
const ASK_CLOSED: ReadonlySet<string> = new Set(['resolved', 'answered', 'closed', 'approved', 'rejected', 'done']);
const FILE_CHANGES: ReadonlySet<string> = new Set<SummaryFileChangeKind>(['added', 'modified', 'deleted', 'renamed']);

const STRATEGY_WORDS: Record<SummaryStrategy, string> = {
  delta_since_target_last_seen: 'delta since you last took part',
  full_thread_summary: 'full thread summary',
  checkpoint_summary: 'checkpoint summary',
  manual_context: 'manual context',
  fork_delta_summary: 'merge-back: what a fork did since it branched off',
};

const ITEM_MAX = 300;
const PATH_MAX = 200;
const RUN_GIST_FULL = 120;
const RUN_GIST_SHORT = 40;

// Caps for the variable parts of the header. The compact set is used only when cutting hard, and
// is small enough that the compact header plus the cut marker always fit in 200 characters.
interface HeaderCaps {
  title: number;
  range: number;
  providers: number;
  target: number;
}
const HEADER_CAPS: HeaderCaps = { title: 80, range: 40, providers: 120, target: 40 };
const COMPACT_HEADER_CAPS: HeaderCaps = { title: 16, range: 24, providers: 20, target: 12 };

type SectionId =
  'goals' | 'decisions' | 'files' | 'commands' | 'plan' | 'open' | 'checkpoint' | 'failures' | 'subagents' | 'notes';

const SECTION_HEADINGS: Record<SectionId, string> = {
  goals: 'Goals and constraints',
  decisions: 'Decisions',
  files: 'Files changed',
  commands: 'Commands and tests',
  plan: 'Plan / todo',
  open: 'Open approvals and questions',
  checkpoint: 'Latest checkpoint',
  failures: 'Known failures',
  subagents: 'Subagent results',
  notes: 'Notes',
};

const FULL_ORDER: SectionId[] = [
  'goals',
  'decisions',
  'files',
  'commands',
  'plan',
  'open',
  'checkpoint',
  'failures',
  'subagents',
  'notes',
];
const CHECKPOINT_ORDER: SectionId[] = ['goals', 'checkpoint', 'files', 'plan', 'open', 'failures'];
const MERGE_BACK_ORDER: SectionId[] = [
  'decisions',
  'files',
  'commands',
  'notes',
  'plan',
  'open',
  'failures',
  'subagents',
];

interface Section {
  id: SectionId;
  items: string[];
}
interface RunLine {
  full: string;
  short: string;
  bare: string;
}

/** Everything the document can say, fully rendered line by line, before any condensing. */
interface Model {
  header: string[];
  compactHeader: string[];
  sections: Section[];
  /** Oldest first; null when the strategy has no per-run lines. */
  runs: RunLine[] | null;
  omittedRuns: number;
}

/**
 * How far the document is condensed. Runs are indexed oldest first: the first `droppedRuns` are left
 * out, the first `bareRuns` are bare, the first `shortRuns` have short gists. `hidden[id]` is how many
 * of a section's oldest items are replaced by a "… N more" line.
 */
interface Condensing {
  shortRuns: number;
  bareRuns: number;
  droppedRuns: number;
  hidden: Partial<Record<SectionId, number>>;
}

const NOT_CONDENSED: Condensing = { shortRuns: 0, bareRuns: 0, droppedRuns: 0, hidden: {} };

interface CondenseStep {
  max: (model: Model) => number;
  apply: (c: Condensing, amount: number) => Condensing;
}

const runStep = (field: 'shortRuns' | 'bareRuns' | 'droppedRuns'): CondenseStep => ({
  max: (model) => model.runs?.length ?? 0,
  apply: (c, amount) => ({ ...c, [field]: amount }),
});

const sectionStep = (id: SectionId): CondenseStep => ({
  max: (model) => model.sections.find((s) => s.id === id)?.items.length ?? 0,
  apply: (c, amount) => ({ ...c, hidden: { ...c.hidden, [id]: amount } }),
});

/** Applied in this order; goals, decisions, open items and the checkpoint are never trimmed. */
const CONDENSE_STEPS: CondenseStep[] = [
  runStep('shortRuns'),
  runStep('bareRuns'),
  runStep('droppedRuns'),
  sectionStep('notes'),
  sectionStep('subagents'),
  sectionStep('commands'),
  sectionStep('files'),
  sectionStep('failures'),
];

/** Renders the handoff document; never longer than budgetChars (null = no limit). */
export function renderSummary(input: SummaryInput, budgetChars: number | null): string {
  return renderSummaryReport(input, budgetChars).text;
}

/** renderSummary, also telling whether even full condensing did not fit and the text was cut hard. */
export function renderSummaryReport(input: SummaryInput, budgetChars: number | null): { text: string; cut: boolean } {
  const model = buildModel(input);
  const full = render(model, NOT_CONDENSED);
  if (budgetChars === null) return { text: full, cut: false };
  const budget = Number.isNaN(budgetChars) ? 0 : Math.max(0, Math.floor(budgetChars));
  if (full.length <= budget) return { text: full, cut: false };

  const fits = (c: Condensing): boolean => render(model, c).length <= budget;
  let current = NOT_CONDENSED;
  for (const step of CONDENSE_STEPS) {
    const max = step.max(model);
    if (max === 0) continue;
    const most = step.apply(current, max);
    if (!fits(most)) {
      current = most;
      continue;
    }
    // Condense as little as needed: `current` (amount 0) does not fit, `max` does.
    let lo = 0;
    let hi = max;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (fits(step.apply(current, mid))) hi = mid;
      else lo = mid;
    }
    return { text: render(model, step.apply(current, hi)), cut: false };
  }
  return { text: hardCut(model, current, budget), cut: true };
}

/** The text's length with every run line bare and nothing left out: the least `input` takes whole. */
function leastLength(input: SummaryInput): number {
  const model = buildModel(input);
  const runs = model.runs?.length ?? 0;
  return render(model, { shortRuns: runs, bareRuns: runs, droppedRuns: 0, hidden: {} }).length;
}

/**
 * The rule that ends a summary's read, newest first: what was read already fills the budget when even
 * its least length does not fit, so condensing must leave runs or items out, the oldest first. Older
 * runs would be left out as well, so the read stops and the text says how many earlier runs it did not
 * load. Their facts are not carried either: a summary speaks for the newest history its budget holds.
 * Until then, `moreRuns` is how many older runs to read next: enough to fill the room left at the
 * rate the runs read so far took it, and at least `leastStep`, so a nearly full read ends soon.
 */
export function fillsBudget(
  input: SummaryInput,
  budgetChars: number,
  leastStep: number,
): { full: true } | { full: false; moreRuns: number } {
  const least = leastLength(input);
  if (least > budgetChars) return { full: true };
  const perRun = input.runs.length === 0 ? 0 : least / input.runs.length;
  return {
    full: false,
    moreRuns: perRun === 0 ? leastStep : Math.max(leastStep, Math.ceil((budgetChars - least) / perRun)),
  };
}

/** The "gist" used for per-run lines: first line / sentence, whitespace collapsed, cut to maxChars with an ellipsis. */
export function gist(text: string, maxChars: number): string {
  const line = firstLine(text);
  const end = line.search(/[.!?](\s|$)/);
  return oneLine(end >= 0 ? line.slice(0, end + 1) : line, maxChars);
}

function firstLine(text: string): string {
  return text.split(/\r\n|\r|\n/).find((l) => l.trim() !== '') ?? '';
}

/** Whole text on one line (so it cannot start its own Markdown block), cut to maxChars. */
function oneLine(text: string, maxChars: number): string {
  return cut(text.replace(/\s+/g, ' ').trim(), maxChars);
}

function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (!(maxChars >= 1)) return '';
  let head = text.slice(0, Math.floor(maxChars) - 1);
  // Do not leave half of a surrogate pair in front of the ellipsis.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `${head.trimEnd()}…`;
}

function normStatus(status: string | null): string {
  return (status ?? '').trim().toLowerCase();
}

/** Stable sort by a numeric key; ties keep input order. */
function sortByNumber<T>(items: readonly T[], keyOf: (item: T) => number): T[] {
  return items
    .map((item, index) => ({ item, index, key: keyOf(item) }))
    .sort((a, b) => a.key - b.key || a.index - b.index)
    .map((entry) => entry.item);
}

/** Visible facts, ordered by run then input order, with keyed facts superseded by their newest form. */
function liveFacts(facts: readonly SummaryFact[]): SummaryFact[] {
  const sorted = sortByNumber(
    facts.filter((f) => !HIDDEN_KINDS.has(f.kind)),
    (f) => f.runOrdinal,
  );
  const newest = new Map<string, SummaryFact>();
  for (const f of sorted) if (f.key !== null) newest.set(`${f.kind}\u0000${f.key}`, f);
  return sorted.filter((f) => f.key === null || newest.get(`${f.kind}\u0000${f.key}`) === f);
}

function factItem(fact: SummaryFact, label: string | null = null): string {
  const text = oneLine(fact.text, ITEM_MAX) || '(empty)';
  const status = fact.status === null ? '' : oneLine(fact.status, 40);
  return `- ${label === null ? '' : `${label}: `}${text}${status === '' ? '' : ` [${status}]`} (run ${fact.runOrdinal})`;
}

interface FileMention {
  path: string;
  change: string | null;
  additions: number | null;
  deletions: number | null;
}

/** A file fact's path: its key, else the first word of its text, which may go on to describe the change. */
function factPath(fact: SummaryFact): string {
  const named =
    fact.key !== null && fact.key.trim() !== '' ? fact.key : (firstLine(fact.text).split(/:\s|\s/)[0] ?? '');
  return filePath(named);
}

/** One spelling per file: `./src/a.ts` and `src/a.ts` are the same path. */
function filePath(path: string): string {
  return oneLine(path.trim().replace(/^(\.\/)+/, ''), PATH_MAX) || '(unnamed file)';
}

/** The change a file went through over the range, from its previous net change and the next one; null: no change left. */
function netChange(previous: string | null | undefined, next: string | null): string | null {
  if (previous === undefined || previous === null || next === null) return next ?? previous ?? null;
  if (previous === 'added' && next === 'deleted') return null;
  if (previous === 'added') return 'added';
  if (previous === 'deleted' && next === 'added') return 'modified';
  return next;
}

const sumKnown = (a: number | null | undefined, b: number | null): number | null =>
  a === null || a === undefined ? b : b === null ? a : a + b;

function fileItems(facts: readonly SummaryFact[], checkpoint: SummaryCheckpoint | null): string[] {
  const factMentions = facts.map((f) => ({
    ordinal: f.runOrdinal,
    // A typed change says it all; an untyped one has a path (key or text) and maybe a change in its status.
    mention: (f.file
      ? { path: filePath(f.file.path), change: f.file.change, additions: f.file.additions, deletions: f.file.deletions }
      : {
          path: factPath(f),
          change: FILE_CHANGES.has(normStatus(f.status)) ? normStatus(f.status) : null,
          additions: null,
          deletions: null,
        }) satisfies FileMention,
  }));
  const checkpointMentions = (checkpoint?.files ?? []).map((file) => ({
    ordinal: checkpoint?.runOrdinal ?? 0,
    mention: { path: filePath(file.path), change: file.change, additions: file.additions, deletions: file.deletions },
  }));
  // Stable: within one run, facts come before the checkpoint's own file list.
  const mentions = sortByNumber([...factMentions, ...checkpointMentions], (m) => m.ordinal);

  // One entry per path, placed at its latest mention, with its net change and the sum of its known counts.
  const byPath = new Map<string, FileMention & { gone: boolean }>();
  for (const { mention } of mentions) {
    const prev = byPath.get(mention.path);
    byPath.delete(mention.path);
    const change = netChange(prev?.gone ? 'deleted' : prev?.change, mention.change);
    byPath.set(mention.path, {
      path: mention.path,
      change,
      gone: prev !== undefined && change === null && mention.change === 'deleted',
      additions: sumKnown(prev?.additions, mention.additions),
      deletions: sumKnown(prev?.deletions, mention.deletions),
    });
  }
  return [...byPath.values()]
    .filter((m) => !m.gone)
    .map((m) => {
      const counts = [m.additions === null ? '' : `+${m.additions}`, m.deletions === null ? '' : `-${m.deletions}`]
        .filter((count) => count !== '')
        .join('/');
      return `- ${m.path} (${m.change ?? 'changed'}${counts === '' ? '' : `, ${counts}`})`;
    });
}

// A diff summary is a short description; a raw diff (hunks, +/- lines) is left out where the files
// section already lists the files, as the design asks of large diffs.
const RAW_DIFF_LINE = /^(diff --git |--- |\+\+\+ |@@ )/m;
const DIFF_SUMMARY_MAX_LINES = 5;

function checkpointItems(checkpoint: SummaryCheckpoint | null): string[] {
  if (checkpoint === null) return [];
  const items = [`- Ref: ${oneLine(checkpoint.ref, 120) || '(none)'} (run ${checkpoint.runOrdinal})`];
  const summary = checkpoint.diffSummary ?? '';
  const lines = summary.split('\n').length;
  if (RAW_DIFF_LINE.test(summary) || lines > DIFF_SUMMARY_MAX_LINES)
    items.push(`- Diff: a raw diff of ${lines} lines, left out (see Files changed)`);
  else if (oneLine(summary, ITEM_MAX) !== '') items.push(`- Diff: ${oneLine(summary, ITEM_MAX)}`);
  return items;
}

function failureItems(failureFacts: readonly SummaryFact[], runs: readonly SummaryRun[]): string[] {
  const runFailures = runs
    .filter((r) => r.status === 'failed' || r.status === 'interrupted')
    .map((r) => {
      const error = r.error === null ? '' : gist(r.error, 200);
      return { ordinal: r.ordinal, line: `- run ${r.ordinal} ${r.status}${error === '' ? '' : `: ${error}`}` };
    });
  const factFailures = failureFacts.map((f) => ({ ordinal: f.runOrdinal, line: factItem(f) }));
  // Within one run, the run's own status line comes before its failure facts.
  return sortByNumber([...runFailures, ...factFailures], (e) => e.ordinal).map((e) => e.line);
}

function runLine(run: SummaryRun): RunLine {
  const status = run.status === 'completed' ? '' : ` [${String(run.status).replace(/_/g, ' ')}]`;
  const bare = `- ${run.ordinal} · ${oneLine(run.provider, 40) || '(unknown)'}${status}`;
  const withGists = (max: number): string => {
    const answer = run.assistantMessage === null ? '' : gist(run.assistantMessage, max);
    return `${bare} · user: ${gist(run.userMessage, max) || '(empty)'} → ${answer || '(no answer)'}`;
  };
  return { full: withGists(RUN_GIST_FULL), short: withGists(RUN_GIST_SHORT), bare };
}

function headerLines(input: SummaryInput, caps: HeaderCaps, compact: boolean): string[] {
  // Only the live runs of the covered range: a rolled-back run is never claimed.
  const range = cut(describeOrdinals(input.coveredLive ?? [input.covered]), caps.range);
  const name = oneLine(input.title ?? '', caps.title) || oneLine(input.threadId, caps.title) || '(unknown)';
  const strategy = STRATEGY_WORDS[input.strategy] ?? oneLine(String(input.strategy), 30);
  const providers = oneLine(
    [...new Set(input.providers.map((p) => oneLine(p, 40)))].filter((p) => p !== '').join(', '),
    caps.providers,
  );
  const lines = [
    compact ? `# Handoff: thread ${name}` : `# Handoff: ${range} of thread ${name}`,
    `Strategy: ${strategy}`,
    `Covers ${range}`,
  ];
  if (providers !== '') lines.push(`Providers: ${providers}`);
  lines.push(`For: ${oneLine(input.targetProvider, caps.target) || '(unknown)'}`);
  return lines;
}

function buildModel(input: SummaryInput): Model {
  const runs = sortByNumber(input.runs, (r) => r.ordinal);
  const facts = liveFacts(input.facts);
  const ofKind = (...kinds: SummaryFactKind[]): SummaryFact[] => facts.filter((f) => kinds.includes(f.kind));

  const items: Record<SectionId, string[]> = {
    goals: ofKind('goal', 'constraint').map((f) => factItem(f, f.kind === 'goal' ? 'Goal' : 'Constraint')),
    decisions: ofKind('decision').map((f) => factItem(f)),
    // Every change of a file counts towards its net change, not only the newest fact of its key.
    files: fileItems(
      sortByNumber(
        input.facts.filter((f) => f.kind === 'file_change'),
        (f) => f.runOrdinal,
      ),
      input.latestCheckpoint,
    ),
    commands: ofKind('command', 'test').map((f) => factItem(f, f.kind === 'command' ? 'Command' : 'Test')),
    plan: ofKind('plan_item')
      .filter((f) => !PLAN_DONE.has(normStatus(f.status)))
      .map((f) => factItem(f)),
    open: ofKind('approval_request', 'question')
      .filter((f) => !ASK_CLOSED.has(normStatus(f.status)))
      .map((f) => factItem(f, f.kind === 'question' ? 'Question' : 'Approval')),
    checkpoint: checkpointItems(input.latestCheckpoint),
    failures: failureItems(ofKind('failure'), runs),
    subagents: ofKind('subagent_result').map((f) => factItem(f)),
    notes: ofKind('note').map((f) => factItem(f)),
  };

  const order =
    input.strategy === 'checkpoint_summary'
      ? CHECKPOINT_ORDER
      : input.strategy === 'fork_delta_summary'
        ? MERGE_BACK_ORDER
        : FULL_ORDER;
  // Checkpoint summaries and merge-backs carry conclusions, not the transcript: no per-run lines.
  const withRuns = input.strategy !== 'checkpoint_summary' && input.strategy !== 'fork_delta_summary';
  return {
    header: headerLines(input, HEADER_CAPS, false),
    compactHeader: headerLines(input, COMPACT_HEADER_CAPS, true),
    sections: order.map((id) => ({ id, items: items[id] })).filter((s) => s.items.length > 0),
    runs: withRuns ? runs.map(runLine) : null,
    omittedRuns: Math.max(0, Math.floor(input.omittedRunCount) || 0),
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function leftOutLine(omitted: number, dropped: number): string | null {
  if (dropped > 0) {
    const notLoaded = omitted > 0 ? ` (${omitted} of them not loaded)` : '';
    return `- ${plural(omitted + dropped, 'earlier run')} left out to fit the budget${notLoaded}`;
  }
  return omitted > 0 ? `- ${plural(omitted, 'earlier run')} not listed (not loaded)` : null;
}

function renderLines(model: Model, c: Condensing, header: string[]): string[] {
  const lines = [...header];
  for (const section of model.sections) {
    const hidden = Math.min(c.hidden[section.id] ?? 0, section.items.length);
    lines.push('', `## ${SECTION_HEADINGS[section.id]}`);
    if (hidden > 0) lines.push(`- … ${hidden} more`);
    lines.push(...section.items.slice(hidden));
  }
  if (model.runs !== null) {
    const dropped = Math.min(c.droppedRuns, model.runs.length);
    const leftOut = leftOutLine(model.omittedRuns, dropped);
    const shown = model.runs.slice(dropped).map((run, i) => {
      const index = i + dropped;
      return index < c.bareRuns ? run.bare : index < c.shortRuns ? run.short : run.full;
    });
    if (leftOut !== null || shown.length > 0) {
      lines.push('', '## Runs');
      if (leftOut !== null) lines.push(leftOut);
      lines.push(...shown);
    }
  }
  return lines;
}

function render(model: Model, c: Condensing): string {
  return `${renderLines(model, c, model.header).join('\n')}\n`;
}

function linesLength(lines: readonly string[]): number {
  return lines.reduce((sum, line) => sum + line.length + 1, 0);
}

/** Last resort: keep whole lines from the top, then a marker line. */
function hardCut(model: Model, c: Condensing, budget: number): string {
  const marker = `[summary cut to fit ${budget} characters]`;
  if (marker.length + 1 > budget) return '';
  const header = linesLength(model.header) + marker.length + 1 <= budget ? model.header : model.compactHeader;
  const kept: string[] = [];
  let used = marker.length + 1;
  for (const line of renderLines(model, c, header)) {
    if (used + line.length + 1 > budget) break;
    kept.push(line);
    used += line.length + 1;
  }
  // A heading or blank line with nothing after it says nothing.
  while (kept.length > header.length && /^(## |$)/.test(kept.at(-1) ?? '')) kept.pop();
  return `${[...kept, marker].join('\n')}\n`;
}
