// Reading JSON Lines and untyped JSON values: session files are written by other programs, so every
// field is checked before use.
import type { Sliced } from './slices.js';
import type { SessionProblem } from './types.js';

export type JsonObject = Record<string, unknown>;

export interface JsonLine {
  /** 1-based line of the file. */
  line: number;
  value: JsonObject;
}

/**
 * The file's JSON objects, a slice per line; a line that is not one is reported (without its content)
 * and skipped.
 */
export function* readJsonLines(text: string): Sliced<{ lines: JsonLine[]; problems: SessionProblem[] }> {
  const lines: JsonLine[] = [];
  const problems: SessionProblem[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    if (raw.trim().length === 0) continue;
    const line = index + 1;
    const value = parseJson(raw);
    if (value === undefined) problems.push({ line, reason: 'not valid JSON' });
    else if (asObject(value) === null) problems.push({ line, reason: 'not a JSON object' });
    else lines.push({ line, value: value as JsonObject });
    yield;
  }
  return { lines, problems };
}

/** The parsed value, or undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function asObject(value: unknown): JsonObject | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

export function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asInteger(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/**
 * The texts of a list of content blocks (`{type, text}`), in order; only blocks of `type` when named.
 * Both providers write message and tool-result content so.
 */
export function blockTexts(blocks: unknown, type?: string): string[] {
  return asArray(blocks)
    .map((block) => asObject(block))
    .filter((block) => block !== null && (type === undefined || block.type === type))
    .map((block) => asString(block?.text))
    .filter((text): text is string => text !== null);
}
