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
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createThreadlineClient, PreviewRunDocument, type ThreadlineClient } from '../client/index.js';
import { loadConfig } from '../src/config.js';
import { chooseNeo4j } from '../src/graph/chooseNeo4j.js';
import { createDriver } from '../src/graph/driver.js';
import { startService } from '../src/server/app.js';
import { createLogger } from '../src/server/logger.js';
import { groundTruth, type GroundTruth, type RawFile } from './eval/groundTruth.js';
import { KINDS, missedTargets, scoreHandoff, totalOf, type Score } from './eval/score.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CORPUS = join(ROOT, 'test/fixtures/sessions/corpus');
export const TIGHT_BUDGET = 4_000;
const PROVIDERS = ['codex', 'claude'];

const USAGE = `Usage: npm run eval:handoffs [-- [--corpus DIR] [--case NAME]... [--texts] [--json]]

  --corpus DIR  folders of session files, one project each (default test/fixtures/sessions/corpus)
  --case NAME   only this case folder (repeatable)
  --texts       print each text delivered at the default budget too
  --json        print the scores as JSON

Imports each case through a service it starts (NEO4J_URI, else a throwaway local Neo4j), previews a run
on the other provider, and scores the text against the raw files' ground truth at the default budget
and at ${TIGHT_BUDGET} characters. Exit status: 0 when every default-budget target is met, 1 when one is
missed, 2 on a usage error.`;

export interface CaseResult {
  name: string;
  provider: string;
  truth: GroundTruth;
  /** Why no text was delivered (a refused import): the case then keeps nothing. */
  error: string | null;
  /** Per budget label ("default", "4000"): the text's length and its score. */
  budgets: { budget: string; length: number; score: Score; text: string }[];
}

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

/** A case's files, named relative to its folder. */
async function caseFiles(folder: string): Promise<RawFile[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  const paths = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  return Promise.all(paths.map(async (path) => ({ name: relative(folder, path), text: await readFile(path, 'utf8') })));
}

export interface EvalServices {
  /** The service at the providers' default budget, and the one at TIGHT_BUDGET, on one graph and tenant. */
  byBudget: { budget: string; client: ThreadlineClient; url: string }[];
  token: string;
  close(): Promise<void>;
}

/** Two services on one Neo4j, in a tenant made for this evaluation. */
export async function startEvalServices(): Promise<EvalServices> {
  const neo4j = await chooseNeo4j(loadConfig(process.env).neo4j, {
    start: 'throwaway',
    storePrefix: 'threadline-eval-',
    heap: '512m',
    pageCache: '128m',
    progress: (message) => console.error(message),
  });
  const token = `eval-${randomBytes(16).toString('hex')}`;
  const tenant = `eval_${randomBytes(6).toString('hex')}`;
  const settings = await mkdtemp(join(tmpdir(), 'threadline-eval-'));
  const tightProviders = join(settings, 'providers.json');
  await writeFile(
    tightProviders,
    JSON.stringify({
      providers: PROVIDERS.map((id) => ({
        id,
        displayName: `${id}, ${TIGHT_BUDGET} characters`,
        capabilities: { maxRecommendedHandoffChars: TIGHT_BUDGET },
      })),
    }),
  );
  const driver = createDriver(neo4j.connection);
  const started: { close(): Promise<void> }[] = [];
  const byBudget: EvalServices['byBudget'] = [];
  try {
    for (const [budget, env] of [
      ['default', {}],
      [String(TIGHT_BUDGET), { THREADLINE_PROVIDERS_FILE: tightProviders }],
    ] as const) {
      const config = loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        THREADLINE_API_KEYS: `${token}=${tenant}`,
        ...env,
      });
      const service = await startService(
        { ...config, neo4j: { ...config.neo4j, database: neo4j.connection.database } },
        driver,
        createLogger('silent'),
      );
      started.push(service);
      byBudget.push({ budget, url: service.url, client: createThreadlineClient({ url: service.url, apiKey: token }) });
    }
  } catch (error) {
    for (const service of started) await service.close();
    throw error;
  }
  return {
    byBudget,
    token,
    close: async () => {
      for (const service of started) await service.close();
      await driver.close();
      await neo4j.close();
      await rm(settings, { recursive: true, force: true });
    },
  };
}

