/**
 * `threadline import [--url URL] [--token T] [--split project|session|none | --thread ID] [--dry-run]
 * [--preview PROVIDER] [--json] PATH...` (also `npm run import --`): records past Codex and Claude Code sessions as runs of
 * app threads, through the service's public GraphQL API (importRuns; a subagent's thread is made by
 * importSubagentThread, a child of its main session's thread). PATH is a session file or a
 * folder walked for *.jsonl files (a Codex sessions folder, a Claude Code project folder with its
 * subagents). By default each project (the session's working directory, folded to the git root above
 * it when that folder is on this machine) gets its own app thread; each session becomes one provider
 * thread, and the runs of a thread's sessions go into it in the order they happened, whichever
 * provider served them. Importing the same sessions again adds nothing and answers with the threads
 * that hold them; sessions that grew add their new turns. --preview then shows, per thread, what a run
 * on PROVIDER would be given (previewRun, which writes nothing).
 */
import { constants } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, join } from 'node:path';
import { MAX_IMPORTED_RUNS } from '../src/domain/imports.js';
import { detectFormat, parseSession, type ImportedRun, type ParsedSession } from '../src/sessions/index.js';
import { fileOf } from '../src/sessions/turn.js';
import {
  createThreadlineClient,
  CreateThreadDocument,
  ImportRunsDocument,
  ImportSubagentThreadDocument,
  ImportedRunTimesDocument,
  PreviewRunDocument,
  ProviderThreadsByNativeRefDocument,
  ThreadRunsDocument,
  type ImportedRunTimesQuery,
  type PreviewRunQuery,
  type ImportedRunInput,
  type ThreadlineClient,
} from '../client/index.js';
import { viewerUrl } from './demo.js';
import { projectOf } from './project.js';
import { threadOfProject } from './threadIndex.js';

// Well under the service's 1 MB limit on a request body, whatever the runs hold.
const BATCH_BYTES = 512 * 1024;
const TITLE_CHARS = 100;
/** The service's limits on a thread id and on a subagent's task. */
const ID_CHARS = 200;
const TASK_CHARS = 20_000;
export const SPLITS = ['project', 'session', 'none'] as const;
type Split = (typeof SPLITS)[number];

export interface Problem {
  file: string;
  /** 1-based line of the file; null when the problem is the whole file (it was refused). */
  line: number | null;
  reason: string;
}

interface ImportedProviderThread {
  /** null in a dry run, for a session no thread holds yet. */
  id: string | null;
  provider: string;
  nativeThreadRef: string;
  /** Its runs in Threadline after this import (imported now or before); in a dry run, the turns read. */
  runs: number;
}

interface ImportedThread {
  /** null in a dry run, for a thread the import would create with an id of the service's choosing. */
  id: string | null;
  /** The folder the thread's sessions ran in; null when they record none or span several (--split none). */
  project: string | null;
  /** A subagent's own thread: the native id of the session it worked for; null for a main thread. */
  subagentOf: string | null;
  title: string;
  /** Created by this import (in a dry run: would be). */
  created: boolean;
  runsImported: number;
  runsAlreadyPresent: number;
  providerThreads: ImportedProviderThread[];
}

export interface ImportSummary {
  dryRun: boolean;
  runsImported: number;
  runsAlreadyPresent: number;
  /** Turns a resume, a fork or a second copy of a file repeated (the same record ids): stored once. */
  duplicateTurns: number;
  /** Record types the adapters do not read, per type: counted, never a problem. */
  unknownRecordTypes: Record<string, number>;
  threads: ImportedThread[];
  problems: Problem[];
  /** What was read but adjusted, e.g. times that ran backwards, clamped. */
  warnings: Problem[];
}

/** A refusal decided before anything is written: exit 2 with its message. */
class ImportRefused extends Error {}

interface Session {
  file: string;
  parsed: ParsedSession;
  project: string | null;
  /** The thread that already holds the session, if an earlier import (or a bind) put it there. */
  holderThreadId: string | null;
  providerThreadId: string | null;
  /** Its runs in Threadline after this import: imported now or before. */
  runs: number;
  imported: number;
  present: number;
}

interface Turn {
  session: Session;
  run: ImportedRun;
  /** The ImportedRunInput sent for it. */
  input: ImportedRunInput;
}

