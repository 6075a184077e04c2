// Secrets that sessions pick up from commands, outputs and messages never leave an adapter.
// Redaction runs on every returned string (see clip in text.ts), before any truncation, so a cut can
// never leave the start of a secret that no longer matches its pattern.
//
// Client text reaches this code (completeRun's rawEvents), so it runs in time linear in the text: every
// pattern below is either a fixed-length prefix, or a run of one character class that ends where the
// class ends; the variable parts are scanned by hand, and no position is scanned again from a later
// start (see shapes()). Words are not secrets: a credential needs the shape of one, or a name that says
// it is one followed by an assignment.

const REDACTED = '[redacted]';

interface Shape {
  /** Where a token may start: a fixed prefix (global). */
  start: RegExp;
  /** The whole token from its start, anchored there (sticky); its repetitions are of one class each. */
  body: RegExp;
  /**
   * A body that can fail after a long scan: what such a failure read, skipped whole. A start inside it
   * would read the same parts, shorter, and fail too. Other bodies fail within their fixed minimum.
   */
  skip?: RegExp;
}

// Tokens recognisable by their own shape, wherever they appear.
const SHAPES: readonly Shape[] = [
  { start: /\bsk-ant-/g, body: /sk-ant-[A-Za-z0-9_-]{8,}/y },
  { start: /\bsk-/g, body: /sk-[A-Za-z0-9_-]{20,}/y },
  { start: /\bgh[pousr]_/g, body: /gh[pousr]_[A-Za-z0-9]{20,}/y },
  { start: /\bgithub_pat_/g, body: /github_pat_[A-Za-z0-9_]{20,}/y },
  { start: /\bxox[abeoprs]-/g, body: /xox[abeoprs]-[A-Za-z0-9-]{10,}/y },
  { start: /\b(?:AKIA|ASIA)/g, body: /(?:AKIA|ASIA)[0-9A-Z]{16}\b/y },
  // JSON Web Tokens: three base64url parts, the first an encoded JSON object.
  {
    start: /\beyJ/g,
    body: /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/y,
    skip: /[A-Za-z0-9_-]*/y,
  },
];

const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----/g;
const PRIVATE_KEY_END = /-----END [A-Z ]{0,40}PRIVATE KEY-----/g;

