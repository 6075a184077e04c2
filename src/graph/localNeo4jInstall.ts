/**
 * The install of the local Neo4j (see localNeo4j.ts): the Neo4j Community jars from Maven Central, the compiled
 * launcher and a class-data-sharing archive of both, under the project root (`.cache/` is gitignored):
 *   .cache/neo4j/<version>/lib           jars from `mvn dependency:copy-dependencies` on tools/neo4j/pom.xml
 *   .cache/neo4j/<version>/launcher.jar  Launcher.class, compiled against lib
 *   .cache/neo4j/<version>/classes.jsa   the classes a start loads, as the JVM stores them after loading them
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { projectRoot } from './projectRoot.js';

export const NEO4J_VERSION = '5.26.30';

const INSTALL_MARKER = '.threadline-install.json';
/** What Maven downloads on a machine whose local Maven repository has none of it: the jars and their poms and plugins. */
const APPROXIMATE_DOWNLOAD_MB = 150;
const PROGRESS_INTERVAL_MS = 10_000;
const MIN_JAVA_MAJOR = 17;
const OUTPUT_TAIL_LINES = 40;

/** What the launcher prints on stdout once Neo4j serves Bolt (tools/neo4j/Launcher.java). */
export const LAUNCHER_READY_LINE = /^THREADLINE_NEO4J_READY (bolt:\/\/\S+) version=(\S+)$/;

/** The JVM flags of every Neo4j process here: the launcher's and neo4j-admin's. */
export const NEO4J_JVM_FLAGS = [
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
/**
 * The JIT and collector for a Neo4j JVM that lives seconds, not minutes: C1 alone and the serial collector, since
 * C2's code and G1's concurrent threads never pay back in that time. The start that builds the class archive runs
 * with them (see buildClassArchive), and so do the test files that start Neo4j processes of their own.
 */
export const SHORT_LIVED_JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];
/** Long enough for a first start on a slow machine; the archive's start is otherwise stopped as failed. */
const ARCHIVE_START_TIMEOUT_MS = 180_000;

export const JDK_HINT = `Install a Java ${MIN_JAVA_MAJOR}+ JDK (for example: apt-get install openjdk-17-jdk-headless, or brew install openjdk@17) and make sure java and javac are on PATH.`;
const TOOL_HINTS: Record<string, string> = {
  java: JDK_HINT,
  javac: JDK_HINT,
  mvn: 'Install Apache Maven (for example: apt-get install maven, or brew install maven) and make sure mvn is on PATH.',
};

interface InstallPaths {
  pom: string;
  launcherSource: string;
  libDir: string;
  launcherJar: string;
  classArchive: string;
}

/** What a JVM needs to run the launcher: its class path, and the archive that spares it loading those classes. */
export interface LocalNeo4jInstall {
  libDir: string;
  /** The launcher's jar, then Neo4j's jars. Class-data sharing refuses a class path with a directory of classes. */
  classPath: string;
  classArchive: string;
}

function installPaths(): InstallPaths {
  const root = projectRoot();
  const versionDir = path.join(root, '.cache', 'neo4j', NEO4J_VERSION);
  return {
    pom: path.join(root, 'tools', 'neo4j', 'pom.xml'),
    launcherSource: path.join(root, 'tools', 'neo4j', 'Launcher.java'),
    libDir: path.join(versionDir, 'lib'),
    launcherJar: path.join(versionDir, 'launcher.jar'),
    classArchive: path.join(versionDir, 'classes.jsa'),
  };
}

/**
 * Makes sure the Neo4j jars, the compiled launcher and the class archive are in .cache/neo4j/<version>; does
 * nothing when they are already complete and up to date. Safe to run from several processes at once: everything is
 * built under a private temporary name and renamed into place.
 */
