/**
 * "Local Neo4j": a real Neo4j Community DBMS run from Maven Central jars, for development and tests on machines
 * without Docker. tools/neo4j/Launcher.java starts it embedded with only the Bolt connector, on 127.0.0.1.
 *
 * Install layout, under the project root (`.cache/` is gitignored):
 *   .cache/neo4j/<version>/lib      jars from `mvn dependency:copy-dependencies` on tools/neo4j/pom.xml
 *   .cache/neo4j/<version>/classes  Launcher.class, compiled against lib
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Neo4jConnection } from './driver.js';

export const NEO4J_VERSION = '5.26.30';

const READY_LINE = /^THREADLINE_NEO4J_READY (bolt:\/\/\S+) version=(\S+)$/;
const LAUNCHER_FAILURE = '[launcher] Neo4j failed to start: ';
const PASSWORD_ENV = 'THREADLINE_NEO4J_PASSWORD';
const INSTALL_MARKER = '.threadline-install.json';
const MIN_JAVA_MAJOR = 17;
const STOP_TIMEOUT_MS = 30_000;
const OUTPUT_TAIL_LINES = 40;
const DEBUG_LOG_TAIL_LINES = 20;

const JVM_FLAGS = [
  // Neo4j reaches into JDK internals (DirectByteBuffer, file channels); without these Java 17 refuses.
  '--add-opens',
  'java.base/java.nio=ALL-UNNAMED',
  '--add-opens',
  'java.base/java.io=ALL-UNNAMED',
  '--add-opens',
  'java.base/sun.nio.ch=ALL-UNNAMED',
  '--enable-native-access=ALL-UNNAMED',
  '-XX:+ExitOnOutOfMemoryError',
];

const JDK_HINT = `Install a Java ${MIN_JAVA_MAJOR}+ JDK (for example: apt-get install openjdk-17-jdk-headless, or brew install openjdk@17) and make sure java and javac are on PATH.`;
const TOOL_HINTS: Record<string, string> = {
  java: JDK_HINT,
  javac: JDK_HINT,
  mvn: 'Install Apache Maven (for example: apt-get install maven, or brew install maven) and make sure mvn is on PATH.',
};

interface InstallPaths {
  pom: string;
  launcherSource: string;
  libDir: string;
  classesDir: string;
}

function findProjectRoot(): string {
  // Runs from src/graph (tsx, vitest) and from dist/src/graph (compiled). Requiring tools/neo4j as well as
  // package.json skips any package.json that a build may have copied into dist/.
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'tools', 'neo4j', 'pom.xml'))) {
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(`Cannot find the project root (package.json with tools/neo4j/pom.xml) above ${fileURLToPath(import.meta.url)}`);
    }
    dir = parent;
  }
}

function installPaths(): InstallPaths {
  const root = findProjectRoot();
  const versionDir = path.join(root, '.cache', 'neo4j', NEO4J_VERSION);
  return {
    pom: path.join(root, 'tools', 'neo4j', 'pom.xml'),
    launcherSource: path.join(root, 'tools', 'neo4j', 'Launcher.java'),
    libDir: path.join(versionDir, 'lib'),
    classesDir: path.join(versionDir, 'classes'),
  };
}

/**
 * Makes sure the Neo4j jars and the compiled launcher are in .cache/neo4j/<version>; does nothing when they are
 * already complete and up to date. Safe to run from several processes at once: everything is built in a private
 * temporary directory and renamed into place.
 */
export async function ensureLocalNeo4jInstalled(opts: { log?: (msg: string) => void } = {}): Promise<{ libDir: string; classesDir: string }> {
  const log = opts.log ?? (() => {});
  const paths = installPaths();

  const pomText = await readFile(paths.pom, 'utf8');
  const pomVersion = /<neo4j\.version>\s*([^<\s]+)\s*<\/neo4j\.version>/.exec(pomText)?.[1];
  if (pomVersion !== NEO4J_VERSION) {
    throw new Error(`${paths.pom} has neo4j.version ${pomVersion ?? '(missing)'} but src/graph/localNeo4j.ts expects ${NEO4J_VERSION}; keep them in sync.`);
  }
  const pomSha256 = createHash('sha256').update(pomText).digest('hex');

  if (!(await libIsComplete(paths.libDir, pomSha256))) {
    await fetchJars(paths, pomSha256, log);
  }
  if (!(await launcherIsCompiled(paths))) {
    await compileLauncher(paths, log);
  }
  return { libDir: paths.libDir, classesDir: paths.classesDir };
}