// The scheme stays, so the text still says what was there. Bearer and Basic are also English words:
// the credential must look like one (a digit, or long and of mixed case), unless an Authorization
// header names it.
const SCHEME = /\b(?:Bearer|Basic)[ \t]+/gi;
const CREDENTIAL = /[A-Za-z0-9._~+/=-]+/y;
const AUTHORIZATION_BEFORE = /authorization["']?\s{0,4}[:=]\s{0,4}["']?$/i;

// A name that says its value is a secret: one of these words inside an identifier, not continued by
// lowercase letters (token, GITHUB_TOKEN and accessToken, not tokens, tokenizer or max_tokens).
const IDENTIFIER = /[A-Za-z0-9_.-]+/g;
const SECRET_WORD = /api[_-]?key|apikey|secret|password|passwd|token|access[_-]?key/gi;
const ASSIGNED = /["']?[ \t]{0,8}[:=][ \t]{0,8}["']?/y;
const VALUE = /[^\s"'`,;&)}\]]+/y;
const MIN_VALUE = 6;
// Values that name no secret: numbers (token counts, timeouts) and references to one held elsewhere.
const NOT_A_SECRET =
  /^(?:\d+(?:\.\d+)?|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|process\.env\.[A-Za-z0-9_]+|undefined|required)$/i;

interface Span {
  from: number;
  to: number;
}

export function redactSecrets(text: string): string {
  return [privateKeys, shapes, authorizations, assignments].reduce((result, find) => cut(result, find(result)), text);
}

/** The text with each span (ascending, disjoint) replaced by the marker. */
function cut(text: string, spans: readonly Span[]): string {
  if (spans.length === 0) return text;
  let result = '';
  let at = 0;
  for (const span of spans) {
    result += text.slice(at, span.from) + REDACTED;
    at = span.to;
  }
  return result + text.slice(at);
}

/** A key block, up to its end line or, when cut off, to the end of the text. */
function privateKeys(text: string): Span[] {
  const spans: Span[] = [];
  PRIVATE_KEY_BEGIN.lastIndex = 0;
  for (let begin = PRIVATE_KEY_BEGIN.exec(text); begin; begin = PRIVATE_KEY_BEGIN.exec(text)) {
    PRIVATE_KEY_END.lastIndex = PRIVATE_KEY_BEGIN.lastIndex;
    const end = PRIVATE_KEY_END.exec(text);
    const to = end ? PRIVATE_KEY_END.lastIndex : text.length;
    spans.push({ from: begin.index, to });
    PRIVATE_KEY_BEGIN.lastIndex = to;
  }
  return spans;
}

function shapes(text: string): Span[] {
  const found: Span[] = [];
  for (const { start, body, skip } of SHAPES) {
    start.lastIndex = 0;
    for (let match = start.exec(text); match; match = start.exec(text)) {
      body.lastIndex = match.index;
      if (body.test(text)) {
        found.push({ from: match.index, to: body.lastIndex });
        start.lastIndex = body.lastIndex;
      } else if (skip) {
        skip.lastIndex = match.index;
        skip.test(text);
        start.lastIndex = Math.max(skip.lastIndex, start.lastIndex);
      }
    }
  }
  return disjoint(found);
}

/** Ascending spans with those inside or overlapping an earlier one merged into it. */
function disjoint(spans: Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of spans.sort((a, b) => a.from - b.from)) {
    const last = merged.at(-1);
    if (last && span.from < last.to) last.to = Math.max(last.to, span.to);
    else merged.push({ ...span });
  }
  return merged;
}

function authorizations(text: string): Span[] {
  const spans: Span[] = [];
  SCHEME.lastIndex = 0;
  for (let scheme = SCHEME.exec(text); scheme; scheme = SCHEME.exec(text)) {
    CREDENTIAL.lastIndex = SCHEME.lastIndex;
    const credential = CREDENTIAL.exec(text)?.[0];
    if (credential === undefined) continue;
    const header = AUTHORIZATION_BEFORE.test(text.slice(Math.max(0, scheme.index - 24), scheme.index));
    if (credential.length >= 8 && (header || looksGenerated(credential)))
      spans.push({ from: SCHEME.lastIndex, to: CREDENTIAL.lastIndex });
    SCHEME.lastIndex = CREDENTIAL.lastIndex;
  }
  return spans;
}

function looksGenerated(credential: string): boolean {
  const digit = /[0-9]/.test(credential);
  const letter = /[A-Za-z]/.test(credential);
  const mixedCase = /[a-z]/.test(credential) && /[A-Z]/.test(credential.slice(1));
  return (digit && letter) || (mixedCase && credential.length >= 16 && !credential.includes('.'));
}

function assignments(text: string): Span[] {
  const spans: Span[] = [];
  IDENTIFIER.lastIndex = 0;
  for (let identifier = IDENTIFIER.exec(text); identifier; identifier = IDENTIFIER.exec(text)) {
    if (!namesSecret(identifier[0])) continue;
    ASSIGNED.lastIndex = IDENTIFIER.lastIndex;
    if (!ASSIGNED.test(text)) continue;
    const from = ASSIGNED.lastIndex;
    if (text.startsWith(REDACTED, from)) continue;
    VALUE.lastIndex = from;
    const value = VALUE.exec(text)?.[0];
    if (value === undefined || value.length < MIN_VALUE || NOT_A_SECRET.test(value)) continue;
    spans.push({ from, to: VALUE.lastIndex });
    IDENTIFIER.lastIndex = VALUE.lastIndex;
  }
  return spans;
}

function namesSecret(identifier: string): boolean {
  SECRET_WORD.lastIndex = 0;
  for (let word = SECRET_WORD.exec(identifier); word; word = SECRET_WORD.exec(identifier)) {
    const next = identifier[SECRET_WORD.lastIndex] ?? '';
    const last = word[0].slice(-1);
    // Continued by a lowercase letter, or by any letter in an UPPERCASE word: a longer word (tokens, TOKENS).
    const continued = /[a-z]/.test(next) || (/[A-Z]/.test(next) && /[A-Z]/.test(last));
    if (!continued) return true;
  }
  return false;
}