/** Sessions that go to one app thread: new ones to `threadId`, held ones stay where they are. */
interface Group {
  project: string | null;
  subagentOf: string | null;
  sessions: Session[];
  turns: Turn[];
  /** The thread new sessions go to; null until created (always null in a dry run for a new one). */
  threadId: string | null;
  /** The id --thread asked for. */
  requested: string | null;
  created: boolean;
}

export interface ImportOptions {
  url: string;
  token: string | undefined;
  split: Split;
  thread: string | undefined;
  dryRun: boolean;
  preview: string | undefined;
  json: boolean;
  paths: string[];
  /**
   * For files still being written (threadline watch): whether the file's last turn is still going
   * on, so it waits (its partial last line always does). Absent: every file is complete.
   */
  lastTurnOpen?: (file: string, text: string) => boolean;
  /** The text to read for a file, when the caller holds it (threadline watch: what is new, with its context); absent: the whole file. */
  readText?: (file: string) => Promise<string>;
}

export async function importSessions(options: ImportOptions, progress: (done: number, total: number) => void) {
  const client = createThreadlineClient({ url: options.url, apiKey: options.token });
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const unknownRecordTypes = new Map<string, number>();
  const files = await sessionFiles(options.paths, problems);
  const sessions = await readSessions(files, { problems, warnings, unknownRecordTypes }, options);
  let duplicateTurns = dropCopies(sessions);
  const withTurns = sessions
    .filter((session) => session.parsed.runs.length > 0)
    .sort((a, b) => byTime(a.parsed.runs[0]!.startedAt, b.parsed.runs[0]!.startedAt));
  for (const session of withTurns) await findHolder(client, session);

  const groups = groupSessions(withTurns, options.thread === undefined ? options.split : 'none');
  // A subagent keeps a thread of its own, --thread or not: its task is not a turn of the main thread.
  for (const group of groups)
    await chooseThread(client, group, options.split, group.subagentOf ? null : (options.thread ?? null));
  if (!options.dryRun) {
    const total = groups.reduce((sum, group) => sum + group.turns.length, 0);
    let done = 0;
    // Main sessions first: a subagent's thread is made under the thread and run of the session it worked for.
    const parents = new SubagentParents(client, groups);
    for (const group of [
      ...groups.filter((g) => g.subagentOf === null),
      ...groups.filter((g) => g.subagentOf !== null),
    ]) {
      await createThread(client, group, parents);
      await createProviderThreads(client, group);
      duplicateTurns += await sendTurns(client, group, (sent) => progress((done += sent), total));
    }
  }
  const summary: ImportSummary = {
    dryRun: options.dryRun,
    ...threadsOf(groups, options.dryRun),
    duplicateTurns,
    unknownRecordTypes: Object.fromEntries(unknownRecordTypes),
    problems,
    warnings,
  };
  const previews = options.preview === undefined ? [] : await previewsOf(client, summary, options.preview);
  return { summary, previews, unknownRecordTypes, skipped: sessions.length - withTurns.length };
}

type Preview = PreviewRunQuery['previewRun'] & { threadId: string };

/** What a run on `provider` would be given in each thread that exists: a read, nothing written. */
async function previewsOf(client: ThreadlineClient, summary: ImportSummary, provider: string): Promise<Preview[]> {
  const previews: Preview[] = [];
  for (const { id: threadId } of summary.threads) {
    if (threadId === null) continue;
    const input = { threadId, provider };
    previews.push({ threadId, ...(await client.request(PreviewRunDocument, { input })).previewRun });
  }
  return previews;
}

/**
 * Sessions grouped into the app threads they go to, in the order their first turns happened:
 * by project, by session (forks with their source), or all in one. A subagent always has a thread of
 * its own, so the main thread's provider thread stays the one a return resumes.
 */
