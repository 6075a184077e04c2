import { badInput } from '../domain/errors.js';

// Input limits, named by field in every refusal. The SDL documents the same numbers.
export const LIMITS = {
  id: 200,
  title: 500,
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
} as const;

// Control characters other than tab, newline and carriage return have no place in stored text.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export function requiredText(field: string, value: string, max: number): string {
  if (value.trim().length === 0) throw badInput(field, 'must not be empty');
  return optionalText(field, value, max)!;
}

export function optionalText(field: string, value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
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
