/**
 * The install of the local Neo4j (see localNeo4j.ts): the Neo4j Community jars from Maven Central and the compiled
 * launcher, under the project root (`.cache/` is gitignored):
 *   .cache/neo4j/<version>/lib      jars from `mvn dependency:copy-dependencies` on tools/neo4j/pom.xml
 *   .cache/neo4j/<version>/classes  Launcher.class, compiled against lib
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
  classesDir: string;
}

function installPaths(): InstallPaths {
  const root = projectRoot();
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
export async function ensureLocalNeo4jInstalled(
  opts: { progress?: (message: string) => void } = {},
): Promise<{ libDir: string; classesDir: string }> {
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
  const tmp = temporarySibling(paths.classesDir);
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
    if (!(await launcherIsCompiled(paths))) {
      await replaceDirectory(tmp, paths.classesDir);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  log(`Compiled the launcher in ${((Date.now() - started) / 1000).toFixed(1)} s`);
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
