// The bound on one answer's size. Every request gets a budget of THREADLINE_MAX_RESPONSE_BYTES. It
// is spent twice over, on two counters that each stop at the limit:
//  - the answer: each field, as it resolves, adds the bytes it puts into the JSON answer as sent, so
//    that an answer that would pass the limit is refused before it is serialized;
//  - reading: before a batch of long texts (messages, facts) is read from the graph, its characters,
//    which Neo4j counts without sending the texts, are charged, so that a request cannot pull more
//    text into memory than its answer could hold. A character is at least one byte in the answer, so
//    this never refuses an answer that would have fitted.
// Once either counter passes the limit, every later field and read fails at once, and the answer is
// replaced by the one RESPONSE_TOO_LARGE error (src/server/answerLimit.ts).
import {
  Kind,
  type GraphQLLeafType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import { responseTooLarge, type ThreadlineError } from '../domain/errors.js';

/** `{"data":` and its closing `}`, the root object's braces less the comma its last field counts, and Apollo's final newline. */
const ENVELOPE_BYTES = '{"data":'.length + 1 + 1 + '\n'.length;

export class AnswerBudget {
  private answered = ENVELOPE_BYTES;
  private read = 0;
  private refusal: ThreadlineError | null = null;

  constructor(readonly limitBytes: number) {}

  /** The refusal, once the answer or the reading passed the limit. */
  get exceeded(): ThreadlineError | null {
    return this.refusal;
  }

  get answeredBytes(): number {
    return this.answered;
  }

  get readChars(): number {
    return this.read;
  }

  /** Throws the refusal once the limit was passed: nothing more is resolved or read. */
  check(): void {
    if (this.refusal) throw this.refusal;
  }

  /** The answer grew by `bytes`. Never throws (it is called from Apollo's completion callbacks); the next check does. */
  answer(bytes: number): void {
    this.answered += bytes;
    if (this.answered > this.limitBytes) this.refusal ??= responseTooLarge(this.limitBytes);
  }

  /** A read is about to bring in `chars` characters of long text: refused, before it runs, when that passes the limit. */
  reading(chars: number): void {
    this.check();
    this.read += chars;
    if (this.read > this.limitBytes) {
      this.refusal ??= responseTooLarge(this.limitBytes);
      throw this.refusal;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Bytes of JSON

// Characters JSON.stringify escapes (quote, backslash, control characters) and surrogates, which are
// either pairs (4 bytes) or lone (escaped as \uXXXX).
const NEEDS_CARE = /["\\\u0000-\u001f\ud800-\udfff]/;
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/** The bytes of JSON.stringify(text) in UTF-8, without building it. */
export function jsonStringBytes(text: string): number {
  if (!NEEDS_CARE.test(text)) return Buffer.byteLength(text, 'utf8') + 2;
  let bytes = 2;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20) bytes += SHORT_ESCAPES.has(code) ? 2 : 6;
    else if (code === 0x22 || code === 0x5c) bytes += 2;
    else if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else if (code >= 0xd800 && code <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The bytes of JSON.stringify(value) in UTF-8, for a serialized leaf value. */
export function jsonBytes(value: unknown): number {
  if (typeof value === 'string') return jsonStringBytes(value);
  if (value === null || value === undefined) return 4;
  if (typeof value === 'number' || typeof value === 'boolean') return String(JSON.stringify(value)).length;
  return Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8');
}

/**
 * What one resolved field adds to the answer: `"key":` and a comma, and its value. A leaf value is
 * counted whole; an object counts its braces (less the comma its last field counts) and its
 * `__typename` (which Apollo resolves without a resolver), its other fields count themselves as
 * they resolve; a list counts its brackets and commas. Exact for an answer without errors.
 */
export function fieldBytes(info: GraphQLResolveInfo, value: unknown): number {
  let objectBytes: number | undefined;
  const objectOverhead = (typeName: string) => (objectBytes ??= 1 + typenameBytes(info, typeName));
  const valueBytes = (type: GraphQLOutputType, item: unknown): number => {
    if (item === null || item === undefined) return 4;
    const nullable = kindOf(type) === 'GraphQLNonNull' ? (type as { ofType: GraphQLOutputType }).ofType : type;
    const kind = kindOf(nullable);
    if (kind === 'GraphQLList') {
      const items = Array.isArray(item) ? item : Array.from(item as Iterable<unknown>);
      if (items.length === 0) return 2;
      let bytes = 1;
      for (const inner of items) bytes += valueBytes((nullable as { ofType: GraphQLOutputType }).ofType, inner) + 1;
      return bytes;
    }
    if (kind === 'GraphQLScalarType' || kind === 'GraphQLEnumType')
      return jsonBytes((nullable as GraphQLLeafType).serialize(item));
    return objectOverhead(kind === 'GraphQLObjectType' ? (nullable as { name: string }).name : '');
  };
  return String(info.path.key).length + 4 + valueBytes(info.returnType, value);
}

/**
 * A type's class by its toStringTag: graphql-js's isListType and the like test instanceof, which fails
 * when Apollo and this module load different copies of graphql (as under the test runner).
 */
function kindOf(type: GraphQLOutputType): string {
  return (type as unknown as { [Symbol.toStringTag]: string })[Symbol.toStringTag];
}

/** `"__typename":"Type",` for each distinct __typename key selected directly on the field's object. */
function typenameBytes(info: GraphQLResolveInfo, typeName: string): number {
  const keys = new Set<string>();
  const visit = (selectionSet: SelectionSetNode | undefined, seen: Set<string>) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === '__typename') keys.add(selection.alias?.value ?? '__typename');
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet, seen);
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        visit(info.fragments[selection.name.value]?.selectionSet, seen);
      }
    }
  };
  for (const node of info.fieldNodes) visit(node.selectionSet, new Set());
  let bytes = 0;
  for (const key of keys) bytes += key.length + 4 + typeName.length + 2;
  return bytes;
}
