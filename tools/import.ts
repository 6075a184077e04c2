/**
 * `npm run import -- [--url URL] [--token T] [--thread ID] [--json] PATH...`: records past Codex and
 * Claude Code sessions as runs of one app thread, through the service's public GraphQL API
 * (importRuns). PATH is a session file or a folder walked for *.jsonl files (a Codex sessions folder,
 * a Claude Code project folder with its subagents). Each session becomes one provider thread; the
 * runs of every session go into the thread in the order they happened. Importing the same sessions
 * again adds nothing and answers with the thread that holds them; sessions that grew add their new
 * turns.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { MAX_IMPORTED_RUNS } from '../src/domain/imports.js';
import { detectFormat, parseSession, type ImportedRun, type ParsedSession } from '../src/sessions/index.js';
import { fileOf } from '../src/sessions/turn.js';
import {
  createThreadlineClient,
  CreateThreadDocument,
  ImportRunsDocument,
  ProviderThreadsByNativeRefDocument,
  type ImportedRunInput,
  type ThreadlineClient,
} from '../client/index.js';
import { DEFAULT_URL, viewerUrl } from './demo.js';

// Well under the service's 1 MB limit on a request body, whatever the runs hold.
const BATCH_BYTES = 512 * 1024;
const TITLE_CHARS = 100;

const USAGE = `Usage: npm run import -- [--url URL] [--token TOKEN] [--thread ID] [--json] PATH...

  PATH          a session file, or a folder searched for *.jsonl session files: a Codex sessions
                folder, a Claude Code project folder (its subagents included)
  --url URL     the Threadline service's base URL (default THREADLINE_URL, else ${DEFAULT_URL});
                a URL ending in /graphql works too
  --token TOKEN bearer token, when the service runs with THREADLINE_API_KEYS (or THREADLINE_TOKEN)
  --thread ID   add the sessions to this thread (created when missing) instead of a new one
  --json        print one JSON object: threadId, runsImported, runsAlreadyPresent,
                providerThreads [{id, provider, nativeThreadRef, runs}], problems [{file, line, reason}]`;

export interface Problem {
  file: string;
  /** 1-based line of the file; null when the problem is the whole file. */
  line: number | null;
  reason: string;
}

export interface ImportSummary {
  threadId: string | null;
  runsImported: number;
  runsAlreadyPresent: number;
  providerThreads: { id: string; provider: string; nativeThreadRef: string; runs: number }[];
  problems: Problem[];
}

interface Session {
  file: string;
  parsed: ParsedSession;
  /** The thread that already holds the session, if an earlier import (or a bind) put it there. */
  holderThreadId: string | null;
  providerThreadId: string | null;
  /** Its runs in Threadline after this import: imported now or before. */
  runs: number;
}

interface Turn {
  session: Session;
  run: ImportedRun;
  /** The ImportedRunInput sent for it. */
  input: ImportedRunInput;
}

interface Options {
  url: string;
  token: string | undefined;
  thread: string | undefined;
  json: boolean;
  paths: string[];
}

async function importSessions(options: Options, progress: (done: number, total: number) => void) {
  const client = createThreadlineClient({ url: options.url, apiKey: options.token });
  const problems: Problem[] = [];
  const unknownRecordTypes = new Map<string, number>();
  const sessions = await readSessions(await sessionFiles(options.paths, problems), problems, unknownRecordTypes);
  const turns = sessions.flatMap(turnsOf).sort((a, b) => byTime(a.run.startedAt, b.run.startedAt));
  const withTurns = sessions
    .filter((session) => session.parsed.runs.length > 0)
    .sort((a, b) => byTime(a.parsed.runs[0]!.startedAt, b.parsed.runs[0]!.startedAt));
  for (const session of withTurns) session.holderThreadId = await holderOf(client, session.parsed);

  const threadId = await targetThread(client, withTurns, turns, options.thread);
  if (threadId !== null) await createProviderThreads(client, threadId, withTurns);
  const { imported, present } =
    threadId === null ? { imported: 0, present: 0 } : await sendTurns(client, threadId, turns, progress);
  const summary: ImportSummary = {
    threadId,
    runsImported: imported,
    runsAlreadyPresent: present,
    providerThreads: withTurns.map((session) => ({
      id: session.providerThreadId!,
      provider: session.parsed.provider,
      nativeThreadRef: session.parsed.sessionId,
      runs: session.runs,
    })),
    problems,
  };
  return { summary, unknownRecordTypes, skipped: sessions.length - withTurns.length };
}

/** Every turn, in time order, to the thread that holds its session, or else to `threadId`. */
async function sendTurns(
  client: ThreadlineClient,
  threadId: string,
  turns: Turn[],
  progress: (done: number, total: number) => void,
) {
  let imported = 0;
  let present = 0;
  let done = 0;
  for (const batch of batches(turns)) {
    const { session } = batch[0]!;
    const answer = (
      await client.request(ImportRunsDocument, {
        input: importInput(
          session,
          session.holderThreadId ?? threadId,
          batch.map((turn) => turn.input),
        ),
      })
    ).importRuns;
    session.providerThreadId = answer.providerThread.id;
    session.runs += answer.runs.length + answer.alreadyPresent;
    imported += answer.runs.length;
    present += answer.alreadyPresent;
    progress((done += batch.length), turns.length);
  }
  return { imported, present };
}

