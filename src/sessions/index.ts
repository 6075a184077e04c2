// Session import adapters: a provider's own session file (its text and name, no I/O here) read as
// Threadline runs and facts.
import { isClaudeRecord, readClaudeSession } from './claude.js';
import { isCodexRecord, readCodexSession } from './codex.js';
import { asObject, parseJson } from './json.js';
import { completed, type Sliced } from './slices.js';
import type { ParsedSession, SessionFormat } from './types.js';

export * from './types.js';

// Enough to get past the lines that come before the first message (titles, snapshots, metadata).
const LINES_TO_INSPECT = 50;

/**
 * The format of a session file, recognised by its first parseable lines; null for anything else (the
 * caller reports it: a file is never guessed). Both providers write JSON Lines files.
 */
export function detectFormat(fileName: string, text: string): SessionFormat | null {
  if (!fileName.endsWith('.jsonl')) return null;
  for (const line of text.split(/\r?\n/, LINES_TO_INSPECT)) {
    const value = asObject(parseJson(line));
    if (value === null) continue;
    if (isCodexRecord(value)) return 'codex';
    if (isClaudeRecord(value)) return 'claude';
  }
  return null;
}

/**
 * The session a file holds, read by its format's adapter; null when the format is not recognised.
 * `agentMeta`: the text of a Claude Code workflow agent's `agent-<id>.meta.json`, read beside its file.
 */
export function parseSession(fileName: string, text: string, agentMeta?: string): ParsedSession | null {
  return completed(readSession(fileName, text, agentMeta));
}

/** parseSession in slices (src/sessions/slices.ts). */
export function* readSession(fileName: string, text: string, agentMeta?: string): Sliced<ParsedSession | null> {
  const format = detectFormat(fileName, text);
  if (format === 'codex') return yield* readCodexSession(fileName, text);
  return format === 'claude' ? yield* readClaudeSession(fileName, text, agentMeta) : null;
}
