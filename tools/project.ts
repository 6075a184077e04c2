// Which project a session, or the user at a prompt, works in: the app thread the tools put its runs in
// (threadline import, watch and handoff) is the one of that project.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * A working directory's project: the nearest folder at or above it holding a `.git`, when that
 * folder is on this machine (a session in a repository's subfolder belongs to the repository);
 * else the directory as recorded (sessions read on another machine keep their folder).
 */
export function projectOf(cwd: string | null): string | null {
  if (cwd === null || cwd.length === 0) return null;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}