/** ISO 8601 times in UTC, as the adapters give them, order as strings. */
function byTime(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The files named, and the *.jsonl files under the folders named, each once. */
async function sessionFiles(paths: string[], problems: Problem[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (info === null) problems.push({ file: path, line: null, reason: 'no such file or folder' });
    else if (info.isDirectory()) files.push(...(await jsonlFilesUnder(path)));
    else files.push(path);
  }
  return [...new Set(files)];
}

async function jsonlFilesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Every file read by the adapter of its format; a file of no known format is reported, never guessed. */
async function readSessions(
  files: string[],
  problems: Problem[],
  unknownRecordTypes: Map<string, number>,
): Promise<Session[]> {
  const sessions = new Map<string, Session>();
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch((error: Error) => error);
    if (text instanceof Error) {
      problems.push({ file, line: null, reason: `cannot be read: ${text.message}` });
      continue;
    }
    if (detectFormat(file, text) === null) {
      problems.push({ file, line: null, reason: 'not a Codex rollout or a Claude Code session file' });
      continue;
    }
    const parsed = parseSession(file, text)!;
    problems.push(...parsed.problems.map(({ line, reason }) => ({ file, line, reason })));
    for (const [type, count] of Object.entries(parsed.unknownRecordTypes))
      unknownRecordTypes.set(type, (unknownRecordTypes.get(type) ?? 0) + count);
    const key = `${parsed.provider} ${parsed.sessionId}`;
    const earlier = sessions.get(key);
    if (earlier)
      problems.push({
        file,
        line: null,
        reason: `the same ${parsed.provider} session as ${earlier.file}: not imported twice`,
      });
    else sessions.set(key, { file, parsed, holderThreadId: null, providerThreadId: null, runs: 0 });
  }
  return [...sessions.values()];
}

/**
 * A turn is known again by its start time within its session: a later import of the session (grown,
 * or rewound and continued) finds the turns it already holds by it.
 */
function turnsOf(session: Session): Turn[] {
  const seen = new Map<string, number>();
  return session.parsed.runs.map((run) => {
    const repeat = (seen.get(run.startedAt) ?? 0) + 1;
    seen.set(run.startedAt, repeat);
    return { session, run, input: runInput(run, repeat === 1 ? run.startedAt : `${run.startedAt}#${repeat}`) };
  });
}

function runInput(run: ImportedRun, sourceKey: string): ImportedRunInput {
  // The provider's own word for a failed turn is its last failure; an interrupted one has none.
  const failure = run.status === 'failed' ? run.facts.findLast((fact) => fact.kind === 'failure') : undefined;
  return {
    sourceKey,
    startedAt: run.startedAt,
    completedAt: run.completedAt,
    status: upper(run.status),
    model: run.model,
    userMessage: run.userMessage,
    assistantMessage: run.assistantMessage,
    error: failure?.text ?? null,
    facts: run.facts.map((fact) => {
      const file = fileOf(fact);
      return {
        kind: upper(fact.kind),
        text: fact.text,
        key: fact.key,
        status: fact.status,
        ...(file && { file: { ...file, change: upper(file.change) } }),
      };
    }),
  };
}

/** The API's name of a value the domain stores in lower case (the type checks that the two lists agree). */
function upper<T extends string>(value: T): Uppercase<T> {
  return value.toUpperCase() as Uppercase<T>;
}

async function holderOf(client: ThreadlineClient, session: ParsedSession): Promise<string | null> {
  const holders = (
    await client.request(ProviderThreadsByNativeRefDocument, {
      provider: session.provider,
      nativeThreadRef: session.sessionId,
    })
  ).providerThreadsByNativeRef;
  return holders[0]?.threadId ?? null;
}

/**
 * The thread the call answers with: when every session is already held, the thread holding the
 * earliest (none without sessions); otherwise the thread new sessions go to: --thread, else the one
 * holding the earliest held session, else a new thread named after the first session.
 */
async function targetThread(
  client: ThreadlineClient,
  sessions: Session[],
  turns: Turn[],
  requested: string | undefined,
): Promise<string | null> {
  const held = turns.find((turn) => turn.session.holderThreadId !== null)?.session.holderThreadId ?? null;
  const anyNew = sessions.some((session) => session.holderThreadId === null);
  if (!anyNew) return held;
  // createThread answers with an existing thread unchanged, title included.
  if (requested !== undefined)
    return (await client.request(CreateThreadDocument, { input: { id: requested, title: titleOf(turns[0]!) } }))
      .createThread.id;
  if (held !== null) return held;
  return (await client.request(CreateThreadDocument, { input: { title: titleOf(turns[0]!) } })).createThread.id;
}