async function libIsComplete(libDir: string, pomSha256: string): Promise<boolean> {
  try {
    const marker = JSON.parse(await readFile(path.join(libDir, INSTALL_MARKER), 'utf8')) as { pomSha256?: unknown };
    return marker.pomSha256 === pomSha256;
  } catch {
    return false;
  }
}

/** Compiled after the last change to Launcher.java and to the jars it was compiled against. */
async function launcherIsCompiled(paths: InstallPaths): Promise<boolean> {
  const [compiled, source, lib] = await Promise.all([
    mtimeMs(path.join(paths.classesDir, 'Launcher.class')),
    mtimeMs(paths.launcherSource),
    mtimeMs(path.join(paths.libDir, INSTALL_MARKER)),
  ]);
  return compiled !== undefined && source !== undefined && lib !== undefined && compiled > source && compiled > lib;
}

async function mtimeMs(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mtimeMs;
  } catch {
    return undefined;
  }
}

async function fetchJars(paths: InstallPaths, pomSha256: string, log: (msg: string) => void): Promise<void> {
  log(`Fetching Neo4j ${NEO4J_VERSION} jars with Maven into ${paths.libDir} ...`);
  const started = Date.now();
  const tmp = temporarySibling(paths.libDir);
  await mkdir(path.dirname(tmp), { recursive: true });
  try {
    await run('mvn', ['-q', '-B', '-f', paths.pom, 'dependency:copy-dependencies', `-DoutputDirectory=${tmp}`]);
    // The marker is written last, so a lib directory that has one is complete.
    await writeFile(path.join(tmp, INSTALL_MARKER), JSON.stringify({ version: NEO4J_VERSION, pomSha256 }) + '\n');
    // Another process may have finished the same work meanwhile; then its result stays.
    if (!(await libIsComplete(paths.libDir, pomSha256))) {
      await replaceDirectory(tmp, paths.libDir);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  log(`Fetched Neo4j jars in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function compileLauncher(paths: InstallPaths, log: (msg: string) => void): Promise<void> {
  log(`Compiling ${paths.launcherSource} ...`);
  await checkJdk();
  const tmp = temporarySibling(paths.classesDir);
  await mkdir(tmp, { recursive: true });
  try {
    // Output is only shown on failure: javac always warns that sun.misc.Signal (used by Launcher) is internal API.
    await run('javac', ['--release', String(MIN_JAVA_MAJOR), '-d', tmp, '-cp', path.join(paths.libDir, '*'), paths.launcherSource]);
    if (!(await launcherIsCompiled(paths))) {
      await replaceDirectory(tmp, paths.classesDir);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

async function checkJdk(): Promise<void> {
  for (const tool of ['java', 'javac']) {
    // `java -version` prints e.g. 'openjdk version "17.0.15" 2025-04-15'; `javac -version` prints 'javac 17.0.15'.
    const { output } = await run(tool, ['-version']);
    const major = Number(/(?:version "|javac )(\d+)/.exec(output)?.[1]);
    if (!(major >= MIN_JAVA_MAJOR)) {
      throw new Error(`Neo4j ${NEO4J_VERSION} needs Java ${MIN_JAVA_MAJOR} or newer, but \`${tool} -version\` reports: ${output.trim()}. ${JDK_HINT}`);
    }
  }
}

function temporarySibling(dir: string): string {
  return `${dir}.tmp-${process.pid}-${Date.now()}`;
}

/** Moves `from` to `to`, replacing whatever is there. If another process got there first, its result wins. */
async function replaceDirectory(from: string, to: string): Promise<void> {
  if (existsSync(to)) {
    const old = temporarySibling(to) + '-old';
    await rename(to, old).catch(() => {});
    await rm(old, { recursive: true, force: true });
  }
  try {
    await rename(from, to);
  } catch (error) {
    if (!existsSync(to)) {
      throw error;
    }
  }
}