export async function ensureLocalNeo4jInstalled(
  opts: { progress?: (message: string) => void } = {},
): Promise<LocalNeo4jInstall> {
  const log = opts.progress ?? (() => {});
  const paths = installPaths();

  const pomText = await readFile(paths.pom, 'utf8');
  const pomVersion = /<neo4j\.version>\s*([^<\s]+)\s*<\/neo4j\.version>/.exec(pomText)?.[1];
  if (pomVersion !== NEO4J_VERSION) {
    throw new Error(
      `${paths.pom} has neo4j.version ${pomVersion ?? '(missing)'} but src/graph/localNeo4jInstall.ts expects ${NEO4J_VERSION}; keep them in sync.`,
    );
  }
  const pomSha256 = createHash('sha256').update(pomText).digest('hex');

  if (!(await libIsComplete(paths.libDir, pomSha256))) {
    await fetchJars(paths, pomSha256, log);
  }
  if (!(await launcherIsCompiled(paths))) {
    await compileLauncher(paths, log);
  }
  const classPath = [paths.launcherJar, path.join(paths.libDir, '*')].join(path.delimiter);
  if (!(await isNewer(paths.classArchive, paths.launcherJar))) {
    await buildClassArchive(paths, classPath, log);
  }
  return { libDir: paths.libDir, classPath, classArchive: paths.classArchive };
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
    mtimeMs(paths.launcherJar),
    mtimeMs(paths.launcherSource),
    mtimeMs(path.join(paths.libDir, INSTALL_MARKER)),
  ]);
  return compiled !== undefined && source !== undefined && lib !== undefined && compiled > source && compiled > lib;
}

async function isNewer(file: string, than: string): Promise<boolean> {
  const [built, input] = await Promise.all([mtimeMs(file), mtimeMs(than)]);
  return built !== undefined && input !== undefined && built > input;
}

async function mtimeMs(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mtimeMs;
  } catch {
    return undefined;
  }
}

async function fetchJars(paths: InstallPaths, pomSha256: string, log: (msg: string) => void): Promise<void> {
  const cache = path.relative(process.cwd(), path.dirname(paths.libDir)) || path.dirname(paths.libDir);
  log(
    `Fetching the Neo4j ${NEO4J_VERSION} Community jars with Maven (about ${APPROXIMATE_DOWNLOAD_MB} MB into Maven's local repository when it does not hold them yet, ` +
      `then copied to ${cache}); this happens once, later starts reuse them.`,
  );
  const started = Date.now();
  const downloaded = { files: 0, bytes: 0 };
  const seconds = () => ((Date.now() - started) / 1000).toFixed(0);
  const ticker = setInterval(
    () =>
      log(
        `Maven still fetching: ${downloaded.files} files, ${megabytes(downloaded.bytes)} MB downloaded so far (${seconds()} s)`,
      ),
    PROGRESS_INTERVAL_MS,
  );
  const tmp = temporarySibling(paths.libDir);
  await mkdir(path.dirname(tmp), { recursive: true });
  try {
    // Batch mode without -q: Maven prints one "Downloaded from" line per file, which the progress lines count.
    await run('mvn', ['-B', '-f', paths.pom, 'dependency:copy-dependencies', `-DoutputDirectory=${tmp}`], (line) => {
      const bytes = mavenDownloadedBytes(line);
      if (bytes !== null) {
        downloaded.files++;
        downloaded.bytes += bytes;
      }
    });
    // The marker is written last, so a lib directory that has one is complete.
    await writeFile(path.join(tmp, INSTALL_MARKER), JSON.stringify({ version: NEO4J_VERSION, pomSha256 }) + '\n');
    // Another process may have finished the same work meanwhile; then its result stays.
    if (!(await libIsComplete(paths.libDir, pomSha256))) {
      await replaceDirectory(tmp, paths.libDir);
    }
  } finally {
    clearInterval(ticker);
    await rm(tmp, { recursive: true, force: true });
  }
  log(
    `Fetched the Neo4j jars in ${((Date.now() - started) / 1000).toFixed(1)} s (${downloaded.files} files, ${megabytes(downloaded.bytes)} MB downloaded)`,
  );
}

