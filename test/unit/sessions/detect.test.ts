import { describe, expect, it } from 'vitest';
import { detectFormat, parseSession, SESSION_LIMITS } from '../../../src/sessions/index.js';
import { FIXTURES, HIDDEN_MARKER, SECRETS, fixture, jsonl } from './fixtures.js';

const ALL = Object.values(FIXTURES);

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) => [key, ...strings(item)]);
  return [];
}

describe('detectFormat', () => {
  it.each([
    [FIXTURES.codexMain, 'codex'],
    [FIXTURES.codexSubagent, 'codex'],
    [FIXTURES.codexFork, 'codex'],
    [FIXTURES.claudeMain, 'claude'],
    [FIXTURES.claudeRewind, 'claude'],
    [FIXTURES.claudeSubagent, 'claude'],
  ])('recognises %s as %s by its content', (path, format) => {
    const { text } = fixture(path);
    expect(detectFormat('session.jsonl', text)).toBe(format);
  });

  it('looks past lines that do not identify the format', () => {
    const claude = jsonl(
      'not json',
      { type: 'file-history-snapshot', messageId: 'm' },
      { type: 'user', uuid: 'u', sessionId: 's', message: {} },
    );
    expect(detectFormat('s.jsonl', claude)).toBe('claude');
    expect(detectFormat('s.jsonl', jsonl({ type: 'summary', summary: 'Title', leafUuid: 'u' }))).toBe('claude');
  });

  it('never guesses: anything else is null', () => {
    expect(detectFormat('s.jsonl', '')).toBeNull();
    expect(
      detectFormat('s.jsonl', jsonl({ role: 'user', content: 'hi' }, { type: 'message', payload: {} })),
    ).toBeNull();
    expect(detectFormat('s.jsonl', jsonl({ type: 'user', message: {} }))).toBeNull();
    expect(detectFormat('notes.txt', fixture(FIXTURES.codexMain).text)).toBeNull();
  });
});

describe('parseSession', () => {
  it('reads each format with its adapter and returns null for an unknown one', () => {
    expect(parseSession(FIXTURES.codexMain, fixture(FIXTURES.codexMain).text)?.provider).toBe('codex');
    expect(parseSession(FIXTURES.claudeMain, fixture(FIXTURES.claudeMain).text)?.provider).toBe('claude');
    expect(parseSession('x.jsonl', '{"hello":"world"}')).toBeNull();
  });

  describe.each(ALL)('on %s', (path) => {
    const { fileName, text } = fixture(path);
    const session = parseSession(fileName, text);

    it('returns no secret anywhere', () => {
      const output = JSON.stringify(session);
      for (const secret of SECRETS) expect(output).not.toContain(secret);
    });

    it('returns no reasoning or thinking', () => {
      expect(JSON.stringify(session)).not.toContain(HIDDEN_MARKER);
    });

    it('returns only bounded strings free of control characters', () => {
      for (const value of strings(session)) {
        expect(value.length).toBeLessThanOrEqual(SESSION_LIMITS.message);
        expect(value).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/);
      }
      for (const fact of session?.runs.flatMap((run) => run.facts) ?? []) {
        expect(fact.text.length).toBeLessThanOrEqual(SESSION_LIMITS.factText);
        expect(fact.text.length).toBeGreaterThan(0);
        expect(fact.key?.length ?? 0).toBeLessThanOrEqual(SESSION_LIMITS.label);
      }
    });
  });

  it('bounds long messages and tool output', () => {
    const long = 'x'.repeat(50_000);
    const at = '2025-06-02T10:00:00.000Z';
    const session = parseSession(
      'rollout-x.jsonl',
      jsonl(
        { timestamp: at, type: 'session_meta', payload: { id: 't', cwd: '/w' } },
        { timestamp: at, type: 'event_msg', payload: { type: 'user_message', message: long } },
        {
          timestamp: at,
          type: 'response_item',
          payload: {
            type: 'function_call',
            name: 'shell_command',
            arguments: JSON.stringify({ command: `false ${long}` }),
            call_id: 'c',
          },
        },
        {
          timestamp: at,
          type: 'response_item',
          payload: { type: 'function_call_output', call_id: 'c', output: `Exit code: 1\nOutput:\n${long}` },
        },
        { timestamp: at, type: 'event_msg', payload: { type: 'agent_message', message: long } },
      ),
    );
    const run = session?.runs[0];
    expect(run?.userMessage).toHaveLength(SESSION_LIMITS.message);
    expect(run?.assistantMessage).toHaveLength(SESSION_LIMITS.message);
    const failure = run?.facts.find((fact) => fact.kind === 'failure');
    expect(failure?.key).toHaveLength(SESSION_LIMITS.label);
    expect(failure?.text.length).toBeLessThanOrEqual(SESSION_LIMITS.factText);
    // The command is cut so that the end of its output, where the error is, stays.
    expect(failure?.text.endsWith(long.slice(-100))).toBe(true);
  });
});
