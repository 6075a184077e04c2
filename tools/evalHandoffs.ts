/**
 * `npm run eval:handoffs [-- [--corpus DIR] [--case NAME]... [--json]]`: what a switch's handoff keeps,
 * measured against the raw session files (issue 26). Each case folder of the corpus
 * (test/fixtures/sessions/corpus) is one project: its files are imported through a Threadline service
 * with `threadline import` (one thread), the context a run on the other provider would be given is read
 * with previewRun (the code startRun delivers with; cleanContext, so a pair's
 * return gets the whole thread, not a delta that leans on the target's memory), and that text is scored against the ground truth
 * the raw files hold (tools/eval/groundTruth.ts, sharing no code with the importer's adapters), at
 * the default budget and at 4,000 characters. Prints the table per case and in total, and what was
 * lost; exits 1 when a default-budget target is missed (tools/eval/score.ts), 2 on a usage error.
 *
 * It starts its own services (on NEO4J_URI, else a throwaway local Neo4j) in a tenant of its own, so
 * it never reads or touches other data. See docs/summaries.md, "What a handoff keeps".
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/graph/projectRoot.js';
import type { CaseResult } from './eval/handoffs.js';
import { KINDS, missedTargets, TIGHT_BUDGET, totalOf, type Score } from './eval/score.js';

const CORPUS = join(projectRoot(), 'test/fixtures/sessions/corpus');

const USAGE = `Usage: npm run eval:handoffs [-- [--corpus DIR] [--case NAME]... [--texts] [--json]]

  --corpus DIR  folders of session files, one project each (default test/fixtures/sessions/corpus)
  --case NAME   only this case folder (repeatable)
  --texts       print each text delivered at the default budget too
  --json        print the scores as JSON

Imports each case through a service it starts (NEO4J_URI, else a throwaway local Neo4j), previews a run
on the other provider, and scores the text against the raw files' ground truth at the default budget
and at ${TIGHT_BUDGET} characters. Exit status: 0 when every default-budget target is met, 1 when one is
missed, 2 on a usage error.`;

interface Options {
  corpus: string;
  cases: string[];
  texts: boolean;
  json: boolean;
}

function parseOptions(argv: string[]): Options | string {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        corpus: { type: 'string' },
        case: { type: 'string', multiple: true },
        texts: { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) return USAGE;
    return {
      corpus: values.corpus ?? CORPUS,
      cases: values.case ?? [],
      texts: values.texts ?? false,
      json: values.json ?? false,
    };
  } catch (error) {
    return `${(error as Error).message}\n\n${USAGE}`;
  }
}

const percent = ({ kept, total }: { kept: number; total: number }) =>
  total === 0 ? '-' : `${kept}/${total} (${Math.round((kept / total) * 100)}%)`;

/** The table of one budget: a row per case and the total, as Markdown. */
function table(results: readonly CaseResult[], budget: string): string {
  const header = ['case', 'to', 'length', ...KINDS, 'wrong state', 'stale', 'leaks'];
  const row = (name: string, to: string, length: string, score: Score) => [
    name,
    to,
    length,
    ...KINDS.map((kind) => percent(score.kinds[kind])),
    String(score.wrongState.length),
    String(score.stale.length),
    String(score.leaks.length),
  ];
  const rows = results.map((result) => {
    const entry = result.budgets.find((candidate) => candidate.budget === budget)!;
    return row(result.name, result.provider, String(entry.length), entry.score);
  });
  const total = totalOf(results.map((result) => result.budgets.find((entry) => entry.budget === budget)!.score));
  rows.push(row('total', '', '', total));
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function totalAt(results: readonly CaseResult[], budget: string): Score {
  return totalOf(results.map((result) => result.budgets.find((entry) => entry.budget === budget)!.score));
}

async function main(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  if (typeof options === 'string') {
    (options === USAGE ? console.log : console.error)(options);
    return options === USAGE ? 0 : 2;
  }
  const names = (await readdir(options.corpus, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && (options.cases.length === 0 || options.cases.includes(entry.name)))
    .map((entry) => entry.name)
    .sort();
  if (names.length === 0) {
    console.error(
      `No case folder in ${options.corpus}${options.cases.length ? ` named ${options.cases.join(', ')}` : ''}.`,
    );
    return 2;
  }
  const { evaluateCase, startEvalServices } = await import('./eval/handoffs.js');
  const services = await startEvalServices();
  const results: CaseResult[] = [];
  try {
    for (const name of names) results.push(await evaluateCase(services, join(options.corpus, name), name));
  } finally {
    await services.close();
  }
  const missed = missedTargets(totalAt(results, 'default'));
  if (options.json) {
    const shown = results.map((result) => ({
      ...result,
      budgets: result.budgets.map(({ budget, length, score }) => ({ budget, length, score })),
    }));
    console.log(JSON.stringify({ results: shown, missed }, null, 2));
  } else {
    for (const { budget } of services.byBudget) {
      console.log(`\nBudget ${budget === 'default' ? 'default (the providers’ own)' : `${budget} characters`}:\n`);
      console.log(table(results, budget));
    }
    console.log('\nLost at the default budget:');
    for (const result of results) {
      if (result.error !== null) console.log(`  ${result.name}: nothing delivered: ${result.error.slice(0, 200)}`);
      const { score } = result.budgets[0]!;
      for (const { kind, item } of score.missing)
        console.log(`  ${result.name}: ${kind}: ${item.replace(/\s+/g, ' ').slice(0, 140)}`);
      for (const item of score.wrongState) console.log(`  ${result.name}: wrong final state: ${item}`);
      for (const item of score.stale) console.log(`  ${result.name}: stale: ${item.slice(0, 140)}`);
      for (const item of score.leaks) console.log(`  ${result.name}: leak: ${item}`);
    }
    if (options.texts)
      for (const result of results)
        console.log(`\n--- ${result.name} (to ${result.provider}) ---\n${result.budgets[0]!.text}`);
    console.log(missed.length === 0 ? '\nEvery default-budget target is met.' : `\nMissed: ${missed.join('; ')}`);
  }
  return missed.length === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  return 2;
});
