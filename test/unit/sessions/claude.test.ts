import { describe, expect, it } from 'vitest';
import { readClaudeSession } from '../../../src/sessions/claude.js';
import { completed } from '../../../src/sessions/slices.js';
import type { ImportedFact, ImportedRun, ParsedSession } from '../../../src/sessions/types.js';
import { FIXTURES, HIDDEN_MARKER, fixture, jsonl } from './fixtures.js';

const parseClaudeSession = (fileName: string, text: string, agentMeta?: string) =>
  completed(readClaudeSession(fileName, text, agentMeta));

function parse(path: string): ParsedSession {
  const { fileName, text } = fixture(path);
  return parseClaudeSession(fileName, text);
}

function factsOf(run: ImportedRun | undefined, kind: ImportedFact['kind']) {
  return (run?.facts ?? []).filter((fact) => fact.kind === kind).map(({ kind: _kind, ...rest }) => rest);
}

// A chain of message lines for inline cases: each line's parent is the one before it.
function chain(...messages: Array<{ type: string; [field: string]: unknown }>): string {
  return jsonl(
    ...messages.map((message, index) => ({
      parentUuid: index === 0 ? null : `u${index - 1}`,
      isSidechain: false,
      sessionId: 'session-1',
      cwd: '/w',
      uuid: `u${index}`,
      timestamp: `2025-07-03T08:00:${String(index).padStart(2, '0')}.000Z`,
      ...messages[index],
    })),
  );
}
const user = (content: unknown, extra: object = {}) => ({ type: 'user', message: { role: 'user', content }, ...extra });
const assistant = (content: unknown[], extra: object = {}) => ({
  type: 'assistant',
  message: { id: 'msg', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content },
  ...extra,
});

describe('parseClaudeSession on a session file', () => {
  const session = parse(FIXTURES.claudeMain);
  const [first, second, third] = session.runs;

  it('reads the session id, cwd, start and newest model', () => {
    expect(session).toMatchObject({
      format: 'claude',
      provider: 'claude',
      sessionId: '7d3c6a52-1b7e-4a55-9c39-4d1f0e2b8a61',
      model: 'claude-opus-4-1-20250805',
      cwd: '/home/dev/shop',
      startedAt: '2025-07-01T10:00:00.000Z',
      parentSessionId: null,
      relationship: null,
    });
  });

  it('makes each human turn a run: not caveats, local commands, system reminders, tool results or compact summaries', () => {
    expect(session.runs.map((run) => [run.userMessage, run.status, run.model])).toEqual([
      ['Add a discount field to the cart. The API key is [redacted]', 'completed', 'claude-sonnet-4-5-20250929'],
      ['Now deploy it', 'interrupted', 'claude-opus-4-1-20250805'],
      ['Wait, ask me which environment first', 'completed', 'claude-opus-4-1-20250805'],
    ]);
    expect(JSON.stringify(session)).not.toMatch(/CLAUDE\.md|Caveat|Set model to|being continued/);
  });

  it('takes the final text of the turn as the answer', () => {
    expect(first).toMatchObject({
      startedAt: '2025-07-01T10:00:10.000Z',
      completedAt: '2025-07-01T10:00:55.000Z',
      assistantMessage: 'The cart has a discount field and the tests pass.',
    });
  });

  it('lists Edit and Write changes relative to cwd with their structured patch line counts', () => {
    expect(first?.facts.filter((fact) => fact.kind === 'file_change')).toEqual([
      {
        kind: 'file_change',
        text: 'src/cart.ts modified (+1 -0)',
        key: 'src/cart.ts',
        status: 'modified',
        file: { path: 'src/cart.ts', change: 'modified', additions: 1, deletions: 0, previousPath: null },
      },
      {
        kind: 'file_change',
        text: 'src/discount.ts added (+2 -0)',
        key: 'src/discount.ts',
        status: 'added',
        file: { path: 'src/discount.ts', change: 'added', additions: 2, deletions: 0, previousPath: null },
      },
    ]);
  });

  it('reports a tool error as a failure and keeps the last run of a command', () => {
    expect(factsOf(first, 'failure')).toEqual([
      { text: 'Edit failed on src/missing.ts: File does not exist.', key: 'Edit src/missing.ts', status: null },
    ]);
    expect(factsOf(first, 'command')).toEqual([{ text: 'npm test (exit 0)', key: 'npm test', status: 'exit 0' }]);
    expect(factsOf(first, 'test')).toEqual([
      { text: 'npm test: 4 passed, 0 failed', key: 'npm test', status: 'passed' },
    ]);
  });

  it('keeps the newest TodoWrite state', () => {
    expect(factsOf(first, 'plan_item')).toEqual([
      { text: 'Add discount to Cart', key: 'Add discount to Cart', status: 'done' },
      { text: 'Update cart tests', key: 'Update cart tests', status: 'done' },
      { text: 'Write changelog', key: 'Write changelog', status: 'open' },
    ]);
  });

  it('notes a Task subagent under its agent id', () => {
    expect(factsOf(first, 'subagent_result')).toEqual([
      {
        text: 'Task: Explore: Find cart totals\nResult: Totals are computed in src/cart.ts and src/checkout.ts.',
        key: 'a7f3e2d',
        status: 'completed',
      },
    ]);
  });

  it('marks an interrupted turn and reports the rejected command', () => {
    expect(second).toMatchObject({
      status: 'interrupted',
      assistantMessage: 'Deploying now.',
      completedAt: '2025-07-01T10:06:05.100Z',
    });
    const command = 'curl -X POST -H "Authorization: Bearer [redacted]" https://deploy.example.test/run';
    expect(factsOf(second, 'command')).toEqual([{ text: `${command} (error)`, key: command, status: 'error' }]);
    expect(factsOf(second, 'failure')[0]?.text).toMatch(
      /^Command failed \(error\): curl .*\nThe user doesn't want to proceed/,
    );
  });

  it('turns a final question into an open question', () => {
    expect(factsOf(third, 'question')).toEqual([
      {
        text: 'Which environment should I deploy to first: staging or production?',
        key: 'Which environment should I deploy to first: staging or production?',
        status: 'open',
      },
    ]);
  });

  it('counts the compaction, follows the conversation across it, and reports bad and unknown lines', () => {
    expect(session.compactions).toBe(1);
    expect(session.abandonedBranches).toBe(0);
    expect(session.problems).toEqual([{ line: 26, reason: 'not valid JSON' }]);
    expect(session.unknownRecordTypes).toEqual({ 'file-history-snapshot': 1, 'queue-operation': 1 });
    expect(JSON.stringify(session)).not.toContain(HIDDEN_MARKER);
  });
});

