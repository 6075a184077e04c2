/**
 * `npm run eval:handoffs [-- [--json] PATH...]`: what a handoff keeps (issue 16). The session fixtures
 * (test/fixtures/sessions: the Codex files as one thread, the Claude files as another, all of them as a
 * third) and each PATH given (a session file, or a folder searched for *.jsonl files, as one thread)
 * are read by the adapters, made into the full-thread summary the service would write after an import,
 * and rendered at the default budget and at a tight one. Prints the share of the sessions' artifacts
 * each handoff keeps, per category and overall, and its length; exits 1 when a default-budget share is
 * below 95% or a handoff holds something no adapter may store (reasoning, injected instructions,
 * secrets). See docs/summaries.md, "What a handoff keeps".
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  CATEGORIES,
  evaluateThread,
  failuresOf,
  formatShare,
  type SessionFile,
  type ThreadEvaluation,
} from '../src/sessions/eval.js';
import { HIDDEN_MARKER, SECRETS } from '../test/unit/sessions/fixtures.js';

const FIXTURES = fileURLToPath(new URL('../test/fixtures/sessions/', import.meta.url));

/** The *.jsonl files under a folder (or the file itself), named relative to `base`, in path order. */
async function sessionFiles(path: string, base: string): Promise<SessionFile[]> {
  const info = await stat(path);
  const paths = info.isDirectory()
    ? (await readdir(path, { withFileTypes: true, recursive: true }))
        .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
        .map((entry) => join(entry.parentPath, entry.name))
        .sort()
    : [path];
  return Promise.all(
    paths.map(async (file) => ({ name: relative(base, file) || file, text: await readFile(file, 'utf8') })),
  );
}

/** The fixture threads: Codex alone, Claude alone, and both in one thread, as an import of each would make. */
export async function evaluateFixtures(): Promise<ThreadEvaluation[]> {
  const files = await sessionFiles(FIXTURES, FIXTURES);
  // The fixtures promise their planted secrets and reasoning marker never come out of an adapter.
  const forbidden = [...SECRETS, HIDDEN_MARKER];
  return [
    evaluateThread(
      'fixtures: codex',
      files.filter((file) => file.name.startsWith('codex')),
      { forbidden },
    ),
    evaluateThread(
      'fixtures: claude',
      files.filter((file) => file.name.startsWith('claude')),
      { forbidden },
    ),
    evaluateThread('fixtures: all', files, { forbidden }),
  ];
}

function table(evaluations: readonly ThreadEvaluation[]): string {
  const header = ['thread', 'runs', 'budget', 'length', ...CATEGORIES, 'overall'];
  const rows = evaluations.flatMap((evaluation) =>
    evaluation.results.map((result) => [
      evaluation.name,
      String(evaluation.runs),
      String(result.budget),
      `${result.length}${result.cut ? ' (cut)' : ''}`,
      ...CATEGORIES.map((category) => `${formatShare(result.kept[category])} of ${result.kept[category].total}`),
      `${formatShare(result.overall)} of ${result.overall.total}`,
    ]),
  );
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function details(evaluations: readonly ThreadEvaluation[]): string[] {
  return evaluations.flatMap((evaluation) => [
    ...evaluation.skipped.map(
      (file) => `${evaluation.name}: ${file} left out (not a session file, or a session already read)`,
    ),
    ...evaluation.results.flatMap((result) =>
      result.lost.map(
        (artifact) =>
          `${evaluation.name}: lost at ${result.budget}: ${artifact.category}: ${artifact.text.replace(/\s+/g, ' ').slice(0, 160)}`,
      ),
    ),
  ]);
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { json: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const evaluations = [...(await evaluateFixtures())];
  for (const path of positionals) evaluations.push(evaluateThread(path, await sessionFiles(path, path)));
  const failures = evaluations.flatMap(failuresOf);
  if (values.json) console.log(JSON.stringify({ evaluations, failures }, null, 2));
  else
    console.log(
      [table(evaluations), ...details(evaluations), ...failures.map((failure) => `FAIL ${failure}`)].join('\n'),
    );
  return failures.length === 0 ? 0 : 1;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(2);
    },
  );
}
