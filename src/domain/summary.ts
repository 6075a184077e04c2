/**
 * Local deterministic handoff summarizer: renders a Markdown handoff document from structured run
 * data. Pure: the same input always gives byte-identical output.
 */
import { explorationPaths, isExploration, laterFixes } from './commands.js';
import { describeOrdinals } from './ranges.js';
import { CLOSED_QUESTION_STATUSES } from './standing.js';
import {
  FILE_CHANGE_KINDS,
  type FileChangeKind,
  type HandoffStrategy,
  type RunFactKind,
  type RunStatus,
} from './records.js';

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
  /** A rename's path before it. */
  previousPath?: string | null;
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
// 'dropped': a newer plan left the item out (src/sessions/plan.ts), so it is no longer to do.
const PLAN_DONE: ReadonlySet<string> = new Set(['done', 'completed', 'cancelled', 'canceled', 'dropped']);
const FILE_CHANGES: ReadonlySet<string> = new Set<SummaryFileChangeKind>(FILE_CHANGE_KINDS);
/** Command statuses that mean it did what it was asked: a later one of these fixes an earlier failure. */
const COMMAND_OK: ReadonlySet<string> = new Set(['exit 0', 'ok', 'passed', 'success', 'succeeded', 'no match']);

const STRATEGY_WORDS: Record<SummaryStrategy, string> = {
  delta_since_target_last_seen: 'delta since you last took part',
  full_thread_summary: 'full thread summary',
  checkpoint_summary: 'checkpoint summary',
  manual_context: 'manual context',
  fork_delta_summary: 'merge-back: what a fork did since it branched off',
};

const ITEM_MAX = 300;
const PATH_MAX = 200;
/** A failure line: the head line that names what failed, and the end of its output, where the error is. */
const FAILURE_HEAD_MAX = 160;
const FAILURE_TAIL_MAX = 300;
/** The last user request, verbatim, is bounded: a pasted log must not take the whole budget. */
const REQUEST_MAX = 1_500;
const RUN_REQUEST_FULL = 400;
const RUN_OUTCOME_FULL = 300;
const RUN_REQUEST_SHORT = 100;
const RUN_OUTCOME_SHORT = 100;
const MOST_READ_PATHS = 5;
const DIFF_PROSE_MAX_LINES = 5;

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
  | 'request'
  | 'goals'
  | 'decisions'
  | 'failures'
  | 'files'
  | 'commands'
  | 'exploration'
  | 'plan'
  | 'open'
  | 'checkpoint'
  | 'fixed'
  | 'subagents'
  | 'notes';

const SECTION_HEADINGS: Record<SectionId, string> = {
  request: 'Last user request',
  goals: 'Goals and constraints',
  decisions: 'Decisions',
  failures: 'Unresolved failures',
  files: 'Files changed',
  commands: 'Commands and tests',
  exploration: 'Exploration',
  plan: 'Open todos',
  open: 'Open approvals and questions',
  checkpoint: 'Latest checkpoint',
  fixed: 'Failures since fixed',
  subagents: 'Subagent results',
  notes: 'Notes',
};