describe('parseClaudeSession on rewinds and subagents', () => {
  it('follows the branch that leads to the newest message after a rewind and counts the other', () => {
    const session = parse(FIXTURES.claudeRewind);
    expect(session.runs.map((run) => [run.userMessage, run.assistantMessage])).toEqual([
      ['Write a slugify helper', 'Here is slugify in src/slug.ts.'],
      ['Make it lowercase only', 'slugify now lowercases its input.'],
    ]);
    expect(session.abandonedBranches).toBe(1);
    expect(JSON.stringify(session)).not.toMatch(/unicode|NFKD/);
  });

  it('matches tool results to their calls wherever they sit in the tree', () => {
    const session = parse(FIXTURES.claudeRewind);
    expect(factsOf(session.runs[1], 'file_change')).toEqual([
      {
        text: 'src/slug.ts modified (+1 -1)',
        key: 'src/slug.ts',
        status: 'modified',
        file: { path: 'src/slug.ts', change: 'modified', additions: 1, deletions: 1, previousPath: null },
      },
    ]);
  });

  it('reads a subagent file as a subagent session of its parent', () => {
    const session = parse(FIXTURES.claudeSubagent);
    expect(session).toMatchObject({
      sessionId: 'a7f3e2d',
      parentSessionId: '7d3c6a52-1b7e-4a55-9c39-4d1f0e2b8a61',
      relationship: 'subagent',
      model: 'claude-haiku-4-5-20251001',
    });
    expect(session.runs.map((run) => [run.userMessage, run.assistantMessage])).toEqual([
      ['Find every place that computes cart totals', 'Totals are computed in src/cart.ts and src/checkout.ts.'],
    ]);
  });

  it('leaves sidechain lines of a main file to their own session', () => {
    const session = parseClaudeSession(
      'session-1.jsonl',
      chain(
        user('Explore'),
        user('Subagent task', { isSidechain: true }),
        assistant([{ type: 'text', text: 'Done exploring.' }]),
      ),
    );
    expect(session.runs.map((run) => run.userMessage)).toEqual(['Explore']);
  });
});