function groupSessions(sessions: Session[], split: Split): Group[] {
  const groups = new Map<string, Group>();
  const byId = new Map(sessions.map((session) => [`${session.parsed.provider} ${session.parsed.sessionId}`, session]));
  for (const session of sessions) {
    const { relationship, parentSessionId, provider, sessionId } = session.parsed;
    const subagentOf = relationship === 'subagent' ? (parentSessionId ?? '') : null;
    const key =
      subagentOf !== null
        ? `subagent ${provider} ${sessionId}`
        : split === 'none'
          ? ''
          : split === 'project'
            ? `${session.project}`
            : rootOf(session, byId).parsed.sessionId;
    const group = groups.get(key) ?? {
      project: split === 'none' && subagentOf === null ? null : session.project,
      subagentOf,
      sessions: [],
      turns: [],
      threadId: null,
      requested: null,
      created: false,
    };
    group.sessions.push(session);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    if (split === 'none' && group.project === null && new Set(group.sessions.map((s) => s.project)).size === 1)
      group.project = group.sessions[0]!.project;
    group.turns = group.sessions.flatMap(turnsOf).sort((a, b) => byTime(a.run.startedAt, b.run.startedAt));
  }
  return [...groups.values()];
}

/** The session a subagent or fork ultimately belongs to, among the sessions read. */
function rootOf(session: Session, byId: Map<string, Session>): Session {
  const seen = new Set<Session>();
  let root = session;
  while (root.parsed.parentSessionId !== null && !seen.has(root)) {
    seen.add(root);
    const parent = byId.get(`${root.parsed.provider} ${root.parsed.parentSessionId}`);
    if (parent === undefined) break;
    root = parent;
  }
  return root;
}

/**
 * The thread a group's new sessions go to: --thread (refused when one of the sessions already lives in
 * another thread: importRuns never moves a session), else the thread holding the group's earliest held
 * session, else (split by project) the project's thread, else a new one (created later, unless this
 * is a dry run).
 */
async function chooseThread(
  client: ThreadlineClient,
  group: Group,
  split: Split,
  requested: string | null,
): Promise<void> {
  if (requested !== null) {
    const elsewhere = group.sessions.filter((s) => s.holderThreadId !== null && s.holderThreadId !== requested);
    if (elsewhere.length > 0) {
      const named = elsewhere
        .map((s) => `${s.parsed.provider} session ${s.parsed.sessionId} (${s.file}) is in thread ${s.holderThreadId}`)
        .join('; ');
      throw new ImportRefused(
        `--thread ${requested} refused, nothing written: ${named}. A session stays in the thread that holds it: import without --thread to add to it, or leave that file out.`,
      );
    }
    const existing = (await client.request(ThreadRunsDocument, { id: requested, first: 1 })).thread;
    group.requested = requested;
    group.threadId = requested;
    group.created = existing === null;
    return;
  }
  group.threadId = group.turns.find((turn) => turn.session.holderThreadId !== null)?.session.holderThreadId ?? null;
  if (group.threadId === null && split === 'project' && group.subagentOf === null && group.project !== null)
    group.threadId = await threadOfProject(client, group.project);
  group.created = group.threadId === null;
}

async function createThread(client: ThreadlineClient, group: Group, parents: SubagentParents): Promise<void> {
  if (!group.created) return;
  const parent = group.subagentOf === null ? null : await parents.of(group);
  if (parent !== null) {
    const { session, run } = group.turns[0]!;
    const input = {
      parentThreadId: parent.threadId,
      parentRunId: await parents.runAt(parent, spawnTime(parent, session) ?? run.startedAt),
      id: `${session.parsed.provider}-subagent-${session.parsed.sessionId}`.slice(0, ID_CHARS),
      title: titleOf(group),
      task: run.userMessage.slice(0, TASK_CHARS),
    };
    group.threadId = (await client.request(ImportSubagentThreadDocument, { input })).importSubagentThread.id;
    return;
  }
  const input = {
    title: titleOf(group),
    project: group.project,
    ...(group.requested !== null && { id: group.requested }),
  };
  // createThread answers with an existing thread unchanged, title included.
  group.threadId = (await client.request(CreateThreadDocument, { input })).createThread.id;
}

/** Where a subagent's main session is: its thread and provider thread. */
interface ParentSession {
  threadId: string;
  providerThreadId: string;
  /** Null when an earlier import holds it and this one did not read it. */
  session: Session | null;
}

/**
 * When the main session's turn that started the subagent began, when the adapter can tell: the
 * turn whose subagent_result fact names the subagent (a Claude Code Task result's agentId, a Codex
 * spawn's new thread id).
 */
