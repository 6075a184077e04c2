import { badInput } from '../domain/errors.js';
import type { FileChangeKind, FileChangeRecord, NewRunFact, OrdinalRange, RunFactKind } from '../domain/records.js';

// Input limits, named by field in every refusal. The SDL documents the same numbers.
export const LIMITS = {
  id: 200,
  title: 500,
  project: 4_000,
  label: 200,
  userMessage: 100_000,
  assistantMessage: 100_000,
  error: 20_000,
  factText: 20_000,
  facts: 500,
  ref: 500,
  diffSummary: 20_000,
  files: 2_000,
  path: 4_000,
  rawEventLines: 2_000,
  rawEventLine: 100_000,
} as const;

// Control characters other than tab, newline and carriage return have no place in stored text.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function requiredText(field: string, value: string, max: number): string {
  if (value.trim().length === 0) throw badInput(field, 'must not be empty');
  return checkedText(field, value, max);
}

/** A dispatch's fencing token as the caller echoed it; its meaning is checked by src/domain/fencing.ts. */
export function fencingTokenOf(input: { fencingToken?: string | null }): string | null {
  return optionalText('fencingToken', input.fencingToken, LIMITS.id + 20);
}

export function optionalText(field: string, value: string | null | undefined, max: number): string | null {
  return value === null || value === undefined ? null : checkedText(field, value, max);
}

function checkedText(field: string, value: string, max: number): string {
  if (value.length > max) throw badInput(field, `must be at most ${max} characters (got ${value.length})`);
  if (CONTROL_CHARACTERS.test(value)) throw badInput(field, 'must not contain control characters');
  if (!value.isWellFormed()) throw badInput(field, 'must be well-formed Unicode');
  return value;
}

export function listOf<T>(field: string, value: readonly T[] | null | undefined, max: number): readonly T[] {
  if (!value) return [];
  if (value.length > max) throw badInput(field, `must have at most ${max} items (got ${value.length})`);
  return value;
}

export function clamp(value: number | null | undefined, fallback: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.trunc(value ?? fallback)));
}

export function nonNegativeInt(field: string, value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < 0) throw badInput(field, 'must be a non-negative integer');
  return value;
}

export interface FileChangeInput {
  path: string;
  change: FileChangeKind;
  additions?: number | null;
  deletions?: number | null;
  previousPath?: string | null;
}

export function fileChangeOf(field: string, file: FileChangeInput): FileChangeRecord {
  const previousPath = optionalText(`${field}.previousPath`, file.previousPath, LIMITS.path);
  if (previousPath !== null && file.change !== 'renamed')
    throw badInput(`${field}.previousPath`, 'only a RENAMED change has a previous path');
  return {
    path: requiredText(`${field}.path`, file.path, LIMITS.path),
    change: file.change,
    additions: nonNegativeInt(`${field}.additions`, file.additions),
    deletions: nonNegativeInt(`${field}.deletions`, file.deletions),
    previousPath,
  };
}

export interface FactInput {
  kind: RunFactKind;
  text: string;
  key?: string | null;
  status?: string | null;
  file?: FileChangeInput | null;
}

/**
 * A run's facts, at most LIMITS.facts, each checked like any other text. A FILE_CHANGE fact's typed
 * `file` also fills what older clients read: key (the path) and status (the change), unless given.
 */
export function factsOf(field: string, facts: readonly FactInput[] | null | undefined): NewRunFact[] {
  return listOf(field, facts, LIMITS.facts).map((fact, index) => {
    const at = `${field}[${index}]`;
    if (fact.file && fact.kind !== 'file_change')
      throw badInput(`${at}.file`, 'only a FILE_CHANGE fact carries a file');
    const file = fact.file ? fileChangeOf(`${at}.file`, fact.file) : null;
    return {
      kind: fact.kind,
      text: requiredText(`${at}.text`, fact.text, LIMITS.factText),
      key: optionalText(`${at}.key`, fact.key, LIMITS.label) ?? (file && file.path.slice(0, LIMITS.label)),
      status: optionalText(`${at}.status`, fact.status, LIMITS.label) ?? file?.change ?? null,
      file,
    };
  });
}

// The DateTime scalar passes any JSON value through: a date-time is checked here, with its offset.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** A value as a refusal shows it: a string's start, a scalar, or only the kind of a list or object (which may nest without bound). */
function shownValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 100));
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}

/** An ISO-8601 date-time with an offset, as UTC with milliseconds (so that two compare as strings). */
export function dateTime(field: string, value: unknown): string {
  const time = typeof value === 'string' && ISO_DATE_TIME.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(time))
    throw badInput(
      field,
      `must be an ISO-8601 date-time with an offset, such as 2026-01-31T09:15:00Z (got ${shownValue(value)})`,
    );
  return new Date(time).toISOString();
}

export function optionalDateTime(field: string, value: unknown): string | null {
  return value === null || value === undefined ? null : dateTime(field, value);
}

/** Lines of a JSON Lines file, one record each: a line break inside one would renumber the rest. */
export function jsonLines(field: string, lines: readonly string[]): string[] {
  return listOf(field, lines, LIMITS.rawEventLines).map((line, index) => {
    const checked = requiredText(`${field}[${index}]`, line, LIMITS.rawEventLine);
    if (/[\r\n]/.test(checked)) throw badInput(`${field}[${index}]`, 'must be one line');
    return checked;
  });
}

/** The widest window of ordinals that any field taking fromOrdinal and toOrdinal answers at once. */
const WINDOW_ORDINALS = 1000;

/** Both bounds or neither (without them, the whole thread), from 1 up, spanning at most WINDOW_ORDINALS. */
export function ordinalWindow(
  fromOrdinal: number | null | undefined,
  toOrdinal: number | null | undefined,
): OrdinalRange | null {
  const from = fromOrdinal ?? null;
  const to = toOrdinal ?? null;
  if (from === null && to === null) return null;
  if (from === null) throw badInput('fromOrdinal', 'fromOrdinal and toOrdinal go together');
  if (to === null) throw badInput('toOrdinal', 'fromOrdinal and toOrdinal go together');
  if (from < 1) throw badInput('fromOrdinal', 'must be at least 1');
  if (to < from) throw badInput('toOrdinal', 'must be at least fromOrdinal');
  if (to - from >= WINDOW_ORDINALS) throw badInput('toOrdinal', `a window spans at most ${WINDOW_ORDINALS} ordinals`);
  return { from, to };
}
