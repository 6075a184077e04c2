import { describe, expect, it } from 'vitest';
import { readCodexSession } from '../../../src/sessions/codex.js';
import { completed } from '../../../src/sessions/slices.js';
import type { ImportedFact, ImportedRun, ParsedSession } from '../../../src/sessions/types.js';
import { FIXTURES, HIDDEN_MARKER, fixture, jsonl } from './fixtures.js';

const parseCodexSession = (fileName: string, text: string) => completed(readCodexSession(fileName, text));

function parse(path: string): ParsedSession {
  const { fileName, text } = fixture(path);
  return parseCodexSession(fileName, text);
}

function factsOf(run: ImportedRun | undefined, kind: ImportedFact['kind']) {
  return (run?.facts ?? []).filter((fact) => fact.kind === kind).map(({ kind: _kind, ...rest }) => rest);
}

const at = (second: number) => `2025-06-02T10:00:${String(second).padStart(2, '0')}.000Z`;
const meta = {
  timestamp: at(0),
  type: 'session_meta',
  payload: { id: 'thread-1', timestamp: at(0), cwd: '/w', source: 'cli' },
};
const event = (second: number, payload: object) => ({ timestamp: at(second), type: 'event_msg', payload });
const item = (second: number, payload: object) => ({ timestamp: at(second), type: 'response_item', payload });

describe('parseCodexSession on a rollout file', () => {
  const session = parse(FIXTURES.codexMain);
  const [first, second, third] = session.runs;

  it('reads the thread from session_meta and the newest model from turn_context', () => {
    expect(session).toMatchObject({
      format: 'codex',
      provider: 'codex',
      sessionId: '0197c0de-0001-7000-8000-00000000c0de',
      model: 'gpt-5.1-codex',
      cwd: '/home/dev/shop',
      startedAt: '2025-06-02T09:15:00.000Z',
      parentSessionId: null,
      relationship: null,
    });
  });

  it('makes each human turn a run, and none of the injected AGENTS.md or environment context', () => {
    expect(session.runs.map((run) => [run.userMessage, run.status, run.model])).toEqual([
      ['Add a discount field to the cart and make the tests pass', 'completed', 'gpt-5-codex'],
      ['Deploy it, the token is [redacted]', 'interrupted', 'gpt-5-codex'],
      ['Cap discounts at 50%', 'completed', 'gpt-5.1-codex'],
    ]);
    expect(JSON.stringify(session)).not.toMatch(/AGENTS\.md|environment_context|Always run npm test/);
  });

  it('takes the final answer of a turn and its start and end times', () => {
    expect(first).toMatchObject({
      startedAt: '2025-06-02T09:15:01.200Z',
      completedAt: '2025-06-02T09:15:22.200Z',
      assistantMessage: 'Added `discount` to the cart, removed the legacy cart, and the tests pass.',
    });
    expect(second).toMatchObject({ assistantMessage: null, completedAt: '2025-06-02T09:17:05.000Z' });
  });

  it('lists applied file changes relative to cwd, with patch_apply_end line counts', () => {
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
      {
        kind: 'file_change',
        text: 'src/legacy-cart.ts deleted (+0 -1)',
        key: 'src/legacy-cart.ts',
        status: 'deleted',
        file: { path: 'src/legacy-cart.ts', change: 'deleted', additions: 0, deletions: 1, previousPath: null },
      },
    ]);
  });

  it('keeps the last execution of each command: shell, shell_command and local_shell_call alike', () => {
    expect(factsOf(first, 'command')).toEqual([
      {
        text: "curl -s -H 'Authorization: Bearer [redacted]' https://prices.example.test/v1 (exit 0)",
        key: "curl -s -H 'Authorization: Bearer [redacted]' https://prices.example.test/v1",
        status: 'exit 0',
      },
      { text: 'npm test (exit 0)', key: 'npm test', status: 'exit 0' },
      { text: 'git status --short (exit 0)', key: 'git status --short', status: 'exit 0' },
    ]);
    expect(factsOf(first, 'test')).toEqual([
      { text: 'npm test: 4 passed, 0 failed', key: 'npm test', status: 'passed' },
    ]);
    // The first npm test failed, the second passed: the run ends with no failure.
    expect(factsOf(first, 'failure')).toEqual([]);
  });

  it('reports a failed command with a short excerpt of its own output', () => {
    expect(factsOf(second, 'failure')).toEqual([
      {
        text: 'Command failed (exit 1): AWS_ACCESS_KEY_ID=[redacted] ./deploy.sh\nError: permission denied for [redacted]',
        key: 'AWS_ACCESS_KEY_ID=[redacted] ./deploy.sh',
        status: null,
      },
    ]);
  });

  it('keeps the newest update_plan state: completed steps are done, dropped pending steps vanish', () => {
    expect(factsOf(first, 'plan_item')).toEqual([
      { text: 'Add discount to Cart', key: 'Add discount to Cart', status: 'done' },
      { text: 'Update cart tests', key: 'Update cart tests', status: 'in_progress' },
    ]);
    expect(factsOf(third, 'plan_item')).toEqual([
      { text: 'Add discount to Cart', key: 'Add discount to Cart', status: 'done' },
      { text: 'Update cart tests', key: 'Update cart tests', status: 'done' },
    ]);
  });

  it('notes a spawned subagent with its task and result', () => {
    expect(factsOf(first, 'subagent_result')).toEqual([
      {
        text: 'Task: Find every place that computes cart totals\nResult: Totals are computed in src/cart.ts and src/checkout.ts.',
        key: '0197c0de-0002-7000-8000-0000000000a1',
        status: 'completed',
      },
    ]);
  });

  it('turns a final answer that asks something into an open question', () => {
    expect(factsOf(third, 'question')).toEqual([
      { text: 'Should the cap also apply to coupons?', key: 'Should the cap also apply to coupons?', status: 'open' },
    ]);
  });

  it('counts one compaction for its compacted record and context_compacted event, and stores neither', () => {
    expect(session.compactions).toBe(1);
    expect(JSON.stringify(session)).not.toContain('Summary so far');
  });

  it('reports malformed lines, counts unknown record types, and never stores reasoning', () => {
    expect(session.problems).toEqual([
      { line: 32, reason: 'not valid JSON' },
      { line: 34, reason: 'not a JSON object' },
    ]);
    expect(session.unknownRecordTypes).toEqual({ telemetry_blob: 1 });
    expect(session.abandonedBranches).toBe(0);
    expect(JSON.stringify(session)).not.toContain(HIDDEN_MARKER);
  });
});