describe('parseClaudeSession on edge cases', () => {
  it('makes a slash command a run when the model answers it, not when it is local', () => {
    const session = parseClaudeSession(
      'session-1.jsonl',
      chain(
        user(
          '<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>',
        ),
        user('<local-command-stdout></local-command-stdout>'),
        user(
          '<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>src/cart.ts</command-args>',
        ),
        user('Review the file and report problems.', { isMeta: true }),
        assistant([{ type: 'text', text: 'The cart looks fine.' }]),
      ),
    );
    expect(session.runs.map((run) => [run.userMessage, run.assistantMessage])).toEqual([
      ['/review src/cart.ts', 'The cart looks fine.'],
    ]);
  });

  it('fails a run the model API failed, and ignores synthetic assistant text', () => {
    const session = parseClaudeSession(
      'session-1.jsonl',
      chain(
        user('Hello'),
        assistant([{ type: 'text', text: 'No response requested.' }], {
          message: {
            role: 'assistant',
            model: '<synthetic>',
            content: [{ type: 'text', text: 'No response requested.' }],
          },
        }),
        assistant([{ type: 'text', text: 'API Error: 529 overloaded' }], { isApiErrorMessage: true }),
      ),
    );
    expect(session.runs).toEqual([
      {
        sourceId: 'u0',
        startedAt: '2025-07-03T08:00:00.000Z',
        completedAt: '2025-07-03T08:00:02.000Z',
        model: null,
        userMessage: 'Hello',
        assistantMessage: null,
        status: 'failed',
        facts: [
          { kind: 'failure', text: 'The model API failed: API Error: 529 overloaded', key: 'api_error', status: null },
        ],
      },
    ]);
  });

  it('reads Bash exit codes, interruptions and background commands', () => {
    const bash = (id: string, command: string, extra: object = {}) =>
      assistant([{ type: 'tool_use', id, name: 'Bash', input: { command, ...extra } }]);
    const result = (id: string, content: string, isError: boolean, toolUseResult: unknown) =>
      user([{ type: 'tool_result', tool_use_id: id, content, is_error: isError }], { toolUseResult });
    const session = parseClaudeSession(
      'session-1.jsonl',
      chain(
        user('Check'),
        bash('b1', 'pytest'),
        result('b1', 'Exit code 1\n===== 2 passed, 1 failed in 0.12s =====', true, 'Error: Exit code 1'),
        bash('b2', 'sleep 100'),
        result('b2', 'interrupted', false, { stdout: '', stderr: '', interrupted: true }),
        bash('b3', 'npm run dev', { run_in_background: true }),
        result('b3', 'Command running in background with ID: bash_1', false, {
          stdout: '',
          stderr: '',
          interrupted: false,
        }),
      ),
    );
    const run = session.runs[0];
    expect(factsOf(run, 'command').map((fact) => [fact.key, fact.status])).toEqual([
      ['pytest', 'exit 1'],
      ['sleep 100', 'interrupted'],
      ['npm run dev', null],
    ]);
    expect(factsOf(run, 'test')).toEqual([{ text: 'pytest: 2 passed, 1 failed', key: 'pytest', status: 'failed' }]);
    expect(factsOf(run, 'failure').map((fact) => fact.key)).toEqual(['pytest']);
  });

  it('keeps a turn that is only an image, without its data', () => {
    const session = parseClaudeSession(
      'session-1.jsonl',
      chain(
        user([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo' } }]),
        assistant([{ type: 'text', text: 'A diagram.' }]),
      ),
    );
    expect(session.runs.map((run) => [run.userMessage, run.assistantMessage])).toEqual([['[image]', 'A diagram.']]);
  });

  it('reports a message line without a uuid', () => {
    const session = parseClaudeSession(
      'session-1.jsonl',
      jsonl({ type: 'user', sessionId: 's', message: { role: 'user', content: 'Hi' } }),
    );
    expect(session.problems).toEqual([{ line: 1, reason: 'message has no uuid' }]);
    expect(session.runs).toEqual([]);
  });
});
