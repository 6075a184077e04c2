// Secrets that sessions pick up from commands, outputs and messages never leave an adapter.
// Redaction runs on every returned string (see clip in text.ts), before any truncation, so a cut can
// never leave the start of a secret that no longer matches its pattern.

const REDACTED = '[redacted]';

// Tokens recognisable by their own shape, wherever they appear.
const TOKEN_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\bsk-ant-[A-Za-z0-9_-]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abeoprs]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  // JSON Web Tokens: three base64url parts, the first an encoded JSON object.
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

// Credentials recognisable by what precedes them: the scheme or the name stays, so the text still
// says what was there.
const AUTHORIZATION = /\b((?:Bearer|Basic)\s+)(?!\[redacted\])[A-Za-z0-9._~+/=-]{8,}/gi;
// `token(?!s)`: counts such as max_tokens or input_tokens are not secrets.
const ASSIGNMENT =
  /\b([A-Za-z0-9_.-]*(?:api[_-]?key|apikey|secret|password|passwd|token(?!s)|access[_-]?key)[A-Za-z0-9_.-]*["']?\s*[:=]\s*["']?)(?!\[redacted\])[^\s"'`,;&)}\]]{6,}/gi;

export function redactSecrets(text: string): string {
  let result = text;
  for (const pattern of TOKEN_PATTERNS) result = result.replace(pattern, REDACTED);
  return result.replace(AUTHORIZATION, `$1${REDACTED}`).replace(ASSIGNMENT, `$1${REDACTED}`);
}
