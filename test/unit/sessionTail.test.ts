// `threadline watch` reads a grown session file from where it stopped (tools/sessionTail.ts). Every
// session file of the fixtures is written a few lines at a time, as an agent writes it, and read after
// each write as the watcher reads it: each read takes from the disk only the bytes written since the last
// one, and the turns it reads are the ones a read of the whole file so far gives, to the last field
// (or ones read before), the newest among them.
import { appendFile, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/graph/projectRoot.js';
import { parseSession, type ParsedSession } from '../../src/sessions/index.js';
import { nextTail, readTail, type FileTail } from '../../tools/sessionTail.js';

const fixtures = join(projectRoot(), 'test', 'fixtures', 'sessions');
let work: string;
let files: string[];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'threadline-tail-'));
  const entries = await readdir(fixtures, { recursive: true });
  files = entries.filter((entry) => entry.endsWith('.jsonl')).map((entry) => join(fixtures, entry));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Every turn a parse holds, its subagents' included, each with the session it belongs to. */
function turnsOf(parsed: ParsedSession | null): unknown[] {
  if (parsed === null) return [];
  return [parsed, ...parsed.subagents].flatMap((session) =>
    session.runs.map((run) => ({ session: session.sessionId, ...run })),
  );
}

/** The file's lines written `step` at a time to a file of the same name, read after each write. */
async function grow(fixture: string, step: number) {
  const lines = (await readFile(fixture, 'utf8')).split(/(?<=\n)/);
  const file = join(work, `${step}-${basename(fixture)}`);
  await writeFile(file, '');
  let tail: FileTail | undefined;
  let written = '';
  const reads = [];
  for (let at = 0; at < lines.length; at += step) {
    const chunk = lines.slice(at, at + step).join('');
    await appendFile(file, chunk);
    written += chunk;
    const read = await readTail(file, tail);
    const parsed = parseSession(file, read.text);
    const whole = parseSession(file, written.slice(0, written.lastIndexOf('\n') + 1));
    reads.push({ read, chunk, runs: turnsOf(parsed), whole: turnsOf(whole) });
    tail = nextTail(file, read, tail, parsed);
  }
  return { reads, tail: tail! };
}

describe('reading a growing session file from where the last read stopped', () => {
  it('takes only the new bytes from the disk, and reads the same turns as a read of the whole file', async () => {
    expect(files.length).toBeGreaterThan(10);
    for (const fixture of files) {
      for (const step of [1, 4]) {
        const { reads } = await grow(fixture, step);
        const name = `${basename(fixture)} by ${step}`;
        expect(reads[0]!.read.fresh, name).toBe(true);
        const seen = new Set<string>();
        for (const { read, chunk, runs, whole } of reads) {
          expect(read.bytesRead, name).toBe(Buffer.byteLength(chunk));
          // Each turn read is one the whole file holds, or one read before (a rewind or a rollback to
          // before the lines kept can make a turn already recorded look current again; the service
          // knows it and keeps it once).
          const wholeRuns = new Set(whole.map((run) => JSON.stringify(run)));
          for (const run of runs.map((run) => JSON.stringify(run)))
            expect(wholeRuns.has(run) || seen.has(run), `${name}: ${run}`).toBe(true);
          for (const run of runs) seen.add(JSON.stringify(run));
          // The newest turn is read now or was read in this form before.
          if (whole.length > 0) expect(seen.has(JSON.stringify(whole.at(-1))), name).toBe(true);
        }
      }
    }
  }, 60_000);

  it('keeps little: the header and the newest turns, not the whole file', async () => {
    const fixture = files.find((file) => file.includes('01-codex-legacy-exploration'))!;
    const { tail } = await grow(fixture, 1);
    const size = Buffer.byteLength(await readFile(fixture, 'utf8'));
    expect(tail.offset).toBe(size);
    const whole = parseSession(fixture, await readFile(fixture, 'utf8'))!;
    expect(whole.runs.length).toBeGreaterThan(1);
    expect(parseSession(fixture, tail.header + tail.carry)!.runs.length).toBeLessThan(whole.runs.length);
  });

  it('reads a file from its start again when another file took its place, or it was cut shorter', async () => {
    const file = join(work, 'replaced.jsonl');
    const lines = (await readFile(files[0]!, 'utf8')).split(/(?<=\n)/);
    await writeFile(file, lines.join(''));
    const first = await readTail(file, undefined);
    const tail = nextTail(file, first, undefined, parseSession(file, first.text));
    expect((await readTail(file, tail)).bytesRead).toBe(0);
    await writeFile(file, lines.slice(0, 2).join(''));
    expect(await readTail(file, tail)).toMatchObject({ fresh: true, text: lines.slice(0, 2).join('') });
    // The same bytes in another file renamed over it (a new inode): read again from the start.
    await writeFile(file, lines.join(''));
    const same = await readTail(file, tail);
    expect(same.fresh).toBe(false);
    await writeFile(`${file}.new`, lines.join(''));
    await rename(`${file}.new`, file);
    expect(await readTail(file, tail)).toMatchObject({ fresh: true, bytesRead: Buffer.byteLength(lines.join('')) });
  });
});
