/**
 * `threadline watch [DIR...]`: follows the Codex and Claude Code session folders (~/.codex/sessions,
 * ~/.claude/projects, and any folders named) and records each turn once it is complete, in the app
 * thread of its project, the way `threadline import` would (tools/import.ts, with which it shares every
 * rule). A file's partial last line waits for the rest; its last turn waits until the file says the
 * turn ended (Codex's task_complete or turn_aborted, Claude's end_turn) or the file has been quiet for
 * --settle seconds. A file that grew is read only from where the last read stopped, with the lines
 * before it that its new turns need (tools/sessionTail.ts); where each file stopped is kept in the
 * store, so a restart resumes there, and the service knows a turn sent twice (importRuns), so nothing
 * is recorded twice. A file deleted or rotated away is let go, its turns stay recorded; one rotated
 * into its place is read from its start. When the service is away, it says so and tries again, with a
 * growing pause.
 */
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { parseSession } from '../src/sessions/index.js';
import { parseJson, asObject } from '../src/sessions/json.js';
import { ThreadlineClientError } from '../client/index.js';
import { importSessions } from './import.js';
import { describeFailure, log, logDetail } from './log.js';
import { nextTail, readTail, TailStore } from './sessionTail.js';

export interface WatchOptions {
  url: string;
  token: string | undefined;
  /** Folders to follow besides (or, with `defaults` false, instead of) the providers' own. */
  folders: string[];
  defaults: boolean;
  /** Quiet time after which a file's last turn counts as complete, in ms. */
  settleMs: number;
  json: boolean;
  /** Where each file's tail (how far it was read) is kept between runs. */
  stateFile: string;
}

const RETRY_MS = { first: 1_000, max: 30_000 };
// A file that changes again this soon is read once, after the burst.
const DEBOUNCE_MS = 200;
/**
 * How long after a folder appears it is listed once more. chokidar lists a new folder before it starts
 * watching it, so a session file written in between (a new project's first Claude Code session, a new
 * day's first Codex rollout, both written right after their folder is made) would go unseen until it
 * changed again; by then chokidar watches the folder, and the second listing finds the file.
 */
const RELIST_MS = 500;