/** Runs a tool to completion, resolving with its combined output; rejects with that output if it fails. */
function run(command: string, args: string[]): Promise<{ output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'ENOENT' ? new Error(`\`${command}\` was not found on PATH. ${TOOL_HINTS[command] ?? ''}`.trim()) : error);
    });
    child.on('close', (code, signal) => {
      if (code === 0) {
        resolve({ output });
      } else {
        reject(new Error(`\`${command} ${args.join(' ')}\` failed (${signal ?? `exit code ${code}`}):\n${lastLines(output, OUTPUT_TAIL_LINES)}`));
      }
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
  /** Default 120000. */
  startTimeoutMs?: number;
  /** Receives every line the launcher prints (stdout and stderr). */
  log?: (line: string) => void;
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
  const { libDir, classesDir } = await ensureLocalNeo4jInstalled(opts);
  const storeDir = path.resolve(opts.storeDir);
  const startTimeoutMs = opts.startTimeoutMs ?? 120_000;

  const env = { ...process.env };
  delete env[PASSWORD_ENV];
  if (opts.password) {
    // Passed through the environment rather than argv, which any local user can read in the process list.
    env[PASSWORD_ENV] = opts.password;
  }

  const args = [
    ...JVM_FLAGS,
    `-Xmx${opts.heap ?? '512m'}`,
    '-cp',
    [classesDir, path.join(libDir, '*')].join(path.delimiter),
    'Launcher',
    '--store-dir',
    storeDir,
    '--port',
    String(opts.port ?? 0),
    '--page-cache',
    opts.pageCache ?? '256m',
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
    const match = fromStdout ? READY_LINE.exec(line) : null;
    if (match) {
      onReady?.(match);
    }
  };
  // Both streams are read for the life of the process so that it never blocks on a full pipe.
  createInterface({ input: child.stdout }).on('line', (line) => collect(line, true));
  createInterface({ input: child.stderr }).on('line', (line) => collect(line, false));

  const failure = async (reason: string): Promise<Error> => {
    const cause = [...output].reverse().find((line) => line.startsWith(LAUNCHER_FAILURE))?.slice(LAUNCHER_FAILURE.length);
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
    const timer = setTimeout(() => resolve(new Error(`did not become ready within ${startTimeoutMs} ms`)), startTimeoutMs);
    const settle = (value: RegExpExecArray | Error) => {
      clearTimeout(timer);
      resolve(value);
    };
    onReady = settle;
    child.once('error', (error: NodeJS.ErrnoException) =>
      settle(new Error(error.code === 'ENOENT' ? `could not start: \`java\` was not found on PATH. ${JDK_HINT}` : `could not start: ${error.message}`)),
    );
    child.once('close', (code, signal) => settle(new Error(`exited before it was ready (${signal ?? `exit code ${code}`})`)));
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

  const uri = ready[1]!;
  return {
    uri,
    port: Number(new URL(uri).port),
    version: ready[2]!,
    pid: child.pid!,
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

function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

/**
 * The Neo4j a benchmark or exploration tool uses: the one NEO4J_URI (NEO4J_USER, NEO4J_PASSWORD,
 * NEO4J_DATABASE) names, else a local one on a fresh temporary store that `close` removes again.
 */
export async function neo4jFromEnvOrThrowaway(opts: {
  env: NodeJS.ProcessEnv;
  storePrefix: string;
  heap: string;
  pageCache: string;
  log: (line: string) => void;
}): Promise<{ connection: Neo4jConnection; local: LocalNeo4j | null; close: () => Promise<void> }> {
  const { env } = opts;
  if (env.NEO4J_URI) {
    const connection = { uri: env.NEO4J_URI, user: env.NEO4J_USER ?? 'neo4j', password: env.NEO4J_PASSWORD ?? null, database: env.NEO4J_DATABASE ?? 'neo4j' };
    return { connection, local: null, close: () => Promise.resolve() };
  }
  const storeDir = await mkdtemp(path.join(tmpdir(), opts.storePrefix));
  opts.log(`booting a local Neo4j ${NEO4J_VERSION} in ${storeDir} (heap ${opts.heap}, page cache ${opts.pageCache})`);
  const local = await startLocalNeo4j({ storeDir, heap: opts.heap, pageCache: opts.pageCache });
  return {
    connection: { uri: local.uri, user: 'neo4j', password: null, database: 'neo4j' },
    local,
    close: async () => {
      await local.stop();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}
