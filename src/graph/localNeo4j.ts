/**
 * "Local Neo4j": a real Neo4j Community DBMS run from Maven Central jars, for development and tests on machines
 * without Docker. tools/neo4j/Launcher.java starts it embedded with only the Bolt connector, on 127.0.0.1. This
 * module is its process: start, readiness, stop. Its install is localNeo4jInstall.ts; which Neo4j a process uses
 * is chosen in chooseNeo4j.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  ensureLocalNeo4jInstalled,
  JDK_HINT,
  lastLines,
  LAUNCHER_READY_LINE,
  NEO4J_JVM_FLAGS,
  type LocalNeo4jInstall,
} from './localNeo4jInstall.js';
import { present } from '../domain/errors.js';

const LAUNCHER_FAILURE = '[launcher] Neo4j failed to start: ';
const PASSWORD_ENV = 'THREADLINE_NEO4J_PASSWORD';
const STOP_TIMEOUT_MS = 30_000;
const OUTPUT_TAIL_LINES = 40;
const DEBUG_LOG_TAIL_LINES = 20;

/** The flags and class path of a Neo4j JVM, before its main class. */
function neo4jJvm(install: LocalNeo4jInstall): string[] {
  return [...NEO4J_JVM_FLAGS, `-XX:SharedArchiveFile=${install.classArchive}`, '-cp', install.classPath];
}

/**
 * Runs Neo4j's own admin tool (`neo4j-admin`, in the same jars) on the Neo4j home `home`, e.g.
 * `['database', 'dump', 'neo4j', '--to-path=DIR']`. Resolves with its output; rejects with the end of
 * it when the tool fails (for instance when a running Neo4j has the database open).
 */
export async function runNeo4jAdmin(home: string, args: string[]): Promise<{ output: string }> {
  const install = await ensureLocalNeo4jInstalled();
  const env: NodeJS.ProcessEnv = { ...process.env, NEO4J_HOME: path.resolve(home) };
  // No neo4j.conf of the user's: the home's defaults (data/ under it) are what the launcher uses too.
  delete env.NEO4J_CONF;
  return new Promise((resolve, reject) => {
    const child = spawn('java', [...neo4jJvm(install), 'org.neo4j.cli.AdminTool', ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error(`\`java\` was not found on PATH. ${JDK_HINT}`) : error),
    );
    child.on('close', (code, signal) => {
      if (code === 0) resolve({ output });
      else
        reject(
          new Error(
            `neo4j-admin ${args.join(' ')} failed (${signal ?? `exit code ${code}`}):\n${lastLines(output, OUTPUT_TAIL_LINES)}`,
          ),
        );
    });
  });
}

export interface LocalNeo4jOptions {
  /** Neo4j home for this instance: data in <storeDir>/data, Neo4j's logs in <storeDir>/logs. */
  storeDir: string;
  /** Bolt port on 127.0.0.1; 0 or undefined picks a free one. */
  port?: number;
  /** When set, auth is enabled and the `neo4j` user gets this password (at least 8 characters). */
  password?: string;
  /** JVM heap, default '512m'. */
  heap?: string;
  /** Neo4j page cache, default '256m'. */
  pageCache?: string;
  /** JVM flags added to the launcher's own, e.g. `['-XX:TieredStopAtLevel=1']`. */
  jvmFlags?: string[];
  /** Neo4j settings by name, over the launcher's own, e.g. `{ 'dbms.cypher.min_replan_interval': '1h' }`. */
  settings?: Record<string, string>;
  /** Default 120000. */
  startTimeoutMs?: number;
  /** Receives every line the launcher prints (stdout and stderr). */
  log?: (line: string) => void;
  /** Receives what the install (once: Maven, javac) is doing, and when Neo4j is ready. */
  progress?: (message: string) => void;
}

export interface LocalNeo4j {
  uri: string;
  port: number;
  version: string;
  pid: number;
  /** SIGTERM, wait for a clean exit, SIGKILL after a timeout. Safe to call more than once. */
  stop(): Promise<void>;
}