describe('parseCodexSession on subagent and fork files', () => {
  it('reads a thread_spawn subagent and its parent thread from session_meta', () => {
    const session = parse(FIXTURES.codexSubagent);
    expect(session).toMatchObject({
      sessionId: '0197c0de-0002-7000-8000-0000000000a1',
      parentSessionId: '0197c0de-0001-7000-8000-00000000c0de',
      relationship: 'subagent',
      model: 'gpt-5-codex-mini',
    });
    expect(session.runs).toHaveLength(1);
    expect(factsOf(session.runs[0], 'command')).toEqual([
      { text: 'rg -n total src (exit 0)', key: 'rg -n total src', status: 'exit 0' },
    ]);
  });

  it('reads a fork: its own session_meta wins over the copied source one', () => {
    const session = parse(FIXTURES.codexFork);
    expect(session).toMatchObject({
      sessionId: '0197c0de-0003-7000-8000-0000000000f0',
      parentSessionId: '0197c0de-0001-7000-8000-00000000c0de',
      relationship: 'fork',
      cwd: '/home/dev/shop',
    });
  });

  it('falls back to response_item messages when a file has no user_message events', () => {
    const session = parse(FIXTURES.codexFork);
    expect(session.runs.map((run) => [run.userMessage, run.assistantMessage, run.status])).toEqual([
      ['Rename the cart module to basket', 'Renamed src/cart.ts to src/basket.ts.', 'completed'],
      ['Run the Rust tests', null, 'failed'],
    ]);
    const [rename, tests] = session.runs;
    expect(rename?.facts).toEqual([
      {
        kind: 'file_change',
        text: 'src/basket.ts renamed from src/cart.ts (+1 -1)',
        key: 'src/basket.ts',
        status: 'renamed',
        file: { path: 'src/basket.ts', change: 'renamed', additions: 1, deletions: 1, previousPath: 'src/cart.ts' },
      },
    ]);
    expect(factsOf(tests, 'test')).toEqual([
      { text: 'cargo test: 5 passed, 1 failed', key: 'cargo test', status: 'failed' },
    ]);
    expect(factsOf(tests, 'failure').map((fact) => fact.key)).toEqual(['cargo test', 'error']);
  });

  it('drops the turns a thread_rolled_back took back and counts them as an abandoned branch', () => {
    const session = parse(FIXTURES.codexFork);
    expect(JSON.stringify(session.runs)).not.toContain('till');
    expect(session.abandonedBranches).toBe(1);
  });
});

