import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/api/validation.js';
import { humanText } from '../../../src/sessions/injected.js';
import { redactSecrets } from '../../../src/sessions/redact.js';
import { findTestSummary } from '../../../src/sessions/testSummary.js';
import { clip, clipOrNull, lineCount, relativePath, tailExcerpt } from '../../../src/sessions/text.js';
import { SESSION_LIMITS } from '../../../src/sessions/types.js';

describe('redactSecrets', () => {
  it.each([
    ['an OpenAI key', 'key sk-proj-abcdefghijklmnopqrstuvwxyz012345 here', 'key [redacted] here'],
    ['an Anthropic key', 'ANTHROPIC=sk-ant-api03-abc123def456', 'ANTHROPIC=[redacted]'],
    ['a GitHub token', 'ghp_0123456789abcdefghijklmnopqrstuvwxyz', '[redacted]'],
    ['a fine-grained GitHub token', 'github_pat_11ABCDEFG0123456789_abcdefghijkl', '[redacted]'],
    ['a Slack token', 'xoxp-1234567890-abcdefghij', '[redacted]'],
    ['an AWS access key id', 'id=AKIAIOSFODNN7EXAMPLE', 'id=[redacted]'],
    ['a bearer token', 'Authorization: Bearer abc.def-ghi_jkl', 'Authorization: Bearer [redacted]'],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXZhbHVl', '[redacted]'],
    ['an api_key assignment', 'api_key=hunter2hunter2', 'api_key=[redacted]'],
    ['a quoted JSON secret', '{"client_secret": "s3cr3t-value"}', '{"client_secret": "[redacted]"}'],
    ['a token: value', 'token: abcdef123456', 'token: [redacted]'],
    ['a password in the environment', 'PGPASSWORD=correct-horse ./migrate', 'PGPASSWORD=[redacted] ./migrate'],
    ['a private key', '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----', '[redacted]'],
  ])('redacts %s', (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('leaves ordinary text alone, token counts included', () => {
    const text = 'max_tokens: 4096, input_tokens=1200, sk-learn, the author: Ada, npm test --token';
    expect(redactSecrets(text)).toBe(text);
  });

  it.each([
    [
      'a token in a sentence',
      'Deploy it, the token is ghp_0123456789abcdefghijklmnopqrstuvwxyz',
      'Deploy it, the token is [redacted]',
    ],
    [
      'a Basic credential',
      'curl -H "Authorization: Basic dXNlcjpwYXNzd29yZA=="',
      'curl -H "Authorization: Basic [redacted]"',
    ],
    ['a bearer token outside a header', 'send Bearer 9f8e7d6c5b4a3f2e1d0c', 'send Bearer [redacted]'],
    ['a camelCase token name', 'const accessToken = "a8f7e6d5c4b3"', 'const accessToken = "[redacted]"'],
    ['an environment export', 'export GITHUB_TOKEN=abcdefghij123', 'export GITHUB_TOKEN=[redacted]'],
    ['a YAML password', 'password: hunter2hunter2', 'password: [redacted]'],
    [
      'an AWS secret key',
      'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'AWS_SECRET_ACCESS_KEY=[redacted]',
    ],
    [
      'a key whose end line was cut off',
      'key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk',
      'key:\n[redacted]',
    ],
    [
      'a JWT after a dash-joined word',
      'x-eyJshort.eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl',
      'x-eyJshort.[redacted]',
    ],
  ])('redacts %s', (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  // Words that only sound like secrets: a handoff that hides them loses what the user said.
  it.each([
    'a basic CLAUDE.md file',
    'Add basic validation to the form',
    'Basic Authentication is configured in nginx',
    'Keep the token budget under 4000',
    'Add a password field to the signup form',
    'The secret is to keep it simple',
    'Bearer tokens expire after an hour',
    'tokenizer: cl100k_base',
    'token_count: 123456',
    'TOKENS_USED=4096',
    'token = process.env.GITHUB_TOKEN',
    'password: ${DB_PASSWORD}',
    'the access key rotation runs nightly',
    'secretary: Ada Lovelace',
  ])('leaves alone: %s', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it('is idempotent: redacted text stays as it is', () => {
    const once = redactSecrets(
      'api_key=hunter2hunter2 Authorization: Bearer abc.def-ghi_jkl sk-abcdefghijklmnopqrstuvwxyz',
    );
    expect(redactSecrets(once)).toBe(once);
  });

  it('redacts a secret once, however many patterns match it', () => {
    expect(redactSecrets('OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz')).toBe('OPENAI_API_KEY=[redacted]');
  });
});

describe('clip and tailExcerpt', () => {
  it('bounds a string, ellipsis included', () => {
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(clip('abc', 4)).toBe('abc');
    expect(tailExcerpt('x'.repeat(1000))).toHaveLength(SESSION_LIMITS.excerpt);
    expect(tailExcerpt('0123456789', 5)).toBe('…6789');
  });

  it('keeps the end of a tool output', () => {
    expect(tailExcerpt(`${'noise '.repeat(200)}Error: boom`).endsWith('Error: boom')).toBe(true);
  });

  it('redacts before cutting, so a cut never keeps the start of a secret', () => {
    const clipped = clip(`${'a'.repeat(10)} sk-ant-api03-abcdefghijklmnop`, 20);
    expect(clipped).not.toContain('sk-ant');
    expect(clipped).toBe(`${'a'.repeat(10)} [redacte…`);
  });

  it('drops terminal escapes and control characters, and keeps strings well-formed', () => {
    expect(clip('\u001b[31mred\u001b[0m\u0000 text\u0007', 100)).toBe('red text');
    expect(clip('😀😀', 2)).toBe('\uFFFD…');
    expect(clipOrNull('  ', 10)).toBeNull();
    expect(clipOrNull(undefined, 10)).toBeNull();
  });
});

describe('small text helpers', () => {
  it('counts the lines of file content', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('a\nb\n')]).toEqual([
      0, 1, 1, 2, 2,
    ]);
  });

  it('makes paths under cwd relative and leaves others alone', () => {
    expect(relativePath('/w/src/a.ts', '/w')).toBe('src/a.ts');
    expect(relativePath('/w/src/a.ts', '/w/')).toBe('src/a.ts');
    expect(relativePath('/other/a.ts', '/w')).toBe('/other/a.ts');
    expect(relativePath('src/a.ts', null)).toBe('src/a.ts');
  });
});

describe('humanText', () => {
  it('removes injected blocks and keeps what the human typed', () => {
    expect(humanText('<system-reminder>be careful</system-reminder>\nFix the bug')).toBe('Fix the bug');
    expect(humanText('<environment_context><cwd>/w</cwd></environment_context>')).toBe('');
    expect(humanText('# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>\nrules\n</INSTRUCTIONS>')).toBe('');
    expect(humanText('Caveat: The messages below were generated by the user while running local commands.')).toBe('');
    expect(humanText('Explain <environment_context> tags to me')).toBe('Explain <environment_context> tags to me');
  });
});

describe('findTestSummary', () => {
  it.each([
    [
      'vitest',
      ' Test Files  1 failed | 2 passed (3)\n      Tests  1 failed | 11 passed (12)',
      { passed: 11, failed: 1, unit: 'tests' },
    ],
    ['jest', 'Tests:       2 failed, 8 passed, 10 total', { passed: 8, failed: 2, unit: 'tests' }],
    ['pytest', '========= 5 passed, 1 skipped in 0.52s =========', { passed: 5, failed: 0, unit: 'tests' }],
    ['pytest -q', '3 failed, 7 passed in 1.20s', { passed: 7, failed: 3, unit: 'tests' }],
    [
      'cargo, one line per test binary',
      'test result: ok. 4 passed; 0 failed; 0 ignored\ntest result: FAILED. 2 passed; 1 failed; 0 ignored',
      { passed: 6, failed: 1, unit: 'tests' },
    ],
    [
      'go',
      'ok  \texample.com/shop/cart\t0.012s\nFAIL\texample.com/shop/till\t0.020s\nok  \texample.com/shop/api\t(cached)',
      { passed: 2, failed: 1, unit: 'packages' },
    ],
    ['mocha', '  12 passing (40ms)\n  1 failing', { passed: 12, failed: 1, unit: 'tests' }],
  ])('reads %s', (_runner, output, expected) => {
    expect(findTestSummary(output)).toEqual(expected);
  });

  it('finds nothing in output without a summary', () => {
    expect(findTestSummary('compiled successfully\nok')).toBeNull();
  });
});

describe('SESSION_LIMITS', () => {
  it('stays within what the service accepts', () => {
    expect(SESSION_LIMITS.message).toBeLessThanOrEqual(Math.min(LIMITS.userMessage, LIMITS.assistantMessage));
    expect(SESSION_LIMITS.factText).toBeLessThanOrEqual(LIMITS.factText);
    expect(SESSION_LIMITS.label).toBeLessThanOrEqual(LIMITS.label);
    expect(SESSION_LIMITS.label).toBeLessThanOrEqual(LIMITS.id);
    expect(SESSION_LIMITS.path).toBeLessThanOrEqual(LIMITS.path);
    expect(SESSION_LIMITS.factsPerRun).toBeLessThanOrEqual(LIMITS.facts);
  });
});