function spawnTime(parent: ParentSession, subagent: Session): string | null {
  const id = subagent.parsed.sessionId;
  const spawning = parent.session?.parsed.runs.find((run) =>
    run.facts.some((fact) => fact.kind === 'subagent_result' && fact.key === id),
  );
  return spawning?.startedAt ?? null;
}

type RunTime = { id: string; providerThreadId: string; startedAt: number };

/**
 * The main sessions subagents worked for, found among the groups once their threads exist, else
 * where an earlier import put them; and the runs of their threads, read once per thread.
 */
class SubagentParents {
  private readonly runs = new Map<string, Promise<RunTime[]>>();

  constructor(
    private readonly client: ThreadlineClient,
    private readonly groups: Group[],
  ) {}

  /** Null when the session the subagent worked for is neither read now nor imported before. */
  async of(group: Group): Promise<ParentSession | null> {
    const { provider } = group.sessions[0]!.parsed;
    for (const main of this.groups) {
      if (main.subagentOf !== null) continue;
      const session = main.sessions.find(
        (s) => s.parsed.provider === provider && s.parsed.sessionId === group.subagentOf,
      );
      const threadId = session && (session.holderThreadId ?? main.threadId);
      if (session?.providerThreadId && threadId)
        return { threadId, providerThreadId: session.providerThreadId, session };
    }
    const [holder] = (
      await this.client.request(ProviderThreadsByNativeRefDocument, { provider, nativeThreadRef: group.subagentOf! })
    ).providerThreadsByNativeRef;
    return holder ? { threadId: holder.threadId, providerThreadId: holder.id, session: null } : null;
  }

  /** The main session's run current at `startedAt`: its last live run started then or before; null when none. */
  async runAt(parent: ParentSession, startedAt: string): Promise<string | null> {
    let runs = this.runs.get(parent.threadId);
    if (runs === undefined) this.runs.set(parent.threadId, (runs = this.runsOf(parent.threadId)));
    const at = Date.parse(startedAt);
    return (
      (await runs).findLast((run) => run.providerThreadId === parent.providerThreadId && run.startedAt <= at)?.id ??
      null
    );
  }

  private async runsOf(threadId: string): Promise<RunTime[]> {
    const runs: RunTime[] = [];
    for (let after: string | null = null; ;) {
      const answer: ImportedRunTimesQuery = await this.client.request(ImportedRunTimesDocument, {
        id: threadId,
        after,
      });
      const page = answer.thread?.runs;
      for (const { node } of page?.edges ?? []) {
        if (node.status === 'ROLLED_BACK') continue;
        runs.push({ id: node.id, providerThreadId: node.providerThread.id, startedAt: Date.parse(node.createdAt) });
      }
      if (!page?.pageInfo.hasNextPage) return runs;
      after = page.pageInfo.endCursor ?? null;
    }
  }
}

/** The threads the sessions are in after the import (or would be, in a dry run), each once. */
function threadsOf(
  groups: Group[],
  dryRun: boolean,
): Pick<ImportSummary, 'runsImported' | 'runsAlreadyPresent' | 'threads'> {
  const threads: ImportedThread[] = [];
  for (const group of groups) {
    for (const session of group.sessions) {
      const id = session.holderThreadId ?? group.threadId;
      let thread = threads.find((t) => (id === null ? t.id === null && t.title === titleOf(group) : t.id === id));
      if (thread === undefined) {
        const createdHere = id === group.threadId && group.created;
        thread = {
          id,
          project: group.project,
          subagentOf: group.subagentOf,
          title: titleOf(group),
          created: createdHere,
          runsImported: 0,
          runsAlreadyPresent: 0,
          providerThreads: [],
        };
        threads.push(thread);
      }
      thread.runsImported += session.imported;
      thread.runsAlreadyPresent += session.present;
      thread.providerThreads.push({
        id: session.providerThreadId,
        provider: session.parsed.provider,
        nativeThreadRef: session.parsed.sessionId,
        runs: dryRun ? session.parsed.runs.length : session.runs,
      });
    }
  }
  const sum = (pick: (thread: ImportedThread) => number) => threads.reduce((total, t) => total + pick(t), 0);
  return {
    runsImported: sum((t) => t.runsImported),
    runsAlreadyPresent: sum((t) => t.runsAlreadyPresent),
    threads,
  };
}

