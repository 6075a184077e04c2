import { badInput } from '../domain/errors.js';

// Cursors are opaque to clients: base64url of a small JSON position.

export function encodeCursor(position: unknown): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

export function decodeCursor<T>(
  field: string,
  cursor: string | null | undefined,
  isValid: (value: unknown) => value is T,
): T | null {
  if (cursor === null || cursor === undefined) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (isValid(value)) return value;
  } catch {
    // fall through to the refusal below
  }
  throw badInput(field, 'invalid cursor; pass an endCursor or cursor this API returned');
}
