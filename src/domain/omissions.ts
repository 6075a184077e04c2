// Summaries written by a model drop facts (file paths and commands most of all). Every handoff not
// written locally is checked against the structured data it covers; what it left out is stored and
// appended in a short, deterministic section so the next provider still sees it.
import { CLOSED_QUESTION_STATUSES } from './standing.js';
import type { SummaryCheckpoint, SummaryFact, SummaryRun } from './summary.js';

const SECTION_TITLE = '## Facts not in the summary above';

export interface CoveredFacts {
  facts: readonly SummaryFact[];
  runs: readonly SummaryRun[];
  latestCheckpoint: SummaryCheckpoint | null;
}

/** What must survive any summary: changed file paths, command and test keys, open questions and approvals, known failures. */
export function mustMention(covered: CoveredFacts): string[] {
  const newest = new Map<string, SummaryFact>();
  for (const fact of [...covered.facts].sort((a, b) => a.runOrdinal - b.runOrdinal))
    newest.set(`${fact.kind}\u0000${fact.key ?? fact.text}`, fact);
  const items: string[] = [];
  for (const fact of newest.values()) {
    const status = (fact.status ?? '').toLowerCase();
    if (fact.kind === 'file_change') items.push(`file: ${fact.key ?? firstLine(fact.text)}`);
    if (fact.kind === 'command' || fact.kind === 'test')
      items.push(`${fact.kind}: ${fact.key ?? firstLine(fact.text)}`);
    if ((fact.kind === 'question' || fact.kind === 'approval_request') && !CLOSED_QUESTION_STATUSES.has(status))
      items.push(`${fact.kind === 'question' ? 'question' : 'approval'}: ${firstLine(fact.text)}`);
    if (fact.kind === 'failure') items.push(`failure: ${firstLine(fact.text)}`);
  }
  for (const file of covered.latestCheckpoint?.files ?? []) items.push(`file: ${file.path}`);
  for (const run of covered.runs)
    if (run.error && (run.status === 'failed' || run.status === 'interrupted'))
      items.push(`failure: run ${run.ordinal}: ${firstLine(run.error)}`);
  return [...new Set(items)];
}

/** The items whose text (after the "kind: " label) the summary does not contain, ignoring case. */
export function findOmissions(summaryText: string, covered: CoveredFacts): string[] {
  const haystack = summaryText.toLowerCase();
  return mustMention(covered).filter((item) => !haystack.includes(item.slice(item.indexOf(': ') + 2).toLowerCase()));
}

/** The summary with the omissions section appended, cutting the summary (never the section) to stay within the budget. */
export function appendOmissions(summaryText: string, omissions: readonly string[], budgetChars: number | null): string {
  if (omissions.length === 0) return summaryText;
  let section = [SECTION_TITLE, ...omissions.map((item) => `- ${item}`)].join('\n');
  if (budgetChars !== null && section.length > budgetChars) section = section.slice(0, Math.max(0, budgetChars));
  const room = budgetChars === null ? Number.POSITIVE_INFINITY : budgetChars - section.length - 2;
  if (room <= 0) return section;
  const kept =
    summaryText.length <= room
      ? summaryText
      : summaryText.slice(0, summaryText.lastIndexOf('\n', room) > 0 ? summaryText.lastIndexOf('\n', room) : room);
  return `${kept.trimEnd()}\n\n${section}`;
}

function firstLine(text: string): string {
  return (text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '').trim().slice(0, 300);
}
