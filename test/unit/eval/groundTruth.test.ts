// The ground-truth extractor on small inline records of each format, written for these tests from the
// formats' public descriptions (Codex rollout items and events; Claude Code transcript lines).
import { describe, expect, it } from 'vitest';
import { groundTruth, isExploration } from '../../../tools/eval/groundTruth.js';

const jsonl = (...records: object[]) => records.map((record) => JSON.stringify(record)).join('\n');
let clock = 0;
const at = () => new Date(Date.UTC(2026, 0, 1, 9, 0, clock++)).toISOString();

const codex = {
  meta: (id: string) => ({ timestamp: at(), type: 'session_meta', payload: { id, cwd: '/w/app', source: 'cli' } }),
  user: (text: string) => ({
    timestamp: at(),
    type: 'response_item',
    payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
  }),
  userEvent: (message: string) => ({ timestamp: at(), type: 'event_msg', payload: { type: 'user_message', message } }),
  say: (text: string) => ({
    timestamp: at(),
    type: 'response_item',
    payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
  }),
  shell: (callId: string, command: string) => ({
    timestamp: at(),
    type: 'response_item',
    payload: {
      type: 'function_call',
      name: 'shell',
      call_id: callId,
      arguments: JSON.stringify({ command: ['bash', '-lc', command], workdir: '/w/app' }),
    },
  }),
  output: (callId: string, exitCode: number) => ({
    timestamp: at(),
    type: 'response_item',
    payload: {
      type: 'function_call_output',
      call_id: callId,
      output: JSON.stringify({ output: '', metadata: { exit_code: exitCode } }),
    },
  }),
  patch: (callId: string, patch: string) => ({
    timestamp: at(),
    type: 'response_item',
    payload: { type: 'custom_tool_call', name: 'apply_patch', call_id: callId, input: patch },
  }),
  patchEnd: (callId: string, success: boolean) => ({
    timestamp: at(),
    type: 'event_msg',
    payload: { type: 'patch_apply_end', call_id: callId, success, changes: {} },
  }),
  plan: (plan: { step: string; status: string }[]) => ({
    timestamp: at(),
    type: 'response_item',
    payload: {
      type: 'function_call',
      name: 'update_plan',
      call_id: `plan-${clock}`,
      arguments: JSON.stringify({ plan }),
    },
  }),
  commandItem: (id: string, command: string, exitCode: number) => ({
    timestamp: at(),
    type: 'event_msg',
    payload: {
      type: 'item_completed',
      item: {
        type: 'CommandExecution',
        id,
        command: ['bash', '-lc', command],
        cwd: 'file:///w/app',
        status: exitCode === 0 ? 'completed' : 'failed',
        exitCode,
      },
    },
  }),
};

let uuid = 0;
const claudeLine = (type: 'user' | 'assistant', content: unknown, extra: object = {}) => ({
  type,
  uuid: `u-${++uuid}`,
  sessionId: 's-1',
  cwd: '/w/app',
  isSidechain: false,
  timestamp: at(),
  message: { role: type, content },
  ...extra,
});
const claude = {
  user: (text: string, extra: object = {}) => claudeLine('user', text, extra),
  say: (text: string, extra: object = {}) => claudeLine('assistant', [{ type: 'text', text }], extra),
  tool: (id: string, name: string, input: object, extra: object = {}) =>
    claudeLine('assistant', [{ type: 'tool_use', id, name, input }], extra),
  result: (id: string, content: string, isError = false, extra: object = {}) =>
    claudeLine('user', [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }], extra),
};