describe('parseCodexSession on edge cases', () => {
  it('ignores user_message events of an injected kind', () => {
    const session = parseCodexSession(
      'rollout-x.jsonl',
      jsonl(
        meta,
        event(1, {
          type: 'user_message',
          message: '<user_instructions>be brief</user_instructions>',
          kind: 'user_instructions',
        }),
        event(2, { type: 'user_message', message: 'Hello', kind: 'plain' }),
      ),
    );
    expect(session.runs.map((run) => run.userMessage)).toEqual(['Hello']);
  });

  it('reads apply_patch run through the shell as a heredoc, and a failed patch as a failure', () => {
    const patch = '*** Begin Patch\n*** Add File: notes.md\n+hello\n*** End Patch';
    const session = parseCodexSession(
      'rollout-x.jsonl',
      jsonl(
        meta,
        event(1, { type: 'user_message', message: 'Add notes' }),
        item(2, {
          type: 'function_call',
          name: 'shell',
          arguments: JSON.stringify({ command: ['bash', '-lc', `apply_patch <<'EOF'\n${patch}\nEOF`] }),
          call_id: 'c1',
        }),
        item(3, {
          type: 'function_call_output',
          call_id: 'c1',
          output: JSON.stringify({
            output: 'Success. Updated the following files:\nA notes.md\n',
            metadata: { exit_code: 0 },
          }),
        }),
        item(4, {
          type: 'custom_tool_call',
          name: 'apply_patch',
          call_id: 'c2',
          input: '*** Begin Patch\n*** Update File: missing.md\n@@\n-a\n+b\n*** End Patch',
        }),
        item(5, {
          type: 'custom_tool_call_output',
          call_id: 'c2',
          output: 'apply_patch verification failed: Failed to read missing.md',
        }),
      ),
    );
    const facts = session.runs[0]?.facts ?? [];
    expect(facts.filter((fact) => fact.kind === 'file_change').map((fact) => fact.text)).toEqual([
      'notes.md added (+1 -0)',
    ]);
    expect(facts.filter((fact) => fact.kind === 'failure')).toEqual([
      {
        kind: 'failure',
        text: 'apply_patch failed on missing.md: apply_patch verification failed: Failed to read missing.md',
        key: 'apply_patch missing.md',
        status: null,
      },
    ]);
  });

  it('reports a failed MCP tool call', () => {
    const session = parseCodexSession(
      'rollout-x.jsonl',
      jsonl(
        meta,
        event(1, { type: 'user_message', message: 'Look it up' }),
        event(2, {
          type: 'mcp_tool_call_end',
          call_id: 'm1',
          invocation: { server: 'docs', tool: 'search' },
          duration: '1s',
          result: { Err: 'timeout after 30s' },
        }),
      ),
    );
    expect(factsOf(session.runs[0], 'failure')).toEqual([
      { text: 'MCP tool docs.search failed: timeout after 30s', key: 'docs.search', status: null },
    ]);
  });

  it('reports records without a type or payload, and takes the thread id from the file name without session_meta', () => {
    const session = parseCodexSession(
      'sessions/2025/06/02/rollout-2025-06-02T10-00-00-0197c0de-0009-7000-8000-000000000009.jsonl',
      jsonl(
        { timestamp: at(0), payload: {} },
        { timestamp: at(1), type: 'event_msg', payload: 'x' },
        event(2, { type: 'user_message', message: 'Hi' }),
      ),
    );
    expect(session.sessionId).toBe('0197c0de-0009-7000-8000-000000000009');
    expect(session.problems).toEqual([
      { line: 1, reason: 'record has no type' },
      { line: 2, reason: 'payload is not an object' },
    ]);
    // No answer and no end: the run was cut off.
    expect(session.runs).toEqual([
      {
        sourceId: null,
        startedAt: at(2),
        completedAt: null,
        model: null,
        userMessage: 'Hi',
        assistantMessage: null,
        status: 'interrupted',
        facts: [],
      },
    ]);
  });
});