/** `threadline import` of one case folder into one thread; answers the thread a run continues (not a subagent's). */
async function importCase(url: string, token: string, folder: string): Promise<string> {
  const output = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [join(ROOT, 'bin/threadline.js'), 'import', '--url', url, '--token', token, '--split', 'none', '--json', folder],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error && !stdout ? reject(new Error(`import of ${folder} failed: ${stderr}`)) : resolve(stdout),
    );
  });
  const summary = JSON.parse(output) as {
    threads: { id: string | null; runsImported: number; runsAlreadyPresent: number }[];
  };
  const threads = summary.threads.filter((thread) => thread.id !== null);
  if (threads.length === 0) throw new Error(`import of ${folder} made no thread: ${output}`);
  return threads.sort((a, b) => b.runsImported + b.runsAlreadyPresent - (a.runsImported + a.runsAlreadyPresent))[0]!
    .id!;
}

const LAST_RUN = `query EvalLastRun($id: ID!) {
  thread(id: $id) { lineage { parent { id } } runs(last: 1) { edges { node { provider } } } }
}`;

/** The root thread of those the import made, and the provider of its last run. */
async function lastProvider(
  client: ThreadlineClient,
  threadId: string,
): Promise<{ threadId: string; provider: string }> {
  let id = threadId;
  for (;;) {
    const answer = await client.execute<{
      thread: { lineage: { parent: { id: string } | null }; runs: { edges: { node: { provider: string } }[] } } | null;
    }>(LAST_RUN, { id });
    const thread = answer.data?.thread;
    if (!thread) throw new Error(`thread ${id} not found`);
    if (thread.lineage.parent) {
      id = thread.lineage.parent.id;
      continue;
    }
    return { threadId: id, provider: thread.runs.edges.at(-1)?.node.provider ?? 'codex' };
  }
}

/** Imports one case, previews a run on the other provider at each budget, and scores each text. */
export async function evaluateCase(
  services: Pick<EvalServices, 'byBudget' | 'token'>,
  folder: string,
  name: string,
): Promise<CaseResult> {
  const truth = groundTruth(await caseFiles(folder));
  const [main] = services.byBudget;
  let imported: { threadId: string; provider: string };
  try {
    const { threadId, provider: last } = await lastProvider(
      main!.client,
      await importCase(main!.url, services.token, folder),
    );
    imported = { threadId, provider: PROVIDERS.find((candidate) => candidate !== last)! };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const budgets = services.byBudget.map(({ budget }) => ({
      budget,
      length: 0,
      score: scoreHandoff(truth, ''),
      text: '',
    }));
    return { name, provider: '-', truth, error: message, budgets };
  }
  const { threadId, provider } = imported;
  const budgets: CaseResult['budgets'] = [];
  for (const { budget, client } of services.byBudget) {
    // cleanContext: the whole thread's handoff, also where a delta would lean on what the target's
    // own session remembers, which no text shows.
    const input = { threadId, provider, cleanContext: true };
    const preview = (await client.request(PreviewRunDocument, { input })).previewRun;
    const text = preview.context ?? '';
    budgets.push({ budget, length: text.length, score: scoreHandoff(truth, text), text });
  }
  return { name, provider, truth, error: null, budgets };
}

const percent = ({ kept, total }: { kept: number; total: number }) =>
  total === 0 ? '-' : `${kept}/${total} (${Math.round((kept / total) * 100)}%)`;

/** The table of one budget: a row per case and the total, as Markdown. */
export function table(results: readonly CaseResult[], budget: string): string {
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

export function totalAt(results: readonly CaseResult[], budget: string): Score {
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

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exitCode = 2;
    },
  );
}
