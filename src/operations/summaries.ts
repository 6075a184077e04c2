// Writes handoff text with the local deterministic summarizer from what the graph holds.
import { livePiecesFor, type ThreadHistory } from '../domain/history.js';
import { count } from '../domain/ranges.js';
import type { HandoffStrategy, OrdinalRange } from '../domain/records.js';
import { createHash } from 'node:crypto';
import { renderSummary, renderSummaryReport, type SummaryInput } from '../domain/summary.js';
import { loadSummarySource, type SummarySource } from '../graph/repositories/planning.js';
import type { Tx } from '../graph/transactions.js';

// The shortest per-run line and fact the summarizer can print: reading more than the budget can
// hold is wasted work, so the budget bounds what a summary reads, not the thread's length.
const MIN_RUN_LINE_CHARS = 12;
const MIN_FACT_CHARS = 8;
const UNBOUNDED_READ = 1_000_000;

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
}

export async function readSummarySource(tx: Tx, thread: ThreadHistory, range: OrdinalRange, budgetChars: number | null): Promise<SummarySource> {
  const width = range.to - range.from + 1;
  const runs = budgetChars === null ? UNBOUNDED_READ : Math.ceil(budgetChars / MIN_RUN_LINE_CHARS);
  const facts = budgetChars === null ? UNBOUNDED_READ : Math.ceil(budgetChars / MIN_FACT_CHARS);
  return loadSummarySource(tx, livePiecesFor(thread, range), { runs: Math.max(1, Math.min(width, runs)), facts });
}

export function summarize(
  source: SummarySource,
  request: { threadId: string; title: string | null; range: OrdinalRange; strategy: HandoffStrategy; targetProvider: string; budgetChars: number | null },
): LocalSummary {
  const runs = [...source.runs].sort((a, b) => a.ordinal - b.ordinal);
  // Rolled-back ordinals in the range are not runs of the history: only live runs left out count.
  const omittedRunCount = Math.max(0, count(source.liveRanges) - runs.length);
  const providersOfRuns = [...new Set(runs.map((run) => run.provider))];
  const input: SummaryInput = {
    strategy: request.strategy,
    threadId: request.threadId,
    title: request.title,
    covered: request.range,
    coveredLive: source.liveRanges,
    // Runs older than the loaded window may have had other providers: the threads' lists have them all.
    providers: omittedRunCount > 0 ? source.threadProviders : providersOfRuns,
    runs,
    omittedRunCount,
    facts: source.facts,
    latestCheckpoint: source.latestCheckpoint,
    targetProvider: request.targetProvider,
  };
  const report = renderSummaryReport(input, request.budgetChars);
  const document = request.budgetChars === null ? report.text : renderSummary(input, null);
  return {
    text: report.text,
    cut: report.cut,
    document,
    inputDigest: createHash('sha256').update(document).digest('hex'),
    sourceProviderThreadIds: [...new Set(runs.map((run) => run.providerThreadId))],
  };
}