const FULL_ORDER: SectionId[] = [
  'request',
  'goals',
  'decisions',
  'failures',
  'files',
  'commands',
  'plan',
  'open',
  'checkpoint',
  'fixed',
  'exploration',
  'subagents',
  'notes',
];
const CHECKPOINT_ORDER: SectionId[] = ['request', 'goals', 'failures', 'checkpoint', 'files', 'plan', 'open'];
const MERGE_BACK_ORDER: SectionId[] = [
  'decisions',
  'failures',
  'files',
  'commands',
  'notes',
  'plan',
  'open',
  'fixed',
  'exploration',
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

/**
 * Applied in this order, each only as far as needed (docs/summaries.md says why): the narrative of the
 * runs first, then what is history rather than state (notes, subagent results, fixed failures, the
 * exploration line), then the oldest commands and files. Unresolved failures go last. The last user
 * request, goals, decisions, open todos, open questions and the checkpoint are never trimmed.
 */
const CONDENSE_STEPS: CondenseStep[] = [
  runStep('shortRuns'),
  runStep('bareRuns'),
  runStep('droppedRuns'),
  sectionStep('notes'),
  sectionStep('subagents'),
  sectionStep('fixed'),
  sectionStep('exploration'),
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
export function leastLength(input: SummaryInput): number {
  const model = buildModel(input);
  const runs = model.runs?.length ?? 0;
  return render(model, { shortRuns: runs, bareRuns: runs, droppedRuns: 0, hidden: {} }).length;
}

/**
 * leastLength of a summary whose runs are read a window at a time: each run's bare line is measured
 * once, as its window is added, and only the rest of the document (the header and the sections,
 * which the facts and the newest runs decide) is rendered at each check, not every run line so far.
 */
export class LeastLengthMeter {
  #bareRunChars = 0;
  #runs = 0;

  /** Measures the runs of a window just read. */
  add(runs: readonly SummaryRun[]): void {
    for (const run of runs) this.#bareRunChars += bareRunLine(run).length + 1;
    this.#runs += runs.length;
  }

  /** leastLength(input), for an input whose runs are exactly the ones added. */
  length(input: SummaryInput): number {
    if (input.runs.length !== this.#runs)
      throw new Error(`the meter measured ${this.#runs} runs, the input holds ${input.runs.length}`);
    const model = buildModel(input, false);
    const rest = linesLength(renderLines({ ...model, runs: null }, NOT_CONDENSED, model.header));
    if (model.runs === null) return rest;
    return rest + linesLength(runsSectionHead(model.omittedRuns, 0, this.#runs)) + this.#bareRunChars;
  }
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
  least: number = leastLength(input),
): { full: true } | { full: false; moreRuns: number } {
  if (least > budgetChars) return { full: true };
  const perRun = input.runs.length === 0 ? 0 : least / input.runs.length;
  return {
    full: false,
    moreRuns: perRun === 0 ? leastStep : Math.max(leastStep, Math.ceil((budgetChars - least) / perRun)),
  };
}

/** Lines of a text, split without a pattern (client text). */
function lines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n');
}

/** Paragraphs: runs of non-blank lines. */
function paragraphs(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  for (const line of lines(text)) {
    if (line.trim() === '') {
      if (current.length > 0) out.push(current.join('\n'));
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) out.push(current.join('\n'));
  return out;
}

/** A paragraph that says nothing of the outcome: a rule, a bare heading, a short exclamation ("Perfect!"). */
function isFiller(paragraph: string): boolean {
  const text = paragraph.trim();
  if (/^[-*_=\s]+$/.test(text)) return true;
  if (!text.includes('\n') && text.startsWith('#')) return true;
  return text.length <= 24 && !text.includes('\n') && /[!:]$/.test(text);
}

/**
 * What a run's answer concluded: its last paragraph that says something (not a rule, a heading or a
 * "Perfect!"), on one line. When that is longer than maxChars, its end is kept: the conclusion.
 */
export function answerOutcome(text: string, maxChars: number): string {
  const meaningful = paragraphs(text).filter((p) => !isFiller(p));
  const last = meaningful.at(-1) ?? '';
  // A last paragraph that only introduces a list ("Next steps:") is read with the list before it.
  const outcome = last.trim().endsWith(':') && meaningful.length > 1 ? `${meaningful.at(-2)} ${last}` : last;
  return tailCut(oneLine(outcome, Number.POSITIVE_INFINITY), maxChars);
}

function firstLine(text: string): string {
  return lines(text).find((l) => l.trim() !== '') ?? '';
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

/** The end of a text, cut to maxChars with a leading ellipsis. */
function tailCut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (!(maxChars >= 1)) return '';
  let tail = text.slice(text.length - Math.floor(maxChars) + 1);
  if (/^[\uDC00-\uDFFF]/.test(tail)) tail = tail.slice(1);
  return `…${tail.trimStart()}`;
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

export interface CurrentFile {
  path: string;
  /** null: mentioned without a change the data names. */
  change: string | null;
  additions: number | null;
  deletions: number | null;
  /** Where a renamed file was before the range (or before it was added in it). */
  previousPath: string | null;
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

/**
 * The change a file went through over the range, from its previous net change and the next one. A later
 * delete wins: a file added and then deleted is deleted (it is gone, whatever the runs wrote into it).
 */
function netChange(previous: string | null | undefined, next: string | null): string | null {
  if (previous === undefined || previous === null || next === null) return next ?? previous ?? null;
  if (next === 'deleted') return 'deleted';
  if (previous === 'added') return 'added';
  if (previous === 'deleted' && next === 'added') return 'modified';
  return next;
}

function fileMention(file: SummaryFile): CurrentFile {
  return {
    path: filePath(file.path),
    change: file.change,
    additions: file.additions,
    deletions: file.deletions,
    previousPath: file.previousPath ? filePath(file.previousPath) : null,
  };
}

const sumKnown = (a: number | null | undefined, b: number | null): number | null =>
  a === null || a === undefined ? b : b === null ? a : a + b;

/** The covered files in their state at the end of the range: one entry per path, a later delete or rename wins. */
function currentFiles(facts: readonly SummaryFact[], checkpoint: SummaryCheckpoint | null): CurrentFile[] {
  const factMentions = sortByNumber(
    facts.filter((f) => f.kind === 'file_change'),
    (f) => f.runOrdinal,
  ).map((f) => ({
    ordinal: f.runOrdinal,
    // A typed change says it all; an untyped one has a path (key or text) and maybe a change in its status.
    mention: (f.file
      ? fileMention(f.file)
      : {
          path: factPath(f),
          change: FILE_CHANGES.has(normStatus(f.status)) ? normStatus(f.status) : null,
          additions: null,
          deletions: null,
          previousPath: null,
        }) satisfies CurrentFile,
  }));
  const checkpointMentions = (checkpoint?.files ?? []).map((file) => ({
    ordinal: checkpoint?.runOrdinal ?? 0,
    mention: fileMention(file),
  }));
  // Stable: within one run, facts come before the checkpoint's own file list.
  const mentions = sortByNumber([...factMentions, ...checkpointMentions], (m) => m.ordinal);

  // One entry per path, placed at its latest mention, with its net change and the sum of its known counts.
  const byPath = new Map<string, CurrentFile>();
  for (const { mention } of mentions) {
    // A rename moves the file's entry to its new path: the old path is no file of the end state.
    const from = mention.change === 'renamed' && mention.previousPath !== null ? mention.previousPath : mention.path;
    const prev = byPath.get(from) ?? byPath.get(mention.path);
    byPath.delete(from);
    byPath.delete(mention.path);
    const moved = from !== mention.path;
    byPath.set(mention.path, {
      path: mention.path,
      // A file added in the range and renamed is still new; renamed and then edited, still renamed.
      change:
        moved && prev?.change === 'added'
          ? 'added'
          : prev?.change === 'renamed' && mention.change === 'modified'
            ? 'renamed'
            : netChange(prev?.change, mention.change),
      additions: sumKnown(prev?.additions, mention.additions),
      deletions: sumKnown(prev?.deletions, mention.deletions),
      previousPath: moved && prev?.change !== 'added' ? (prev?.previousPath ?? from) : (prev?.previousPath ?? null),
    });
  }
  return [...byPath.values()];
}

function fileItem(file: CurrentFile): string {
  // What was written into a file that is gone says nothing of the state left.
  if (file.change === 'deleted') return `- ${file.path} (deleted)`;
  const change =
    file.change === 'renamed' && file.previousPath !== null
      ? `renamed from ${file.previousPath}`
      : (file.change ?? 'changed');
  const counts = [
    file.additions === null ? '' : `+${file.additions}`,
    file.deletions === null ? '' : `-${file.deletions}`,
  ]
    .filter((count) => count !== '')
    .join('/');
  return `- ${file.path} (${change}${counts === '' ? '' : `, ${counts}`})`;
}

// A diff summary is a short description; a raw diff (hunks, +/- lines) is left out where the files
// section already lists the files, as the design asks of large diffs. The prose before the hunks stays.
function isRawDiffLine(line: string): boolean {
  return (
    line.startsWith('diff --git ') ||
    line.startsWith('--- ') ||
    line.startsWith('+++ ') ||
    line.startsWith('@@ ') ||
    line.startsWith('index ')
  );
}

function checkpointItems(checkpoint: SummaryCheckpoint | null): string[] {
  if (checkpoint === null) return [];
  const items = [`- Ref: ${oneLine(checkpoint.ref, 120) || '(none)'} (run ${checkpoint.runOrdinal})`];
  const summary = lines(checkpoint.diffSummary ?? '');
  const firstHunk = summary.findIndex(isRawDiffLine);
  if (firstHunk < 0 && summary.length <= DIFF_PROSE_MAX_LINES) {
    const text = oneLine(summary.join('\n'), ITEM_MAX);
    if (text !== '') items.push(`- Diff: ${text}`);
    return items;
  }
  const prose = summary
    .slice(0, firstHunk < 0 ? DIFF_PROSE_MAX_LINES : firstHunk)
    .filter((line) => line.trim() !== '')
    .slice(0, DIFF_PROSE_MAX_LINES);
  for (const line of prose) items.push(`- Diff: ${oneLine(line, ITEM_MAX)}`);
  items.push(`- Diff: a raw diff of ${summary.length} lines, left out (see Files changed)`);
  return items;
}

/** A command or test the covered runs ran (not exploration), once, with its last outcome. */
export interface CurrentCommand {
  /** What identifies it across runs: the fact's key (the command, for imported sessions). */
  key: string;
  command: string;
  outcome: string;
  runOrdinal: number;
  /** Its failure was fixed later (by this run or a later one): the outcome is not where things stand. */
  fixedInRun: number | null;
}

/** A failure as the handoff reports it: still standing, or fixed by a later run of the same command. */
export interface CurrentFailure {
  /** What failed: the command, tool and target, or the run. */
  what: string;
  /** The failure fact's key (a command, or a tool and its target); null for a run's own failure. */
  key: string | null;
  /** The end of its error, where the message is. */
  error: string;
  runOrdinal: number;
  fixedInRun: number | null;
}

export interface ExplorationTally {
  commands: number;
  runs: number[];
  /** Most-read paths first, with how often. */
  paths: { path: string; reads: number }[];
}

/**
 * What the covered runs leave standing at the moment of the handoff: the one reading of the facts the
 * text and its receipt (src/domain/receipt.ts) share.
 */
export interface CurrentState {
  lastRequest: { ordinal: number; text: string } | null;
  files: CurrentFile[];
  commands: CurrentCommand[];
  failures: CurrentFailure[];
  /** The open items of the last plan. */
  todos: SummaryFact[];
  /** Questions and approvals still open: a later user turn answers a question. */
  questions: SummaryFact[];
  exploration: ExplorationTally;
}

/** A command fact's command as written: its text without the status it may repeat, else its key. */
function commandOf(fact: SummaryFact): string {
  const status = fact.status === null ? '' : ` (${fact.status})`;
  const text = status !== '' && fact.text.endsWith(status) ? fact.text.slice(0, -status.length) : fact.text;
  return text.trim() === '' ? (fact.key ?? '') : text;
}

/** A command or test fact as a line: what ran and its outcome (a test's counts when its text gives them). */
function ranCommand(fact: SummaryFact): CurrentCommand {
  const key = fact.key ?? commandOf(fact);
  const status = normStatus(fact.status);
  const counts = fact.kind === 'test' && fact.key !== null && fact.text.startsWith(`${fact.key}: `);
  if (!counts)
    return {
      key,
      command: commandOf(fact),
      outcome: status || 'no result',
      runOrdinal: fact.runOrdinal,
      fixedInRun: null,
    };
  // Counted: the fact has a key, so `key` is it.
  const tally = fact.text.slice(key.length + 2);
  return {
    key,
    command: key,
    outcome: status === 'failed' && !/[1-9]\d* failed/.test(tally) ? `${tally}, failed` : tally,
    runOrdinal: fact.runOrdinal,
    fixedInRun: null,
  };
}

function currentCommands(facts: readonly SummaryFact[]): { commands: CurrentCommand[]; exploration: SummaryFact[] } {
  const ran = facts.filter((f) => f.kind === 'command' || f.kind === 'test');
  // Long threads run the same commands again and again: each is judged once.
  const judged = new Map<string, boolean>();
  const explores = (command: string): boolean => {
    const known = judged.get(command);
    if (known !== undefined) return known;
    const verdict = isExploration(command);
    judged.set(command, verdict);
    return verdict;
  };
  const exploring = new Set(ran.filter((f) => explores(f.key ?? commandOf(f))));
  // One entry per command, at its newest run; in one run a test result says more than the exit status.
  const byKey = new Map<string, CurrentCommand & { test: boolean }>();
  for (const fact of ran) {
    if (exploring.has(fact)) continue;
    const command = ranCommand(fact);
    const known = byKey.get(command.key);
    const test = fact.kind === 'test';
    if (known && known.runOrdinal === fact.runOrdinal && known.test && !test) continue;
    byKey.delete(command.key);
    byKey.set(command.key, { ...command, test });
  }
  return { commands: [...byKey.values()].map(({ test: _test, ...command }) => command), exploration: [...exploring] };
}

function explorationTally(exploration: readonly SummaryFact[]): ExplorationTally {
  const reads = new Map<string, number>();
  for (const fact of exploration)
    for (const path of explorationPaths(fact.key ?? commandOf(fact))) {
      const name = filePath(path);
      reads.set(name, (reads.get(name) ?? 0) + 1);
    }
  const paths = [...reads]
    .map(([path, count]) => ({ path, reads: count }))
    .sort((a, b) => b.reads - a.reads || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, MOST_READ_PATHS);
  return { commands: exploration.length, runs: [...new Set(exploration.map((f) => f.runOrdinal))], paths };
}

/**
 * A failure fact's text as what failed and its error: the head line and the rest, or on one line, split
 * after the key or at the first ": ". A keyed failure's key names its target (a tool and its path):
 * kept when the text does not say it.
 */
function splitFailure(fact: SummaryFact): { what: string; error: string } {
  const all = lines(fact.text);
  const head = all.findIndex((line) => line.trim() !== '');
  const first = (all[head] ?? '').trim();
  // On one line, what failed ends with the key when the text names it ("…: npm test"), else at the first ": ".
  const named = fact.key === null ? -1 : first.indexOf(fact.key);
  const end = named >= 0 ? named + (fact.key?.length ?? 0) : first.indexOf(': ');
  const [what, error] =
    head >= 0 && head < all.length - 1
      ? [first, all.slice(head + 1).join('\n')]
      : end > 0
        ? [first.slice(0, end), first.slice(end).replace(/^:\s*/, '')]
        : [first, ''];
  const space = fact.key?.indexOf(' ') ?? -1;
  const target = space < 0 ? '' : (fact.key ?? '').slice(space + 1);
  return { what: target === '' || fact.text.includes(target) ? what : `${what} (${target})`, error };
}

function currentFailures(
  facts: readonly SummaryFact[],
  runs: readonly SummaryRun[],
  commands: readonly CurrentCommand[],
): CurrentFailure[] {
  // Each command at its newest state: one that ended well after a failure may have fixed it.
  const ok = commands.filter(
    (command) => COMMAND_OK.has(command.outcome) || /^\d+ passed, 0 failed$/.test(command.outcome),
  );
  // The runs that changed each file, and the commands that ended well, each looked up by what a failure names.
  const changedIn = new Map<string, number[]>();
  for (const change of facts.filter((f) => f.kind === 'file_change' && f.status !== 'deleted')) {
    const path = factPath(change);
    const runs = changedIn.get(path);
    if (runs === undefined) changedIn.set(path, [change.runOrdinal]);
    else runs.push(change.runOrdinal);
  }
  const fixer = laterFixes(ok.map((command) => ({ command: command.key, at: command.runOrdinal })));
  const fromFacts = facts
    .filter((f) => f.kind === 'failure')
    .map((f) => {
      const { what, error } = splitFailure(f);
      // The adapter saw a later call of the same run fix it; else a later run's command did, or (a failed
      // edit or read, keyed by its tool and path) a later run changed that file.
      const key = f.key ?? '';
      const [tool = ''] = key.split(' ', 1);
      const target = tool !== '' && f.text.startsWith(`${tool} failed`) ? key.slice(tool.length + 1) : '';
      const fixedBy =
        normStatus(f.status) === 'fixed'
          ? f.runOrdinal
          : f.key === null
            ? undefined
            : (fixer(key, f.runOrdinal)?.at ??
              (target === '' ? undefined : changedIn.get(filePath(target))?.find((run) => run > f.runOrdinal)));
      return { what, key: f.key, error, runOrdinal: f.runOrdinal, fixedInRun: fixedBy ?? null };
    });
  // A failed or cut-off run is behind the thread once a later run completed.
  const lastCompleted = Math.max(0, ...runs.filter((r) => r.status === 'completed').map((r) => r.ordinal));
  const fromRuns = runs
    .filter((r) => r.status === 'failed' || r.status === 'interrupted')
    .map((r) => ({
      what: `run ${r.ordinal} ${r.status}`,
      key: null,
      error: r.error ?? '',
      runOrdinal: r.ordinal,
      fixedInRun: lastCompleted > r.ordinal ? lastCompleted : null,
    }));
  // Within one run, the run's own status line comes before its failure facts.
  return sortByNumber([...fromRuns, ...fromFacts], (f) => f.runOrdinal);
}

function failureItem(failure: CurrentFailure): string {
  const error = tailCut(oneLine(failure.error, Number.POSITIVE_INFINITY), FAILURE_TAIL_MAX);
  return `- ${oneLine(failure.what, FAILURE_HEAD_MAX) || '(unnamed)'}${error === '' ? '' : `: ${error}`} (run ${failure.runOrdinal})`;
}

function fixedItem(failure: CurrentFailure): string {
  return `- ${oneLine(failure.what, FAILURE_HEAD_MAX) || '(unnamed)'} (failed in run ${failure.runOrdinal}, fixed in run ${failure.fixedInRun})`;
}

/** The open items of the newest plan: an older plan's items are its past, not what is left to do. */
function openTodos(facts: readonly SummaryFact[]): SummaryFact[] {
  const plans = facts.filter((f) => f.kind === 'plan_item');
  const newest = Math.max(0, ...plans.map((f) => f.runOrdinal));
  return plans.filter((f) => f.runOrdinal === newest && !PLAN_DONE.has(normStatus(f.status)));
}

/** Open approvals and questions; a question is answered once a later run's user turn replied to it. */
function openQuestions(facts: readonly SummaryFact[], runs: readonly SummaryRun[]): SummaryFact[] {
  const lastRun = Math.max(0, ...runs.map((r) => r.ordinal));
  return facts.filter(
    (f) =>
      (f.kind === 'approval_request' || f.kind === 'question') &&
      !CLOSED_QUESTION_STATUSES.has(normStatus(f.status)) &&
      !(f.kind === 'question' && f.runOrdinal < lastRun),
  );
}

/** What the covered runs leave standing (see CurrentState). */
export function currentState(input: SummaryInput): CurrentState {
  const runs = sortByNumber(input.runs, (r) => r.ordinal);
  const facts = liveFacts(input.facts);
  // Every change of a file counts towards its final state, and every exploring command towards the tally.
  const all = sortByNumber(
    input.facts.filter((f) => !HIDDEN_KINDS.has(f.kind)),
    (f) => f.runOrdinal,
  );
  const { commands, exploration } = currentCommands(all);
  const failures = currentFailures(facts, runs, commands);
  const last = runs.at(-1);
  return {
    lastRequest: last === undefined ? null : { ordinal: last.ordinal, text: last.userMessage },
    files: currentFiles(all, input.latestCheckpoint),
    commands: commands.map((command) => ({
      ...command,
      fixedInRun:
        failures.find((f) => f.key === command.key && f.runOrdinal === command.runOrdinal && f.fixedInRun !== null)
          ?.fixedInRun ?? null,
    })),
    failures,
    todos: openTodos(facts),
    questions: openQuestions(facts, runs),
    exploration: explorationTally(exploration),
  };
}

function commandItem(command: CurrentCommand): string {
  const fixed = command.fixedInRun === null ? '' : `, fixed in run ${command.fixedInRun}`;
  return `- ${oneLine(command.command, ITEM_MAX) || '(empty)'} → ${oneLine(command.outcome, 80)}${fixed} (run ${command.runOrdinal})`;
}

function explorationItems(tally: ExplorationTally): string[] {
  if (tally.commands === 0) return [];
  const read = tally.paths.map((p) => (p.reads > 1 ? `${p.path} ×${p.reads}` : p.path)).join(', ');
  const where = cut(describeOrdinals(tally.runs.map((ordinal) => ({ from: ordinal, to: ordinal }))), 40);
  return [
    `- ${plural(tally.commands, 'read-only command')} and file read${tally.commands === 1 ? '' : 's'} (${where}), not listed${read === '' ? '' : `; most read: ${read}`}`,
  ];
}

/** The last user request as it was written, as a quote (each line prefixed, so it cannot start a heading). */
function requestItems(request: CurrentState['lastRequest']): string[] {
  if (request === null || request.text.trim() === '') return [];
  const text = cut(request.text.trim(), REQUEST_MAX);
  return [`Run ${request.ordinal}:`, ...lines(text).map((line) => (line.trim() === '' ? '>' : `> ${line}`))];
}

/** A run's line with neither its request nor its answer: its ordinal, provider and status. */
function bareRunLine(run: SummaryRun): string {
  const status = run.status === 'completed' ? '' : ` [${String(run.status).replace(/_/g, ' ')}]`;
  return `- ${run.ordinal} · ${oneLine(run.provider, 40) || '(unknown)'}${status}`;
}

function runLine(run: SummaryRun): RunLine {
  const bare = bareRunLine(run);
  const withTexts = (requestMax: number, outcomeMax: number): string => {
    const answer = run.assistantMessage === null ? '' : answerOutcome(run.assistantMessage, outcomeMax);
    return `${bare} · user: ${oneLine(run.userMessage, requestMax) || '(empty)'} → ${answer || '(no answer)'}`;
  };
  return {
    full: withTexts(RUN_REQUEST_FULL, RUN_OUTCOME_FULL),
    short: withTexts(RUN_REQUEST_SHORT, RUN_OUTCOME_SHORT),
    bare,
  };
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

/** `withRunLines` false leaves the run lines out (an empty list where the strategy has them): the meter measures those. */
function buildModel(input: SummaryInput, withRunLines = true): Model {
  const runs = sortByNumber(input.runs, (r) => r.ordinal);
  const facts = liveFacts(input.facts);
  const ofKind = (...kinds: SummaryFactKind[]): SummaryFact[] => facts.filter((f) => kinds.includes(f.kind));
  const state = currentState(input);
  const unresolved = state.failures.filter((f) => f.fixedInRun === null);

  const items: Record<SectionId, string[]> = {
    request: requestItems(state.lastRequest),
    goals: ofKind('goal', 'constraint').map((f) => factItem(f, f.kind === 'goal' ? 'Goal' : 'Constraint')),
    decisions: ofKind('decision').map((f) => factItem(f)),
    failures: unresolved.map(failureItem),
    files: state.files.map(fileItem),
    commands: state.commands.map(commandItem),
    exploration: explorationItems(state.exploration),
    plan: state.todos.map((f) => factItem(f)),
    open: state.questions.map((f) => factItem(f, f.kind === 'question' ? 'Question' : 'Approval')),
    checkpoint: checkpointItems(input.latestCheckpoint),
    fixed: state.failures.filter((f) => f.fixedInRun !== null).map(fixedItem),
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
    runs: withRuns ? (withRunLines ? runs.map(runLine) : []) : null,
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
    const shown = model.runs.slice(dropped).map((run, i) => {
      const index = i + dropped;
      return index < c.bareRuns ? run.bare : index < c.shortRuns ? run.short : run.full;
    });
    lines.push(...runsSectionHead(model.omittedRuns, dropped, shown.length), ...shown);
  }
  return lines;
}

/** What the Runs section opens with before its run lines; nothing when it has nothing to say. */
function runsSectionHead(omittedRuns: number, droppedRuns: number, shownRuns: number): string[] {
  const leftOut = leftOutLine(omittedRuns, droppedRuns);
  if (leftOut === null) return shownRuns > 0 ? ['', '## Runs'] : [];
  return ['', '## Runs', leftOut];
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
