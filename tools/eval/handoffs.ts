// The evaluation behind `npm run eval:handoffs` (tools/evalHandoffs.ts, which says what it measures):
// one case imported through a service, previewed and scored. Loaded only once the command's
// arguments are parsed, so that its usage prints without loading the service.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createThreadlineClient, PreviewRunDocument, type ThreadlineClient } from '../../client/index.js';
import { loadConfig } from '../../src/config.js';
import { chooseNeo4j } from '../../src/graph/chooseNeo4j.js';
import { createDriver } from '../../src/graph/driver.js';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { startService } from '../../src/server/app.js';
import { createLogger } from '../../src/server/logger.js';
import { groundTruth, type GroundTruth, type RawFile } from './groundTruth.js';
import { scoreHandoff, TIGHT_BUDGET, type Score } from './score.js';

const ROOT = projectRoot();
const PROVIDERS = ['codex', 'claude'];

export interface CaseResult {
  name: string;
  provider: string;
  truth: GroundTruth;
  /** Why no text was delivered (a refused import): the case then keeps nothing. */
  error: string | null;
  /** Per budget label ("default", "4000"): the text's length and its score. */
  budgets: { budget: string; length: number; score: Score; text: string }[];
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
