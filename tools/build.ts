// `threadline start` compiles the service only when its sources changed since the last build: a
// start on a busy machine otherwise spends tens of seconds re-checking TypeScript that is already
// compiled. The build leaves a stamp; any source, config or lockfile newer than it means a rebuild.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../src/graph/projectRoot.js';

const STAMP = 'dist/.build-stamp';
// What `npm run build` reads: the service's and the viewer's sources and their compiler settings.
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newestChange(path: string): number {
  const info = statSync(path, { throwIfNoEntry: false });
  if (info === undefined) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs; // a file removed changes its folder
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

/** Whether dist/ holds a build of the current sources. */
export function buildIsFresh(root = projectRoot()): boolean {
  const stamp = statSync(join(root, STAMP), { throwIfNoEntry: false });
  if (stamp === undefined) return false;
  return INPUTS.every((input) => newestChange(join(root, input)) <= stamp.mtimeMs);
}

/** Builds the service and the viewer when they are not fresh; says which on stderr. */
export function ensureBuilt(say: (line: string) => void): void {
  const root = projectRoot();
  if (buildIsFresh(root)) return;
  say('Compiling the TypeScript (sources changed since the last build)...');
  // Stamped with the build's start: a source saved while it compiles is newer, and builds next time.
  const started = new Date();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  for (const project of ['tsconfig.build.json', 'src/viewer/tsconfig.json'])
    execFileSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  writeFileSync(join(root, STAMP), `${started.toISOString()}\n`);
  utimesSync(join(root, STAMP), started, started);
}
