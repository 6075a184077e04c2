/**
 * What `threadline watch` keeps of each session file it follows, so that a file that grew is read only
 * from where the last read stopped: the file's identity (device and inode), the byte offset read up to
 * (the end of its last complete line), its header (the lines before its first turn: a Codex
 * session_meta, Claude titles) and the carry, the lines of its newest turns. The adapters read a turn
 * with what came before it in the file (the session's id and folder, the turn's own context record,
 * the plan the previous turn left), so a grown file is read as header + carry + the new complete lines.
 * Kept in a JSON file of the store, so that a restart resumes where it stopped. A file of another
 * identity under the same path (rotated, replaced) or shorter than the offset (truncated) is read again
 * from its start.
 */
import { constants } from 'node:fs';
import { mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseSession, type ParsedSession } from '../src/sessions/index.js';

export interface FileTail {
  dev: number;
  ino: number;
  /** Bytes of the file read: up to the end of its last complete line. */
  offset: number;
  header: string;
  carry: string;
}

/** One read of a file: the text to parse, and what it took from the disk. */
export interface TailRead {
  text: string;
  /** Bytes read from the file this time: what it grew by since the last read (and a partial last line again). */
  bytesRead: number;
  /** Read from the file's start: no tail was known, or the file is not the one it was. */
  fresh: boolean;
  identity: { dev: number; ino: number };
  /** The offset after this read. */
  end: number;
}

/** Reads what the file holds beyond `known` (all of it when `known` no longer describes it). */
export async function readTail(file: string, known: FileTail | undefined): Promise<TailRead> {
  // Opened without blocking and checked once open: a path that became a FIFO is refused, never waited on.
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error('not a regular file: not read');
    const fresh = known === undefined || known.dev !== info.dev || known.ino !== info.ino || info.size < known.offset;
    const start = fresh ? 0 : known.offset;
    const bytes = Buffer.alloc(info.size - start);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    // A file being written ends at its last complete line: the rest is not written yet.
    const complete = bytes.subarray(0, bytes.subarray(0, filled).lastIndexOf(0x0a) + 1);
    const text = complete.toString('utf8');
    return {
      text: fresh ? text : known.header + known.carry + text,
      bytesRead: filled,
      fresh,
      identity: { dev: info.dev, ino: info.ino },
      end: start + complete.length,
    };
  } finally {
    await handle.close();
  }
}

/** How far back from a turn's opening record its own context records may lie (Codex turn_context). */
const CONTEXT_LINES = 3;
/** How many turns back a carry may start: the previous turns whose state the newest turn reads. */
const TURNS_BACK = 4;

/**
 * The tail after a read of `read.text`, parsed as `parsed`. The carry starts at the latest cut from
 * which header + carry reads its turns exactly as the whole text does (checked by reading it so), near
 * the opening of one of the last few turns; when none does, it holds every turn.
 */
export function nextTail(
  file: string,
  read: TailRead,
  known: FileTail | undefined,
  parsed: ParsedSession | null,
): FileTail {
  const lines = read.text.split(/(?<=\n)/);
  const base = { ...read.identity, offset: read.end };
  if (parsed === null || parsed.runs.length === 0) return { ...base, header: read.text, carry: '' };
  const header = read.fresh || known === undefined ? lines.slice(0, parsed.runLines[0]! - 1).join('') : known.header;
  const headerLines = header.split(/(?<=\n)/).filter((line) => line.length > 0).length;
  const { runLines, runs } = parsed;
  for (let turn = runLines.length - 1; turn >= Math.max(0, runLines.length - TURNS_BACK); turn--) {
    const floor = turn === 0 ? headerLines : runLines[turn - 1]!;
    for (let back = 0; back <= CONTEXT_LINES; back++) {
      const cut = runLines[turn]! - 1 - back;
      if (cut < floor) break;
      const carry = lines.slice(cut).join('');
      const again = parseSession(file, header + carry)?.runs ?? [];
      if (again.length > 0 && JSON.stringify(again) === JSON.stringify(runs.slice(-again.length)))
        return { ...base, header, carry };
    }
  }
  return { ...base, header, carry: lines.slice(headerLines).join('') };
}

/** The tails of the files followed, kept in one JSON file. */
export class TailStore {
  private constructor(
    private readonly path: string,
    private readonly tails: Map<string, FileTail>,
  ) {}

  static async open(path: string): Promise<TailStore> {
    const text = await readFile(path, 'utf8').catch(() => null);
    const saved = text === null ? {} : (JSON.parse(text) as Record<string, FileTail>);
    return new TailStore(path, new Map(Object.entries(saved)));
  }

  get(file: string): FileTail | undefined {
    return this.tails.get(file);
  }

  async set(file: string, tail: FileTail): Promise<void> {
    this.tails.set(file, tail);
    await this.save();
  }

  async forget(file: string): Promise<void> {
    if (this.tails.delete(file)) await this.save();
  }

  /** Written whole to a temporary file, then renamed over the old one: a crash leaves one or the other. */
  private async save(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(Object.fromEntries(this.tails)));
    await rename(temporary, this.path);
  }
}
