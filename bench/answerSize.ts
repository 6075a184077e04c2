/**
 * `npm run bench:answer-size -- [--runs 200] [--requests 6] [--queries viewer-shaped,bounded]`: what one
 * over-large answer costs the service. Seeds one thread through the API with runs that carry
 * 100,000-character messages and 500 facts of 1,500 characters each, then sends the same query
 * several times, one after another, to a service built and running in its own process
 * (bench/serviceProcess.ts), and prints for each request: the HTTP status, the error code, the bytes
 * of the answer, the time to the last byte and the service's resident memory afterwards. Uses
 * NEO4J_URI when set, else a throwaway local Neo4j (src/graph/chooseNeo4j.ts).
 */
import { readFileSync } from 'node:fs';
import {
  CompleteRunDocument,
  createThreadlineClient,
  CreateThreadDocument,
  StartRunDocument,
} from '../client/index.js';
import { loadConfig } from '../src/config.js';
import { chooseNeo4j } from '../src/graph/chooseNeo4j.js';
import type { Neo4jConnection } from '../src/graph/driver.js';
import { projectRoot } from '../src/graph/projectRoot.js';
import { readOptions, runCommand, UsageError, wholeNumber } from './commandLine.js';
import { buildService, startServiceProcess } from './serviceProcess.js';

// The measured requests stay raw POSTs (post() below), not the typed client: the bench reports each
// answer's bytes as sent and the time to its last byte, which the client (it parses the answer into data
// and errors) does not expose, and the viewer-shaped query is over-large on purpose. The seeding and
// the warm-up go through the client.
const QUERIES: Record<string, string> = {
  // The shape the issue reported: every text of 500 runs.
  'viewer-shaped': `query($id: ID!) { thread(id: $id) { runs(first: 500) { edges { node { userMessage assistantMessage facts { text } } } } } }`,
  // The same list asked the way a list view should: the first characters of each text, and lengths.
  bounded: `query($id: ID!) { thread(id: $id) { runs(first: 500) { edges { node { userMessage(maxChars: 200) userMessageLength
    assistantMessage(maxChars: 200) assistantMessageLength factCount facts(first: 5) { text(maxChars: 200) textLength } } } } } }`,
};

const USAGE = `Usage: npm run bench:answer-size -- [--runs N] [--requests N] [--queries NAME,...] [--fact-chars N]

  --runs N          runs seeded, each with 100,000-character messages and 500 facts (default 200)
  --requests N      requests of each query, one after another (default 6)
  --queries NAMES   some of ${Object.keys(QUERIES).join(', ')} (default viewer-shaped)
  --fact-chars N    characters of each fact (default 1500)

Runs on NEO4J_URI, else on a throwaway local Neo4j, and prints what each answer cost.`;

interface Options {
  runs: number;
  requests: number;
  factChars: number;
  queries: string[];
}

function readCommand(argv: string[]): Options {
  const text = { type: 'string' } as const;
  const values = readOptions(argv, { runs: text, requests: text, queries: text, 'fact-chars': text });
  const given = values.queries;
  const queries = typeof given === 'string' ? given.split(',') : ['viewer-shaped'];
  for (const name of queries)
    if (!QUERIES[name]) throw new UsageError(`--queries names some of ${Object.keys(QUERIES).join(', ')}, not ${name}`);
  return {
    runs: wholeNumber(values, 'runs', 200),
    requests: wholeNumber(values, 'requests', 6),
    factChars: wholeNumber(values, 'fact-chars', 1500),
    queries,
  };
}

const text = (seed: string, length: number) =>
  (seed + ' ').repeat(Math.ceil(length / (seed.length + 1))).slice(0, length);

function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(match?.[1]) / 1024);
}

const log = (line: string) => console.error(line);

/** The service in a process of its own, so that its memory is its own; resolves once it listens. */
const startService = (neo4j: Neo4jConnection) =>
  startServiceProcess(projectRoot(), neo4j, {
    // A cold Neo4j on a busy machine plans its first statements slowly.
    env: { LOG_LEVEL: 'error', THREADLINE_GRAPH_DEADLINE_MS: '60000' },
  });

const post = async (url: string, query: string, variables: Record<string, unknown>) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, body };
};

async function measure(options: Options): Promise<void> {
  const neo4j = await chooseNeo4j(loadConfig(process.env).neo4j, {
    start: 'throwaway',
    storePrefix: 'threadline-answer-size-',
    heap: '1g',
    pageCache: '512m',
    progress: log,
  });
  // One service seeds the thread; a fresh one, which has served nothing else, is measured.
  buildService(projectRoot());
  let service = await startService(neo4j.connection);
  try {
    const client = createThreadlineClient({ url: service.url });
    const threadId = `answer-size-${Date.now()}`;
    await client.request(CreateThreadDocument, { input: { id: threadId } });
    const started = Date.now();
    for (let index = 1; index <= options.runs; index++) {
      const { startRun } = await client.request(StartRunDocument, {
        input: { threadId, provider: 'codex', userMessage: text(`user ${index}`, 100_000) },
      });
      const facts = Array.from({ length: 500 }, (_, fact) => ({
        kind: 'NOTE' as const,
        text: text(`fact ${fact} of run ${index}`, options.factChars),
      }));
      await client.request(CompleteRunDocument, {
        input: { runId: startRun.run.id, assistantMessage: text(`assistant ${index}`, 100_000), facts },
      });
      if (index % 50 === 0) log(`seeded ${index} runs (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }

    await service.stop();
    service = await startService(neo4j.connection);
    await createThreadlineClient({ url: service.url }).execute('{ __typename }');
    console.log(`${options.runs} runs, messages of 100,000 characters, 500 facts of ${options.factChars} characters`);
    console.log(`service RSS before the requests: ${rssMiB(service.pid)} MiB`);
    for (const name of options.queries) {
      for (let request = 1; request <= options.requests; request++) {
        const sent = Date.now();
        const { status, body } = await post(service.url, QUERIES[name]!, { id: threadId });
        const seconds = (Date.now() - sent) / 1000;
        let code = 'OK';
        try {
          const parsed = JSON.parse(body.toString()) as { errors?: { extensions?: { code?: string } }[] };
          code = parsed.errors?.[0]?.extensions?.code ?? 'OK';
        } catch {
          code = 'UNPARSABLE';
        }
        console.log(
          `${name} ${request}: HTTP ${status} ${code}, ${body.length} bytes in ${seconds.toFixed(2)} s; service RSS ${rssMiB(service.pid)} MiB (peak ${rssMiB(service.pid, 'VmHWM')} MiB)`,
        );
      }
    }
  } finally {
    await service.stop();
    await neo4j.close();
  }
}

runCommand(process.argv.slice(2), USAGE, readCommand, measure);
