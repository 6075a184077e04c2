// Writes handoff text with the local deterministic summarizer from what the graph holds.
import { livePiecesFor, type ThreadHistory } from '../domain/history.js';
import type { ThreadRecord } from '../domain/records.js';
import { count, union } from '../domain/ranges.js';
import { receiptFor, type HandoffReceipt } from '../domain/receipt.js';
import type { HandoffStrategy, OrdinalRange } from '../domain/records.js';
import { createHash } from 'node:crypto';
import {
  fillsBudget,
  LeastLengthMeter,
  renderSummary,
  renderSummaryReport,
  type SummaryFact,
  type SummaryInput,
} from '../domain/summary.js';
import { loadSummaryWindow, type SummaryMaterial, type WindowRun } from '../graph/repositories/planning.js';
import type { Tx } from '../graph/transactions.js';

// The shortest per-run line and fact the summarizer can print: however the read goes, a summary reads
// no more runs and facts than its budget could show.
const MIN_RUN_LINE_CHARS = 12;
const MIN_FACT_CHARS = 8;
const UNBOUNDED_READ = 1_000_000;
// The first window of a bounded read, and the least step after it: small enough that a thread the
// budget holds whole is read in one or two windows, large enough that a long one takes few.
const FIRST_WINDOW_RUNS = 256;
const LEAST_WINDOW_RUNS = 64;

export interface SummaryRequest {
  threadId: string;
  title: string | null;
  range: OrdinalRange;
  strategy: HandoffStrategy;
  targetProvider: string;
  /** null: no limit, the whole range is read. */
  budgetChars: number | null;
}

export interface LocalSummary {
  text: string;
  /** Even full condensing did not fit the budget: the text was cut hard. */
  cut: boolean;
  /** The whole structured input, uncondensed: what a provider or summarizer is asked to summarize. */
  document: string;
  /** SHA-256 of the document: same input, same digest. */
  inputDigest: string;
  /** Provider threads that served the covered runs, oldest first. */
  sourceProviderThreadIds: string[];
  /** What `text` keeps of what the covered runs hold. */
  receipt: HandoffReceipt;
}

/**
 * What a summary of `request.range` is written from. Without a budget, the whole range. With one, the
 * range newest first, a window at a time, until what was read fills the budget (fillsBudget): the
 * read follows the budget, not the thread's length.
 */
export async function readSummaryMaterial(
  tx: Tx,
  thread: ThreadHistory,
  request: SummaryRequest,
): Promise<SummaryMaterial> {
  const { range, budgetChars } = request;
  const wholeRange = livePiecesFor(thread, range);
  const source: SummaryMaterial = {
    threadProviders: [],
    liveRanges: union(wholeRange),
    runs: [],
    facts: [],
    latestCheckpoint: null,
  };
  const newestFacts: SummaryFact[] = [];
  const maxRuns = budgetChars === null ? UNBOUNDED_READ : Math.ceil(budgetChars / MIN_RUN_LINE_CHARS);
  const maxFacts = budgetChars === null ? UNBOUNDED_READ : Math.ceil(budgetChars / MIN_FACT_CHARS);
  let window = budgetChars === null ? range.to - range.from + 1 : FIRST_WINDOW_RUNS;
  const meter = new LeastLengthMeter();
  for (let to = range.to; to >= range.from;) {
    const from = Math.max(range.from, to - Math.min(window, maxRuns - source.runs.length) + 1);
    const read = await loadSummaryWindow(tx, livePiecesFor(thread, { from, to }), to === range.to ? wholeRange : [], {
      runs: maxRuns - source.runs.length,
      facts: maxFacts - newestFacts.length,
    });
    if (to === range.to)
      [source.threadProviders, source.latestCheckpoint] = [read.threadProviders, read.latestCheckpoint];
    source.runs.push(...read.runs);
    meter.add(read.runs);
    newestFacts.push(...read.facts);
    source.facts = [...newestFacts].reverse();
    to = from - 1;
    if (budgetChars === null || to < range.from) break;
    if (source.runs.length >= maxRuns || newestFacts.length >= maxFacts) break;
    const input = summaryInput(source, request);
    const fill = fillsBudget(input, budgetChars, LEAST_WINDOW_RUNS, meter.length(input));
    if (fill.full) break;
    window = fill.moreRuns;
  }
  return source;
}

/**
 * What an unbounded summary of `request.range` is written from, taken from runs already read (the
 * planning snapshot's window: the live runs since the target's last native run), so measuring a delta
 * costs no read of its own. The same source readSummaryMaterial reads; null when the window lacks a
 * live run of the range (a range reaching into a fork's inherited runs), which it must then read.
 */
export function summaryMaterialWithin(
  window: readonly WindowRun[],
  thread: ThreadRecord,
  request: SummaryRequest,
): SummaryMaterial | null {
  const { from, to } = request.range;
  const liveRanges = union(livePiecesFor(thread, request.range));
  const inRange = window.filter((run) => run.ordinal >= from && run.ordinal <= to);
  if (inRange.length !== count(liveRanges)) return null;
  const newestFirst = [...inRange].sort((a, b) => b.ordinal - a.ordinal);
  const checkpoint = newestFirst.find((run) => run.checkpoint !== null)?.checkpoint ?? null;
  return {
    threadProviders: thread.providers,
    liveRanges,
    runs: newestFirst.map(({ ordinal, provider, providerThreadId, status, userMessage, assistantMessage, error }) => ({
      ordinal,
      provider,
      providerThreadId,
      status,
      userMessage,
      assistantMessage,
      error,
    })),
    facts: [...newestFirst].reverse().flatMap((run) => run.facts),
    latestCheckpoint: checkpoint,
  };
}

export function summarize(source: SummaryMaterial, request: SummaryRequest): LocalSummary {
  const input = summaryInput(source, request);
  const report = renderSummaryReport(input, request.budgetChars);
  const document = request.budgetChars === null ? report.text : renderSummary(input, null);
  return {
    text: report.text,
    cut: report.cut,
    document,
    inputDigest: createHash('sha256').update(document).digest('hex'),
    sourceProviderThreadIds: [...new Set(oldestFirst(source.runs).map((run) => run.providerThreadId))],
    receipt: receiptFor(input, report.text),
  };
}

/** The receipt of a text someone else wrote for `request.range` (a provider's or a summarizer's). */
export function receiptOf(source: SummaryMaterial, request: SummaryRequest, text: string): HandoffReceipt {
  return receiptFor(summaryInput(source, request), text);
}

function summaryInput(source: SummaryMaterial, request: SummaryRequest): SummaryInput {
  const runs = oldestFirst(source.runs);
  // Rolled-back ordinals in the range are not runs of the history: only live runs left out count.
  const omittedRunCount = Math.max(0, count(source.liveRanges) - runs.length);
  return {
    strategy: request.strategy,
    threadId: request.threadId,
    title: request.title,
    covered: request.range,
    coveredLive: source.liveRanges,
    // Runs older than the read may have had other providers: the threads' lists have them all.
    providers: omittedRunCount > 0 ? source.threadProviders : [...new Set(runs.map((run) => run.provider))],
    runs,
    omittedRunCount,
    facts: source.facts,
    latestCheckpoint: source.latestCheckpoint,
    targetProvider: request.targetProvider,
  };
}

function oldestFirst<T extends { ordinal: number }>(runs: readonly T[]): T[] {
  return [...runs].sort((a, b) => a.ordinal - b.ordinal);
}