/** Every turn of the group, in time order, to the thread that holds its session, or else to the group's. */
/** Answers how many turns the service found to be copies of turns their thread already holds. */
async function sendTurns(client: ThreadlineClient, group: Group, sent: (count: number) => void): Promise<number> {
  let copies = 0;
  for (const batch of batches(group.turns)) {
    const { session } = batch[0]!;
    const answer = (
      await client.request(ImportRunsDocument, {
        input: importInput(
          session,
          session.holderThreadId ?? group.threadId!,
          batch.map((turn) => turn.input),
        ),
      })
    ).importRuns;
    session.providerThreadId = answer.providerThread.id;
    session.runs += answer.runs.length + answer.alreadyPresent;
    session.imported += answer.runs.length;
    session.present += answer.alreadyPresent;
    copies += answer.duplicateTurns;
    sent(batch.length);
  }
  return copies;
}

/** ISO 8601 times in UTC, as the adapters give them, order as strings. */
function byTime(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The files named, and the *.jsonl files under the folders named, each once. A symbolic link to a
 * file is followed; what is not a regular file (a FIFO, a device, a link to nothing) is refused with
 * its reason, never opened for reading, where it could block forever.
 */
async function sessionFiles(paths: string[], problems: Problem[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (info === null) problems.push({ file: path, line: null, reason: 'no such file or folder' });
    else if (info.isDirectory()) files.push(...(await jsonlFilesUnder(path, problems)));
    else if (info.isFile()) files.push(path);
    else problems.push({ file: path, line: null, reason: notRegular(info) });
  }
  return [...new Set(files)];
}

async function jsonlFilesUnder(folder: string, problems: Problem[]): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => byTime(join(a.parentPath, a.name), join(b.parentPath, b.name)))) {
    const file = join(entry.parentPath, entry.name);
    if (entry.isSymbolicLink()) {
      const target = await stat(file).catch(() => null);
      if (target === null) {
        if (entry.name.endsWith('.jsonl'))
          problems.push({ file, line: null, reason: 'a symbolic link to nothing (its target is missing): not read' });
      } else if (target.isDirectory())
        problems.push({
          file,
          line: null,
          reason: 'a symbolic link to a folder: not followed (it could loop); name that folder itself to import it',
        });
      else if (!entry.name.endsWith('.jsonl')) continue;
      else if (target.isFile()) files.push(file);
      else problems.push({ file, line: null, reason: `a symbolic link to ${notRegular(target)}` });
    } else if (!entry.name.endsWith('.jsonl') || entry.isDirectory()) continue;
    else if (entry.isFile()) files.push(file);
    else problems.push({ file, line: null, reason: notRegular(entry) });
  }
  return files;
}

function notRegular(info: Pick<Stats, 'isFIFO' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket'>): string {
  const kind = info.isFIFO()
    ? 'a FIFO (named pipe)'
    : info.isCharacterDevice()
      ? 'a character device'
      : info.isBlockDevice()
        ? 'a block device'
        : info.isSocket()
          ? 'a socket'
          : 'something';
  return `${kind}, not a regular file: not read`;
}

/**
 * A session file's text. Opened without blocking and checked again once open: a path that turned
 * into a FIFO after it was listed is refused rather than waited on.
 */
