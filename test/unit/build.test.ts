// tools/build.ts: `threadline start` compiles only when a source is newer than the last build's stamp.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIsFresh } from '../../tools/build.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'threadline-build-'));
  await mkdir(join(root, 'src', 'server'), { recursive: true });
  await mkdir(join(root, 'dist'));
  for (const file of ['src/server/main.ts', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'])
    await touch(file, 1_000);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function touch(file: string, seconds: number): Promise<void> {
  await writeFile(join(root, file), '');
  await utimes(join(root, file), seconds, seconds);
}

describe('buildIsFresh', () => {
  it('is false without a stamp, true when nothing is newer than it, false again once a source changes', async () => {
    await utimes(join(root, 'src', 'server'), 1_000, 1_000);
    await utimes(join(root, 'src'), 1_000, 1_000);
    expect(buildIsFresh(root)).toBe(false);
    await touch('dist/.build-stamp', 2_000);
    expect(buildIsFresh(root)).toBe(true);
    await touch('src/server/main.ts', 3_000);
    expect(buildIsFresh(root)).toBe(false);
  });

  it('counts a changed compiler setting or lockfile, and a removed source (its folder changes)', async () => {
    await utimes(join(root, 'src', 'server'), 1_000, 1_000);
    await utimes(join(root, 'src'), 1_000, 1_000);
    await touch('dist/.build-stamp', 2_000);
    await touch('package-lock.json', 3_000);
    expect(buildIsFresh(root)).toBe(false);
    await touch('package-lock.json', 1_000);
    await utimes(join(root, 'src', 'server'), 3_000, 3_000);
    expect(buildIsFresh(root)).toBe(false);
  });
});
