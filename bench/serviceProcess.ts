// A service instance of the benchmarks that run it apart (bench:throughput, bench:answer-size), run as
// the Dockerfile runs it (the build of a source tree, `node dist/src/server/main.js`,
// NODE_ENV=production): this tree, or an older commit's to compare with, in a process of its own, on
// a port of its own, on a given Neo4j, optionally writing a V8 CPU profile when it stops.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Neo4jConnection } from '../src/graph/driver.js';

export interface ServiceProcess {
  url: string;
  pid: number;
  /** SIGTERM and wait for the exit; then the CPU profile, when asked for, is in its directory. */
  stop(): Promise<void>;
  /** The `.cpuprofile` the process wrote, after stop(); null when not profiled. */
  profile(): string | null;
}

/** Builds the service of a source tree (tsc -p tsconfig.build.json, into its dist/). */
export function buildService(root: string): void {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
}

/** CPU time (user + system) a process has used so far, in milliseconds, from /proc; null when /proc does not say. */
export function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command; in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

const READY = /^Threadline GraphQL at (\S+)$/;
const START_TIMEOUT_MS = 120_000;

export async function startServiceProcess(
  root: string,
  neo4j: Neo4jConnection,
  options: { profileDir?: string; env?: Record<string, string> } = {},
): Promise<ServiceProcess> {
  const profiling = options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [];
  const child = spawn(process.execPath, [...profiling, join(root, 'dist/src/server/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      NEO4J_URI: neo4j.uri,
      NEO4J_USER: neo4j.user,
      NEO4J_DATABASE: neo4j.database,
      ...(neo4j.password === null ? {} : { NEO4J_PASSWORD: neo4j.password }),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no service from ${root} within 120 s:\n${output}`)),
      START_TIMEOUT_MS,
    );
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`;
      const ready = READY.exec(line);
      if (!ready) return;
      clearTimeout(timer);
      resolve(ready[1]!);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the service from ${root} exited before it listened:\n${output}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    profile: () => {
      if (!options.profileDir) return null;
      const written = readdirSync(options.profileDir).filter((name) => name.includes(`.${child.pid}.`));
      return written[0] ? join(options.profileDir, written[0]) : null;
    },
  };
}