async function readSessionFile(file: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(notRegular(info));
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** A Claude Code workflow agent's `agent-<id>.meta.json` beside its file, when there is one to read. */
async function agentMetaOf(file: string): Promise<string | undefined> {
  if (!/^agent-.+\.jsonl$/.test(basename(file))) return undefined;
  return readSessionFile(file.replace(/\.jsonl$/, '.meta.json')).catch(() => undefined);
}

/**
 * Every file read by the adapter of its format; a file of no known format is reported, never guessed.
 * Subagents a file holds inline are sessions of their own; files of one session (a paginated Codex
 * thread's pages, or a file named twice) are read as one.
 */
async function readSessions(
  files: string[],
  found: { problems: Problem[]; warnings: Problem[]; unknownRecordTypes: Map<string, number> },
  { lastTurnOpen, readText = readSessionFile }: Pick<ImportOptions, 'lastTurnOpen' | 'readText'>,
): Promise<Session[]> {
  const { problems, unknownRecordTypes } = found;
  const sessions = new Map<string, Session>();
  for (const file of files) {
    const read = await readText(file).catch((error: Error) => error);
    // A file being written ends at its last complete line: the rest is not written yet.
    const text = typeof read === 'string' && lastTurnOpen ? read.slice(0, read.lastIndexOf('\n') + 1) : read;
    if (text instanceof Error) {
      problems.push({ file, line: null, reason: `cannot be read: ${text.message}` });
      continue;
    }
    if (detectFormat(file, text) === null) {
      problems.push({ file, line: null, reason: 'not a Codex rollout or a Claude Code session file' });
      continue;
    }
    const main = parseSession(file, text, await agentMetaOf(file))!;
    if (lastTurnOpen?.(file, text)) main.runs = main.runs.slice(0, -1);
    for (const parsed of [main, ...main.subagents]) {
      problems.push(...parsed.problems.map(({ line, reason }) => ({ file, line, reason })));
      found.warnings.push(...parsed.warnings.map(({ line, reason }) => ({ file, line, reason })));
      for (const [type, count] of Object.entries(parsed.unknownRecordTypes))
        unknownRecordTypes.set(type, (unknownRecordTypes.get(type) ?? 0) + count);
      const key = `${parsed.provider} ${parsed.sessionId}`;
      const earlier = sessions.get(key);
      if (earlier) {
        const runs = [...earlier.parsed.runs, ...parsed.runs].sort((a, b) => byTime(a.startedAt, b.startedAt));
        earlier.parsed = { ...earlier.parsed, runs };
        continue;
      }
      sessions.set(key, {
        file,
        parsed,
        project: projectOf(parsed.cwd),
        holderThreadId: null,
        providerThreadId: null,
        runs: 0,
        imported: 0,
        present: 0,
      });
    }
  }
  return [...sessions.values()];
}

/**
 * Turns read more than once are kept once, in the session that started first: a resumed Claude Code
 * session and a Codex fork copy earlier turns with their record ids (ImportedRun.sourceId); a turn
 * without one is known by its start within its session. Answers how many copies were dropped.
 */
function dropCopies(sessions: Session[]): number {
  const seen = new Set<string>();
  let copies = 0;
  const firstStart = (session: Session) => session.parsed.runs[0]?.startedAt ?? '';
  for (const session of [...sessions].sort((a, b) => byTime(firstStart(a), firstStart(b)))) {
    const { provider, sessionId } = session.parsed;
    const runs = session.parsed.runs.filter((run) => {
      const key = run.sourceId === null ? `${sessionId} ${run.startedAt}` : `${provider} ${run.sourceId}`;
      if (seen.has(key)) {
        copies += 1;
        return false;
      }
      seen.add(key);
      return true;
    });
    session.parsed = { ...session.parsed, runs };
  }
  return copies;
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
    sourceId: run.sourceId,
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

/** Where an earlier import (or a bind) put the session: its thread and provider thread. */
async function findHolder(client: ThreadlineClient, session: Session): Promise<void> {
  const [holder] = (
    await client.request(ProviderThreadsByNativeRefDocument, {
      provider: session.parsed.provider,
      nativeThreadRef: session.parsed.sessionId,
    })
  ).providerThreadsByNativeRef;
  session.holderThreadId = holder?.threadId ?? null;
  session.providerThreadId = holder?.id ?? null;
}

/**
 * The thread's title: its project's folder name and its first message (a subagent's: its task, after
 * its name when a workflow agent's meta file gives one).
 */
function titleOf(group: Group): string {
  const project = group.project === null ? null : basename(group.project);
  const { run, session } = group.turns[0]!;
  const name = session.parsed.agentName;
  const first = run.userMessage;
  const text = group.subagentOf === null ? first : `subagent${name === null ? '' : ` ${name}`}: ${first}`;
  const line = (project ? `${project}: ${text}` : text).replace(/\s+/g, ' ').trim();
  return line.length <= TITLE_CHARS ? line : `${line.slice(0, TITLE_CHARS - 1)}…`;
}

/**
 * The new sessions' provider threads, created before any run, in the order their sessions last ran:
 * the planner continues a provider's newest provider thread, which is then the one that served its
 * latest turn, not a subagent that happened to start late in an earlier session.
 */
async function createProviderThreads(client: ThreadlineClient, group: Group): Promise<void> {
  const fresh = group.sessions.filter((session) => session.holderThreadId === null);
  fresh.sort((a, b) => byTime(a.parsed.runs.at(-1)!.startedAt, b.parsed.runs.at(-1)!.startedAt));
  for (const session of fresh) {
    session.providerThreadId = (
      await client.request(ImportRunsDocument, { input: importInput(session, group.threadId!, []) })
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

function printSummary(options: ImportOptions, summary: ImportSummary, skipped: number): void {
  const { threads, runsImported, runsAlreadyPresent, problems, dryRun } = summary;
  if (threads.length === 0) console.log('No runs to import.');
  else if (dryRun) console.log(`Dry run: nothing written. The import would record ${threads.length} thread(s):`);
  else
    console.log(
      `Imported ${runsImported} run(s) into ${threads.length} thread(s) (${runsAlreadyPresent} already there).`,
    );
  for (const thread of threads) {
    const name = thread.id ?? '(a new id)';
    const verb = thread.created ? (dryRun ? 'new thread' : 'created thread') : 'thread';
    console.log(`${verb} ${name} "${thread.title}"${thread.project === null ? '' : ` for ${thread.project}`}`);
    if (!dryRun) console.log(`  ${thread.runsImported} run(s) imported, ${thread.runsAlreadyPresent} already there`);
    for (const pt of thread.providerThreads)
      console.log(
        `  ${pt.provider} session ${pt.nativeThreadRef}: ${pt.runs} ${dryRun ? 'turn(s) read' : 'run(s)'}${pt.id === null ? '' : `, provider thread ${pt.id}`}`,
      );
    if (thread.id !== null && !dryRun) console.log(`  Viewer: ${viewerUrl(options.url, thread.id)}`);
  }
  if (skipped > 0) console.log(`  ${skipped} session(s) without a turn: nothing to import`);
  if (summary.duplicateTurns > 0)
    console.log(`  ${summary.duplicateTurns} turn(s) copied by a resume or a fork: stored once`);
  for (const warning of summary.warnings)
    console.log(`  warning: ${warning.file}${warning.line === null ? '' : `:${warning.line}`}: ${warning.reason}`);
  if (problems.length > 0) console.log(`Problems (${problems.length}):`);
  for (const problem of problems)
    console.log(`  ${problem.file}${problem.line === null ? '' : `:${problem.line}`}: ${problem.reason}`);
}

function printPreview(provider: string, preview: Preview): void {
  const { plan, context, delivery, pendingWriter } = preview;
  console.log(
    `A run on ${provider} in thread ${preview.threadId} now (nothing written): ${plan.decision}, ${plan.providerThreadAction}`,
  );
  for (const reason of plan.reasons) console.log(`  ${reason}`);
  if (pendingWriter !== null) console.log(`  ${pendingWriter} would be asked to write the summary.`);
  else if (context === null) console.log('  No context would be sent.');
  else console.log(`Context (${context.length} characters, as ${delivery}):\n${context}`);
}

function describeUnknown(counts: Map<string, number>): string | null {
  if (counts.size === 0) return null;
  return `Record types not imported: ${[...counts].map(([type, count]) => `${type} (${count})`).join(', ')}`;
}

/** 1 when nothing could be imported or a file was refused: a script must not take that for success. */
function importExitCode(summary: ImportSummary): number {
  if (summary.threads.length === 0) return 1;
  return summary.problems.some((problem) => problem.line === null) ? 1 : 0;
}

/** `threadline import`: the exit status of the import the options describe. */
export async function importCommand(options: ImportOptions): Promise<number> {
  let result: Awaited<ReturnType<typeof importSessions>>;
  try {
    result = await importSessions(options, progressLine());
  } catch (error) {
    if (!(error instanceof ImportRefused)) throw error;
    console.error(error.message);
    return 2;
  }
  const { summary, previews, unknownRecordTypes, skipped } = result;
  const unknown = describeUnknown(unknownRecordTypes);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(options.preview === undefined ? summary : { ...summary, previews })}\n`);
    if (unknown) console.error(unknown);
  } else {
    printSummary(options, summary, skipped);
    if (unknown) console.log(unknown);
    for (const preview of previews) printPreview(options.preview!, preview);
  }
  return importExitCode(summary);
}