describe('ground truth of a Codex rollout', () => {
  const truth = groundTruth([
    {
      name: 'rollout-a.jsonl',
      text: jsonl(
        codex.meta('c-1'),
        codex.user('# AGENTS.md instructions for /w/app\n\n<INSTRUCTIONS>be nice</INSTRUCTIONS>'),
        codex.user('<environment_context>\n<cwd>/w/app</cwd>\n</environment_context>'),
        codex.user('Add a discount and make the tests pass'),
        codex.userEvent('Add a discount and make the tests pass'),
        {
          timestamp: at(),
          type: 'response_item',
          payload: {
            type: 'reasoning',
            summary: [{ type: 'summary_text', text: '**Planning** where the discount goes' }],
          },
        },
        codex.plan([
          { step: 'Add discount', status: 'in_progress' },
          { step: 'Fix tests', status: 'pending' },
        ]),
        codex.shell('c1', "sed -n '1,80p' src/cart.ts && rg -n discount src"),
        codex.output('c1', 0),
        codex.patch(
          'p1',
          '*** Begin Patch\n*** Add File: src/discount.ts\n+x\n*** Update File: src/cart.ts\n@@\n+y\n*** Delete File: src/old.ts\n*** End Patch',
        ),
        codex.patchEnd('p1', true),
        codex.patch('p2', '*** Begin Patch\n*** Update File: src/broken.ts\n@@\n+z\n*** End Patch'),
        codex.patchEnd('p2', false),
        codex.shell('c2', 'npm test'),
        codex.output('c2', 1),
        codex.shell('c3', 'npm run lint'),
        codex.output('c3', 2),
        codex.say('The discount is in; one test fails. Should I keep the old rounding?'),
        codex.user('Yes keep it. Now delete src/discount.ts, we do not need it'),
        codex.shell('c4', 'git rm src/discount.ts'),
        codex.output('c4', 0),
        codex.commandItem('c5', 'npm test', 0),
        codex.plan([
          { step: 'Add discount', status: 'completed' },
          { step: 'Fix tests', status: 'completed' },
          { step: 'Write changelog', status: 'pending' },
        ]),
        codex.say('Done.'),
      ),
    },
  ]);

  it('lists files with their final state: a later delete wins', () => {
    expect(truth.files).toEqual(
      expect.arrayContaining([
        { path: 'src/cart.ts', state: 'modified', from: null },
        { path: 'src/old.ts', state: 'deleted', from: null },
        { path: 'src/discount.ts', state: 'deleted', from: null },
      ]),
    );
    expect(truth.files).toHaveLength(3);
  });

  it('lists non-exploration commands once with their last outcome, exploration only counted', () => {
    expect(truth.commands.map(({ command, ok, runs, fixed }) => ({ command, ok, runs, fixed }))).toEqual([
      { command: 'npm test', ok: true, runs: 2, fixed: true },
      { command: 'npm run lint', ok: false, runs: 1, fixed: false },
      { command: 'git rm src/discount.ts', ok: true, runs: 1, fixed: false },
    ]);
    expect(truth.explorationCommands).toBe(1);
  });

  it('keeps the failures still unresolved at the end: a failing command and a failed patch', () => {
    expect(truth.unresolvedFailures).toEqual([
      { target: 'npm run lint', kind: 'command' },
      { target: 'src/broken.ts', kind: 'edit' },
    ]);
  });

  it('takes the open todos of the last plan, the last request, and the question the user answered', () => {
    expect(truth.openTodos).toEqual(['Write changelog']);
    expect(truth.doneTodos).toEqual(['Add discount', 'Fix tests']);
    expect(truth.lastUserRequest).toBe('Yes keep it. Now delete src/discount.ts, we do not need it');
    expect(truth.answeredQuestions).toEqual(['Should I keep the old rounding?']);
    expect(truth.reasoning).toEqual(['**Planning** where the discount goes']);
  });

  it('reads a fork that copies the source turn once, and a later page after it', () => {
    const source = jsonl(codex.meta('c-2'), codex.user('first'), codex.shell('x1', 'make'), codex.output('x1', 2));
    const fork = jsonl(
      codex.meta('c-3'),
      codex.user('first'),
      codex.shell('x1', 'make'),
      codex.output('x1', 2),
      codex.user('second'),
      codex.shell('x1', 'make test'),
      codex.output('x1', 0),
    );
    const forked = groundTruth([
      { name: 'b.jsonl', text: fork },
      { name: 'a.jsonl', text: source },
    ]);
    expect(forked.commands.map((command) => [command.command, command.runs, command.ok])).toEqual([
      ['make', 1, false],
      ['make test', 1, true],
    ]);
    expect(forked.unresolvedFailures).toEqual([{ target: 'make', kind: 'command' }]);
    expect(forked.lastUserRequest).toBe('second');
  });
});

