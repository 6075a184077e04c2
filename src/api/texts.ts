// Long texts cut to what a client asked for. Characters are Unicode code points, as Neo4j's left() and
// size() count them, so a cut never splits a surrogate pair and a cut made in Neo4j and one made
// here agree.
import { badInput } from '../domain/errors.js';

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** A field's maxChars argument: null (the whole text) or a whole number of characters from 0 up. */
export function maxCharsArgument(value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < 0)
    throw badInput('maxChars', `must be a whole number from 0 up (got ${value})`);
  return value;
}

/** The first `maxChars` characters (code points) of `text`; null: all of it. */
export function firstChars(text: string, maxChars: number | null): string {
  // A text of at most maxChars code units has at most that many code points.
  if (maxChars === null || text.length <= maxChars) return text;
  let end = 0;
  for (let chars = 0; chars < maxChars && end < text.length; chars++) {
    end += isHighSurrogate(text.charCodeAt(end)) && isLowSurrogate(text.charCodeAt(end + 1)) ? 2 : 1;
  }
  return text.slice(0, end);
}

/** The length of `text` in characters (code points). */
export function charLength(text: string): number {
  let pairs = 0;
  for (let index = 0; index < text.length - 1; index++) {
    if (isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1))) {
      pairs++;
      index++;
    }
  }
  return text.length - pairs;
}