export async function startLocalNeo4j(opts: LocalNeo4jOptions): Promise<LocalNeo4j> {
  const install = await ensureLocalNeo4jInstalled({ progress: opts.progress });
  const started = Date.now();
  const storeDir = path.resolve(opts.storeDir);
  const startTimeoutMs = opts.startTimeoutMs ?? 120_000;

  const env = { ...process.env };
  delete env[PASSWORD_ENV];
  if (opts.password) {
    // Passed through the environment rather than argv, which any local user can read in the process list.
    env[PASSWORD_ENV] = opts.password;
  }

  const args = [
    `-Xmx${opts.heap ?? '512m'}`,
    ...(opts.jvmFlags ?? []),
    ...neo4jJvm(install),
    'Launcher',
    '--store-dir',
    storeDir,
    '--port',
    String(opts.port ?? 0),
    '--page-cache',
    opts.pageCache ?? '256m',
    ...Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['--setting', `${name}=${value}`]),
  ];
  // stdin stays an open pipe that is never written: when this process dies, however it dies, the launcher sees EOF
  // and shuts Neo4j down.
  const child = spawn('java', args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => {});

  // 'close' rather than 'exit': it comes after the last output line has been read.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const output: string[] = [];
  let onReady: ((match: RegExpExecArray) => void) | undefined;

  const collect = (line: string, fromStdout: boolean) => {
    output.push(line);
    if (output.length > OUTPUT_TAIL_LINES) {
      output.shift();
    }
    opts.log?.(line);
    const match = fromStdout ? LAUNCHER_READY_LINE.exec(line) : null;
    if (match) {
      onReady?.(match);
    }
  };
  // Both streams are read for the life of the process so that it never blocks on a full pipe.
  createInterface({ input: child.stdout }).on('line', (line) => collect(line, true));
  createInterface({ input: child.stderr }).on('line', (line) => collect(line, false));

  const failure = async (reason: string): Promise<Error> => {
    const cause = [...output]
      .reverse()
      .find((line) => line.startsWith(LAUNCHER_FAILURE))
      ?.slice(LAUNCHER_FAILURE.length);
    let message = `Local Neo4j (store ${storeDir}) ${reason}${cause ? `: ${cause}` : '.'}\n--- launcher output (last ${OUTPUT_TAIL_LINES} lines) ---\n${output.join('\n')}`;
    const debugLog = await readFile(path.join(storeDir, 'logs', 'debug.log'), 'utf8').catch(() => undefined);
    if (debugLog !== undefined) {
      message += `\n--- ${path.join(storeDir, 'logs', 'debug.log')} (last ${DEBUG_LOG_TAIL_LINES} lines) ---\n${lastLines(debugLog, DEBUG_LOG_TAIL_LINES)}`;
    }
    return new Error(message);
  };

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= stopProcess(child, exited);
    return stopping;
  };

  const ready = await new Promise<RegExpExecArray | Error>((resolve) => {
    const timer = setTimeout(
      () => resolve(new Error(`did not become ready within ${startTimeoutMs} ms`)),
      startTimeoutMs,
    );
    const settle = (value: RegExpExecArray | Error) => {
      clearTimeout(timer);
      resolve(value);
    };
    onReady = settle;
    child.once('error', (error: NodeJS.ErrnoException) =>
      settle(
        new Error(
          error.code === 'ENOENT'
            ? `could not start: \`java\` was not found on PATH. ${JDK_HINT}`
            : `could not start: ${error.message}`,
        ),
      ),
    );
    child.once('close', (code, signal) =>
      settle(new Error(`exited before it was ready (${signal ?? `exit code ${code}`})`)),
    );
  });
  onReady = undefined;

  if (ready instanceof Error) {
    await stop();
    throw await failure(ready.message);
  }
  child.once('close', (code, signal) => {
    if (stopping === undefined) {
      opts.log?.(`[localNeo4j] launcher exited unexpectedly (${signal ?? `exit code ${code}`})`);
    }
  });

  const [, uri = '', version = ''] = ready;
  opts.progress?.(`Neo4j ${ready[2]} ready at ${uri} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return {
    uri,
    port: Number(new URL(uri).port),
    version,
    pid: present(child.pid, 'process id of the started Neo4j'),
    stop,
  };
}

async function stopProcess(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
    return;
  }
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), STOP_TIMEOUT_MS);
  });
  const stuck = await Promise.race([exited.then(() => false), timedOut]);
  clearTimeout(timer);
  if (stuck) {
    child.kill('SIGKILL');
    await exited;
  }
}