function titleOf({ session, run }: Turn): string {
  const project = session.parsed.cwd === null ? null : basename(session.parsed.cwd);
  const title = project ? `${project}: ${run.userMessage}` : run.userMessage;
  const line = title.replace(/\s+/g, ' ').trim();
  return line.length <= TITLE_CHARS ? line : `${line.slice(0, TITLE_CHARS - 1)}…`;
}

/**
 * The new sessions' provider threads, created before any run, in the order their sessions last ran:
 * the planner continues a provider's newest provider thread, which is then the one that served its
 * latest turn, not a subagent that happened to start late in an earlier session.
 */
async function createProviderThreads(client: ThreadlineClient, threadId: string, sessions: Session[]): Promise<void> {
  const fresh = sessions.filter((session) => session.holderThreadId === null);
  fresh.sort((a, b) => byTime(a.parsed.runs.at(-1)!.startedAt, b.parsed.runs.at(-1)!.startedAt));
  for (const session of fresh) {
    session.providerThreadId = (
      await client.request(ImportRunsDocument, { input: importInput(session, threadId, []) })
    ).importRuns.providerThread.id;
  }
}

function importInput(session: Session, threadId: string, runs: ImportedRunInput[]) {
  const { provider, sessionId, model } = session.parsed;
  return { threadId, providerThread: { provider, nativeThreadRef: sessionId, model }, runs };
}

/** Consecutive turns of one session, at most MAX_IMPORTED_RUNS and BATCH_BYTES a call. */
function batches(turns: Turn[]): Turn[][] {
  const result: Turn[][] = [];
  let current: Turn[] = [];
  let bytes = 0;
  for (const turn of turns) {
    const size = Buffer.byteLength(JSON.stringify(turn.input));
    const full = current.length === MAX_IMPORTED_RUNS || bytes + size > BATCH_BYTES;
    if (current.length > 0 && (current[0]!.session !== turn.session || full)) {
      result.push(current);
      current = [];
      bytes = 0;
    }
    current.push(turn);
    bytes += size;
  }
  if (current.length > 0) result.push(current);
  return result;
}

function parseOptions(argv: string[]): Options | string {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        thread: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
    });
    if (values.help) return USAGE;
    if (positionals.length === 0) return `Name at least one session file or folder.\n\n${USAGE}`;
    return {
      url: values.url ?? (process.env.THREADLINE_URL || DEFAULT_URL),
      token: values.token ?? (process.env.THREADLINE_TOKEN || undefined),
      thread: values.thread,
      json: values.json ?? false,
      paths: positionals,
    };
  } catch (error) {
    return `${(error as Error).message}\n\n${USAGE}`;
  }
}

/** Large imports say how far they are, on one stderr line when it is a terminal. */
function progressLine(): (done: number, total: number) => void {
  return (done, total) => {
    if (total <= MAX_IMPORTED_RUNS) return;
    const end = done === total ? '\n' : '';
    process.stderr.write(
      process.stderr.isTTY ? `\rimport: ${done} of ${total} runs${end}` : `import: ${done} of ${total} runs\n`,
    );
  };
}

function printSummary(options: Options, summary: ImportSummary, skipped: number): void {
  const { threadId, runsImported, runsAlreadyPresent, providerThreads, problems } = summary;
  console.log(
    threadId === null
      ? 'No runs to import.'
      : `Imported ${runsImported} run(s) into thread ${threadId} (${runsAlreadyPresent} already there).`,
  );
  for (const pt of providerThreads)
    console.log(`  ${pt.provider} session ${pt.nativeThreadRef}: ${pt.runs} run(s), provider thread ${pt.id}`);
  if (skipped > 0) console.log(`  ${skipped} session(s) without a turn: nothing to import`);
  if (problems.length > 0) console.log(`Problems (${problems.length}):`);
  for (const problem of problems)
    console.log(`  ${problem.file}${problem.line === null ? '' : `:${problem.line}`}: ${problem.reason}`);
  if (threadId !== null) console.log(`Viewer: ${viewerUrl(options.url, threadId)}`);
}

function describeUnknown(counts: Map<string, number>): string | null {
  if (counts.size === 0) return null;
  return `Record types not imported: ${[...counts].map(([type, count]) => `${type} (${count})`).join(', ')}`;
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  if (cause?.code === 'ECONNREFUSED')
    return 'No Threadline service answers there: start one with `npm start`, or pass --url.';
  return cause?.message ? `${error.message}: ${cause.message}` : error.message;
}

async function main(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  if (typeof options === 'string') {
    (options === USAGE ? console.log : console.error)(options);
    return options === USAGE ? 0 : 2;
  }
  const { summary, unknownRecordTypes, skipped } = await importSessions(options, progressLine());
  const unknown = describeUnknown(unknownRecordTypes);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    if (unknown) console.error(unknown);
  } else {
    printSummary(options, summary, skipped);
    if (unknown) console.log(unknown);
  }
  return 0;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  // exitCode, not exit(): a JSON answer piped to another program must be written out in full first.
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(describeFailure(error));
      process.exitCode = 1;
    },
  );
}
