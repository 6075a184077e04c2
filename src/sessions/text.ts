// String handling shared by the adapters: every string an adapter returns passes through clip.
import { redactSecrets } from './redact.js';
import { SESSION_LIMITS } from './types.js';

// Terminal escapes go first: removing only their control byte would leave "[31m" noise behind.
const ANSI_ESCAPES = /\u001B\[[0-9;?]*[ -/]*[@-~]|\u001B\][^\u0007\u001B]*(?:\u0007|\u001B\\)/g;
// The service refuses control characters other than tab, newline and carriage return.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
const ELLIPSIS = '…';

/** Terminal escapes and control characters removed, secrets left in: for text read, never returned. */
export function withoutTerminalCodes(value: string): string {
  return value.replace(ANSI_ESCAPES, '').replace(CONTROL_CHARACTERS, '').toWellFormed();
}

/** Terminal escapes and control characters removed, secrets redacted; not bounded. */
export function cleanText(value: string): string {
  return redactSecrets(withoutTerminalCodes(value));
}

/** Cleaned, redacted and at most `max` characters long (the head is kept). */
export function clip(value: string, max: number): string {
  const safe = cleanText(value);
  return safe.length <= max ? safe : `${safe.slice(0, max - 1).toWellFormed()}${ELLIPSIS}`;
}

/** Like clip, but null for a missing or blank value. */
export function clipOrNull(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
  const clipped = clip(value, max).trim();
  return clipped.length === 0 ? null : clipped;
}

/** The end of a tool's output, where errors and summaries are printed, as a short redacted excerpt. */
export function tailExcerpt(output: string, max: number = SESSION_LIMITS.excerpt): string {
  const safe = cleanText(output).trim();
  return safe.length <= max ? safe : `${ELLIPSIS}${safe.slice(safe.length - max + 1).toWellFormed()}`;
}

/** Lines of a file's content: a final newline does not start another line. */
export function lineCount(content: string): number {
  if (content.length === 0) return 0;
  const newlines = content.split('\n').length - 1;
  return content.endsWith('\n') ? newlines : newlines + 1;
}

/** An ISO 8601 timestamp, or null when the value is not a date. */
export function isoTimestamp(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > SESSION_LIMITS.timestamp) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

export function baseName(fileName: string): string {
  return fileName.split(/[/\\]/).at(-1) ?? fileName;
}

/** A path relative to cwd when it lies under cwd; other paths are returned as given. */
export function relativePath(path: string, cwd: string | null): string {
  if (cwd === null || cwd.length === 0) return path;
  const root = cwd.endsWith('/') ? cwd : `${cwd}/`;
  return path.startsWith(root) ? path.slice(root.length) : path;
}