describe('ground truth of a Claude Code session', () => {
  const main = jsonl(
    claude.user('add a dump script'),
    claudeLine('assistant', [
      { type: 'thinking', thinking: 'The user wants a script that dumps the cache', signature: 'x' },
    ]),
    claude.tool('t1', 'Write', { file_path: '/w/app/scripts/dump.py', content: 'x' }),
    claude.result('t1', 'File created'),
    claude.tool('t2', 'TodoWrite', {
      todos: [
        { content: 'Write script', status: 'completed' },
        { content: 'Document it', status: 'pending' },
      ],
    }),
    claude.tool('t3', 'Read', { file_path: '/w/app/missing.py' }),
    claude.result('t3', 'File does not exist.', true),
    claude.tool('t4', 'Bash', { command: 'rg -n Cache tests' }),
    claude.result('t4', 'Exit code 1', true),
    claude.tool('t5', 'Task', { prompt: 'fix the flaky test', subagent_type: 'general-purpose' }),
    claude.user('fix the flaky test', { isSidechain: true }),
    claude.tool('s1', 'Bash', { command: 'npx jest tests/a.test.ts' }, { isSidechain: true }),
    claude.result('s1', 'Exit code 1\nFAIL tests/a.test.ts', true, { isSidechain: true }),
    claude.tool(
      's2',
      'Edit',
      { file_path: '/w/app/tests/a.test.ts', old_string: 'a', new_string: 'b' },
      { isSidechain: true },
    ),
    claude.result('s2', 'ok', false, { isSidechain: true }),
    claude.tool('s3', 'Bash', { command: 'npx jest' }, { isSidechain: true }),
    claude.result('s3', 'Tests: 4 passed', false, { isSidechain: true }),
    claude.say('Added the script. Should the dump be JSON?'),
    claude.user('<command-name>/clear</command-name>\n<command-args></command-args>', { isMeta: true }),
    claude.user('yes JSON. then remove it and rename pebble/a.py to pebble/b.py'),
    claude.tool('t6', 'Bash', { command: 'rm scripts/dump.py && git mv pebble/a.py pebble/b.py' }),
    claude.result('t6', ''),
    claude.tool('t7', 'Edit', { file_path: '/w/app/pebble/b.py', old_string: 'a', new_string: 'b' }),
    claude.result('t7', 'String to replace not found', true),
  );
  const truth = groundTruth([{ name: 's-1.jsonl', text: main }]);

  it('lists files with their final state: a written file removed is deleted, a rename keeps its origin', () => {
    expect(truth.files).toEqual([
      { path: 'tests/a.test.ts', state: 'modified', from: null },
      { path: 'scripts/dump.py', state: 'deleted', from: null },
      { path: 'pebble/b.py', state: 'renamed', from: 'pebble/a.py' },
    ]);
  });

  it('counts subagent work, settles a failure a broader later run passes, and a search with no match is no failure', () => {
    expect(truth.commands.find((command) => command.command === 'npx jest tests/a.test.ts')).toMatchObject({
      ok: true,
      fixed: true,
    });
    expect(truth.explorationCommands).toBe(1);
    expect(truth.unresolvedFailures).toEqual([{ target: 'pebble/b.py', kind: 'edit' }]);
  });

  it('takes the user requests, not the subagent task nor meta lines; answered questions; open todos', () => {
    expect(truth.lastUserRequest).toBe('yes JSON. then remove it and rename pebble/a.py to pebble/b.py');
    expect(truth.answeredQuestions).toEqual(['Should the dump be JSON?']);
    expect(truth.openTodos).toEqual(['Document it']);
    expect(truth.reasoning).toEqual(['The user wants a script that dumps the cache'.slice(0, 40)]);
  });

  it('reads a resumed file that copies lines (same uuids) once, and a subagent folder file as subagent work', () => {
    const lines = main.split('\n');
    const resumed = jsonl(
      ...lines.slice(-4).map((line) => JSON.parse(line) as object),
      claude.user('and the slash command'),
    );
    const agent = jsonl(
      claude.user('review it', { isSidechain: true }),
      claude.tool('a1', 'Bash', { command: 'npm run build' }, { isSidechain: true }),
      claude.result('a1', 'Exit code 2\nerror TS2304', true, { isSidechain: true }),
    );
    const both = groundTruth([
      { name: 's-1.jsonl', text: main },
      { name: 's-2.jsonl', text: resumed },
      { name: 's-1/subagents/agent-1.jsonl', text: agent },
    ]);
    expect(both.commands.find((command) => command.command.startsWith('rm '))!.runs).toBe(1);
    expect(both.lastUserRequest).toBe('and the slash command');
    expect(both.unresolvedFailures).toContainEqual({ target: 'npm run build', kind: 'command' });
  });

  it('names a slash command as the request it was', () => {
    const slash = groundTruth([
      {
        name: 'x.jsonl',
        text: jsonl(claude.user('<command-name>/workflow</command-name>\n<command-args>release notes</command-args>')),
      },
    ]);
    expect(slash.lastUserRequest).toBe('/workflow release notes');
  });
});

describe('isExploration', () => {
  it.each([
    ['ls -la', true],
    ["sed -n '1,80p' src/a.ts | nl", true],
    ['rg -n "x > y" src', true],
    ['git status && git diff --stat', true],
    ["sed -i 's/a/b/' src/a.ts", false],
    ['cat a > b', false],
    ['find . -name "*.tmp" -delete', false],
    ['npm test', false],
    ['git commit -m x', false],
  ])('%s: %s', (command, expected) => {
    expect(isExploration(command)).toBe(expected);
  });
});