/** The providers' own session folders that exist on this machine. */
async function defaultFolders(): Promise<string[]> {
  const folders = [join(homedir(), '.codex', 'sessions'), join(homedir(), '.claude', 'projects')];
  const found = await Promise.all(folders.map(async (folder) => ((await isFolder(folder)) ? folder : null)));
  return found.filter((folder) => folder !== null);
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

/** Whether the file's last complete record ends a turn: Codex's task_complete or turn_aborted, Claude's end_turn. */
function lastRecordEndsTurn(text: string): boolean {
  const lines = text.trimEnd().split('\n');
  const record = asObject(parseJson(lines.at(-1) ?? ''));
  if (record === null) return false;
  const payload = asObject(record.payload);
  if (record.type === 'event_msg' && (payload?.type === 'task_complete' || payload?.type === 'turn_aborted'))
    return true;
  return record.type === 'assistant' && asObject(record.message)?.stop_reason === 'end_turn';
}

/** Runs until stopped (SIGINT, SIGTERM); 2 when there is nothing to follow. */
export async function watchCommand(options: WatchOptions): Promise<number> {
  const folders = [...(options.defaults ? await defaultFolders() : []), ...options.folders];
  const missing = [];
  for (const folder of options.folders) if (!(await isFolder(folder))) missing.push(folder);
  if (missing.length > 0 || folders.length === 0) {
    log(
      'error',
      missing.length > 0
        ? `Not a folder: ${missing.join(', ')}`
        : 'No session folder to follow: neither ~/.codex/sessions nor ~/.claude/projects exists; name a folder.',
    );
    return 2;
  }
  const watcher = new SessionWatcher(options, await TailStore.open(options.stateFile));
  await watcher.start(folders);
  await new Promise<void>((resolve) => {
    const stop = () => void watcher.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

class SessionWatcher {
  private watcher: FSWatcher | null = null;
  /** Files waiting to be read, in the order they changed; one is recorded at a time. */
  private readonly queue = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private draining: Promise<void> | null = null;
  private retryMs = RETRY_MS.first;
  private away = false;
  private closed = false;
  /** Set once chokidar's first walk is done: the folders that appear after it are listed again. */
  private watching = false;

  constructor(
    private readonly options: WatchOptions,
    private readonly tails: TailStore,
  ) {}

  async start(folders: string[]): Promise<void> {
    this.watcher = watch(folders, {
      // Session files only; folders are walked.
      ignored: (path, stats) => stats?.isFile() === true && !path.endsWith('.jsonl'),
      ignoreInitial: false,
      followSymlinks: true,
    });
    this.watcher.on('add', (file) => this.changed(file));
    this.watcher.on('change', (file) => this.changed(file));
    this.watcher.on('unlink', (file) => this.removed(file));
    this.watcher.on('addDir', (folder) => this.appeared(folder));
    this.watcher.on('error', (error) => log('warn', `watching: ${String(error)}`));
    await new Promise<void>((resolve) => this.watcher!.once('ready', () => resolve()));
    this.watching = true;
    log('info', `Watching ${folders.join(', ')} for Codex and Claude Code sessions`, { folders });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    await this.watcher?.close();
    await this.draining;
    log('info', 'Stopped watching.');
  }

  private changed(file: string): void {
    if (this.closed) return;
    this.later(file, DEBOUNCE_MS);
  }

  /** A folder made while watching: its session files, once chokidar watches it (RELIST_MS). */
  private appeared(folder: string): void {
    if (!this.watching || this.closed) return;
    setTimeout(() => void this.relist(folder), RELIST_MS).unref();
  }

  private async relist(folder: string): Promise<void> {
    if (this.closed || !this.watcher) return;
    const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    // A folder made inside it in the same gap is not watched either (the `mkdir -p` of a new day).
    const watched = this.watcher.getWatched();
    for (const entry of entries) {
      const path = join(entry.parentPath, entry.name);
      if (entry.isDirectory() && !(path in watched)) this.watcher.add(path);
      else if (entry.isFile() && entry.name.endsWith('.jsonl')) this.changed(path);
    }
  }

  private removed(file: string): void {
    clearTimeout(this.timers.get(file));
    this.timers.delete(file);
    this.queue.delete(file);
    void this.tails.forget(file).catch((error: Error) => log('warn', `forgetting ${file}: ${error.message}`));
    log('info', `${file} is gone: the turns it held stay recorded`, { file });
  }

  private later(file: string, ms: number): void {
    clearTimeout(this.timers.get(file));
    this.timers.set(
      file,
      setTimeout(() => {
        this.timers.delete(file);
        this.queue.add(file);
        this.draining ??= this.drain().finally(() => (this.draining = null));
      }, ms),
    );
  }

  private async drain(): Promise<void> {
    for (const file of this.queue) {
      if (this.closed) return;
      this.queue.delete(file);
      await this.record(file);
    }
  }

  /** Records what the file holds now; on an outage, keeps the file to try again after a pause. */
  private async record(file: string): Promise<void> {
    let held = false;
    const lastTurnOpen = (_: string, text: string) => {
      held = !lastRecordEndsTurn(text);
      return held;
    };
    try {
      const modified = (await stat(file).catch(() => null))?.mtimeMs;
      if (modified === undefined) return; // gone meanwhile
      const quiet = Date.now() - modified >= this.options.settleMs;
      const known = this.tails.get(file);
      const read = await readTail(file, known).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (read === null) return; // gone meanwhile
      logDetail(`${file}: read ${read.bytesRead} bytes`, { file, bytesRead: read.bytesRead, fresh: read.fresh });
      const { summary } = await importSessions(
        {
          url: this.options.url,
          token: this.options.token,
          split: 'project',
          thread: undefined,
          dryRun: false,
          preview: undefined,
          json: false,
          paths: [file],
          lastTurnOpen: quiet ? undefined : lastTurnOpen,
          readText: () => Promise.resolve(read.text),
        },
        () => {},
      );
      await this.tails.set(file, nextTail(file, read, known, parseSession(file, read.text)));
      if (this.away) log('info', `The service answers again at ${this.options.url}`);
      this.away = false;
      this.retryMs = RETRY_MS.first;
      this.report(file, summary);
      // The last turn waits for the end of the file's quiet time, then is read again.
      if (held) this.later(file, this.options.settleMs);
    } catch (error) {
      if (!unreachable(error)) {
        log('error', `${file}: ${describeFailure(error, this.options.url)}`, { file });
        return;
      }
      log(
        'warn',
        `The service is away (${describeFailure(error, this.options.url)}); trying again in ${this.retryMs / 1000} s`,
        { file, retryMs: this.retryMs },
      );
      this.away = true;
      this.later(file, this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MS.max);
    }
  }

  private report(file: string, summary: Awaited<ReturnType<typeof importSessions>>['summary']): void {
    for (const problem of summary.problems)
      log('warn', `${problem.file}${problem.line === null ? '' : `:${problem.line}`}: ${problem.reason}`, { problem });
    for (const thread of summary.threads) {
      if (thread.runsImported === 0) continue;
      const sessions = thread.providerThreads.map((pt) => `${pt.provider} ${pt.nativeThreadRef}`).join(', ');
      const line = { file, threadId: thread.id, project: thread.project, runsImported: thread.runsImported };
      if (this.options.json) process.stdout.write(`${JSON.stringify(line)}\n`);
      log('info', `Recorded ${thread.runsImported} turn(s) of ${sessions} in thread ${thread.id}`, line);
    }
  }
}

/** An error that means the service is not there (yet): not answering, or answering that it is not ready. */
function unreachable(error: unknown): boolean {
  if (!(error instanceof ThreadlineClientError)) return false;
  return error.status === 0 || error.status === 502 || error.status === 503 || error.code === 'SERVICE_UNAVAILABLE';
}