/** The size of the file a Maven "Downloaded from <repo>: <url> (<size> at <speed>)" line reports, in bytes; null for any other line. */
export function mavenDownloadedBytes(line: string): number | null {
  const match = /Downloaded from [^:]+: \S+ \(([\d.]+) (B|kB|KB|MB|GB)\b/.exec(line);
  if (!match) return null;
  const unit = { B: 1, kB: 1e3, KB: 1e3, MB: 1e6, GB: 1e9 }[match[2] as 'B' | 'kB' | 'KB' | 'MB' | 'GB'];
  return Math.round(Number(match[1]) * unit);
}

function megabytes(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

async function compileLauncher(paths: InstallPaths, log: (msg: string) => void): Promise<void> {
  log(
    `Compiling the launcher ${path.relative(process.cwd(), paths.launcherSource) || paths.launcherSource} (once) ...`,
  );
  const started = Date.now();
  await checkJdk();
  const tmp = temporarySibling(paths.launcherJar);
  await mkdir(tmp, { recursive: true });
  try {
    // Output is only shown on failure: javac always warns that sun.misc.Signal (used by Launcher) is internal API.
    await run('javac', [
      '--release',
      String(MIN_JAVA_MAJOR),
      '-d',
      tmp,
      '-cp',
      path.join(paths.libDir, '*'),
      paths.launcherSource,
    ]);
    const jar = `${tmp}.jar`;
    await run('jar', ['--create', '--file', jar, '-C', tmp, '.']);
    if (!(await launcherIsCompiled(paths))) {
      await rename(jar, paths.launcherJar);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
    await rm(`${tmp}.jar`, { force: true });
  }
  log(`Compiled the launcher in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Starts Neo4j once on a throwaway store and stops it, with the JVM told to store every class it loaded in
 * `classes.jsa` at exit. Later starts map that archive instead of loading and verifying about 10,000 classes: on
 * 2 cores a start took 4.3 s instead of 6.3 s, and 5.7 instead of 8.1 CPU seconds.
 *
 * This one start compiles with C1 alone and collects with the serial collector (SHORT_LIVED_JVM_FLAGS): it is over in
 * seconds, too soon for C2 or G1's concurrent threads to pay back. The archive holds classes only, so a JVM with
 * both tiers and G1 maps it all the same (-Xshare:on). Measured on 2 cores, with the jars and the launcher in place,
 * the install took 17.2-17.4 s and 18.6-18.7 CPU seconds instead of 19.0-19.8 s and 27.4.
 */
async function buildClassArchive(paths: InstallPaths, classPath: string, log: (msg: string) => void): Promise<void> {
  log('Starting Neo4j once to archive the classes it loads (once) ...');
  const started = Date.now();
  const archive = temporarySibling(paths.classArchive);
  const store = `${archive}-store`;
  try {
    await runUntilReady('java', [
      ...NEO4J_JVM_FLAGS,
      ...SHORT_LIVED_JVM_FLAGS,
      `-XX:ArchiveClassesAtExit=${archive}`,
      '-cp',
      classPath,
      'Launcher',
      '--store-dir',
      store,
      '--port',
      '0',
    ]);
    if (!(await isNewer(paths.classArchive, paths.launcherJar))) {
      await rename(archive, paths.classArchive);
    }
  } finally {
    await rm(store, { recursive: true, force: true });
    await rm(archive, { force: true });
  }
  log(`Archived the classes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function checkJdk(): Promise<void> {
  for (const tool of ['java', 'javac']) {
    // `java -version` prints e.g. 'openjdk version "17.0.15" 2025-04-15'; `javac -version` prints 'javac 17.0.15'.
    const { output } = await run(tool, ['-version']);
    const major = Number(/(?:version "|javac )(\d+)/.exec(output)?.[1]);
    if (!(major >= MIN_JAVA_MAJOR)) {
      throw new Error(
        `Neo4j ${NEO4J_VERSION} needs Java ${MIN_JAVA_MAJOR} or newer, but \`${tool} -version\` reports: ${output.trim()}. ${JDK_HINT}`,
      );
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

/**
 * Runs the launcher until it prints its ready line, then closes its stdin, which stops Neo4j cleanly and exits the
 * JVM with status 0. Rejects with the end of its output when it exits otherwise or is not ready in time.
 */
function runUntilReady(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.on('error', () => {});
    let output = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), ARCHIVE_START_TIMEOUT_MS);
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += line + '\n';
      if (LAUNCHER_READY_LINE.test(line)) child.stdin.end();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `Neo4j's class archive was not built (${signal ?? `exit code ${code}`}):\n${lastLines(output, OUTPUT_TAIL_LINES)}`,
          ),
        );
    });
  });
}

/**
 * Runs a tool to completion, resolving with its combined output; rejects with that output if it fails.
 * `onLine` sees each line of its standard output as it comes.
 */
function run(command: string, args: string[], onLine?: (line: string) => void): Promise<{ output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    if (onLine) createInterface({ input: child.stdout }).on('line', onLine);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error(`\`${command}\` was not found on PATH. ${TOOL_HINTS[command] ?? ''}`.trim())
          : error,
      );
    });
    child.on('close', (code, signal) => {
      if (code === 0) {
        resolve({ output });
      } else {
        reject(
          new Error(
            `\`${command} ${args.join(' ')}\` failed (${signal ?? `exit code ${code}`}):\n${lastLines(output, OUTPUT_TAIL_LINES)}`,
          ),
        );
      }
    });
  });
}

export function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}
