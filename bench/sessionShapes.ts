// Synthetic Codex rollouts and Claude Code sessions that are shaped like a day's real work, for the
// import-rate bench: written here from the record shapes of test/fixtures/sessions (themselves
// written from the formats' public sources), never copied from anyone's sessions.
//
// Real sessions are not one big tool output per turn. A turn is a request followed by a dozen or so
// tool calls: mostly file reads and searches, some edits, a test run now and then that fails before
// it passes. Around every call come the records each agent adds: Codex's encrypted reasoning and its
// summary, a token count, and a patch's apply event (the events a rollout keeps by default, not the
// command events of its full-history mode); Claude Code's thinking
// blocks, one line per content block and the tool's structured result beside its text (an Edit's
// whole original file). So a MiB holds many small records and a few turns, and the parse per record,
// not the bytes, is what an import pays for. The shape is drawn from SESSION_SHAPE with a fixed seed,
// so every run of the bench imports the same files.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { between, randomNumbers } from './random.js';

/** What a turn of real work holds, as ranges drawn uniformly unless said otherwise. */
const SESSION_SHAPE = {
  toolCallsPerTurn: { min: 3, max: 28 },
  /** Shares of the calls: read a file, search, edit, run the tests, any other command. */
  callMix: { read: 0.4, search: 0.2, edit: 0.2, test: 0.12, other: 0.08 },
  readLines: { min: 30, max: 260 },
  searchHits: { min: 0, max: 40 },
  editLines: { min: 3, max: 60 },
  testOutputLines: { min: 15, max: 320 },
  /** A test run fails this often; the next one in the turn passes. */
  testFailureShare: 0.3,
  /** Codex: base64 of an encrypted reasoning item before each call. */
  reasoningChars: { min: 600, max: 4000 },
  /** Claude Code: a thinking block before this share of calls. */
  thinkingShare: 0.35,
  thinkingChars: { min: 200, max: 2400 },
} as const;

const SHAPE_SEED = 20_261_205;

/** The bench's deterministic generator (random.ts), with the draws the session files need: the same files in every run. */
function randomStream(seed: number) {
  const next = randomNumbers(seed);
  return {
    next,
    between: (range: { min: number; max: number }) => between(next, range),
    /** A kind drawn by its share; rounding leaves any remainder to the last kind. */
    pick<K extends string>(shares: Record<K, number>): K {
      const kinds = Object.keys(shares) as K[];
      let left = next();
      for (const kind of kinds) {
        left -= shares[kind];
        if (left < 0) return kind;
      }
      const last = kinds.at(-1);
      if (last === undefined) throw new Error('pick needs at least one share');
      return last;
    },
  };
}
type Random = ReturnType<typeof randomStream>;

const CWD = '/home/dev/ledger';
const MODULES = ['accounts', 'journal', 'ledger', 'money', 'parser', 'report', 'rules', 'store', 'sync', 'time'];
/** The project's files, by number. */
const moduleAt = (n: number) => MODULES[n % MODULES.length] ?? 'ledger';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const sourceLine = (file: string, n: number) =>
  n % 7 === 0
    ? `export function ${file}Step${n}(input: Entry[]): Result {`
    : `  const value${n} = normalize(input[${n % 13}], { strict: ${n % 2 === 0} }); // ${file}:${n}`;
const sourceText = (file: string, lines: number) =>
  Array.from({ length: lines }, (_, i) => sourceLine(file, i + 1)).join('\n');
const opaque = (random: Random, chars: number) => {
  let text = 'gAAAAA';
  while (text.length < chars) text += BASE64.charAt(Math.floor(random.next() * 64));
  return text;
};
const prose = (random: Random, chars: number) => {
  const words = ['the', 'ledger', 'entry', 'balance', 'check', 'test', 'parser', 'should', 'keep', 'rounding'];
  let text = 'Looking at';
  while (text.length < chars) text += ` ${words[Math.floor(random.next() * words.length)] ?? ''}`;
  return `${text}.`;
};

/** One tool call of a turn: the command, its output and exit code, and the file it edits if any. */
interface Call {
  kind: keyof typeof SESSION_SHAPE.callMix;
  command: string;
  output: string;
  exitCode: number;
  edit?: { path: string; before: string; after: string; lines: number };
}

function drawCalls(random: Random, turn: number): Call[] {
  const calls: Call[] = [];
  let failing = false;
  const count = random.between(SESSION_SHAPE.toolCallsPerTurn);
  for (let i = 0; i < count; i++) {
    const module = moduleAt(turn + i);
    const path = `src/${module}.ts`;
    const kind = failing ? 'test' : random.pick(SESSION_SHAPE.callMix);
    switch (kind) {
      case 'read': {
        const lines = random.between(SESSION_SHAPE.readLines);
        calls.push({ kind, command: `sed -n '1,${lines}p' ${path}`, output: sourceText(module, lines), exitCode: 0 });
        break;
      }
      case 'search': {
        const hits = random.between(SESSION_SHAPE.searchHits);
        const output = Array.from({ length: hits }, (_, h) => `src/${moduleAt(h)}.ts:${h * 7 + 3}:  ${module}(x)`);
        calls.push({ kind, command: `rg -n "${module}\\(" src`, output: output.join('\n'), exitCode: hits ? 0 : 1 });
        break;
      }
      case 'edit': {
        const lines = random.between(SESSION_SHAPE.editLines);
        const before = sourceText(module, lines);
        const after = before.replace(/strict: false/g, 'strict: true');
        calls.push({
          kind,
          command: `apply_patch ${path}`,
          output: `M ${path}`,
          exitCode: 0,
          edit: { path, before, after, lines },
        });
        break;
      }
      case 'test': {
        const lines = random.between(SESSION_SHAPE.testOutputLines);
        const fails: boolean = !failing && random.next() < SESSION_SHAPE.testFailureShare;
        const body = Array.from(
          { length: lines },
          (_, l) => ` ✓ test/${moduleAt(l)}.test.ts > case ${l} (${l % 9} ms)`,
        );
        const tail = fails
          ? ` FAIL test/${module}.test.ts > rounds half up\nAssertionError: expected 10.05 to be 10.1\n Tests  1 failed | ${lines} passed`
          : ` Tests  ${lines} passed (${lines})`;
        calls.push({ kind, command: 'npx vitest run', output: `${body.join('\n')}\n${tail}`, exitCode: fails ? 1 : 0 });
        failing = fails;
        break;
      }
      case 'other':
        calls.push({ kind, command: 'git status --short', output: ` M ${path}\n?? notes.md`, exitCode: 0 });
        break;
    }
  }
  return calls;
}

/** The lines of one turn, given its number, the calls drawn for it and a random stream. */
type TurnWriter = (turn: number, calls: Call[], random: Random) => string[];

/** Writes turns until the file holds `targetBytes`; returns how many turns it wrote. */
async function writeTurns(file: string, targetBytes: number, header: string[], turnLines: TurnWriter): Promise<number> {
  const random = randomStream(SHAPE_SEED);
  const out = createWriteStream(file);
  const write = async (records: string[]) => {
    for (const record of records) {
      const text = `${record}\n`;
      bytes += Buffer.byteLength(text);
      if (!out.write(text)) await once(out, 'drain');
    }
  };
  let bytes = 0;
  let turn = 0;
  await write(header);
  for (; bytes < targetBytes; turn++) await write(turnLines(turn, drawCalls(random, turn), random));
  out.end();
  await once(out, 'finish');
  return turn;
}

const at = (turn: number, step: number) => new Date(Date.UTC(2025, 5, 1) + turn * 600_000 + step * 1000).toISOString();
const request = (turn: number) => `Step ${turn}: make the ${moduleAt(turn)} totals round half up, then run the tests`;
const answer = (turn: number, calls: Call[]) =>
  `Done: ${calls.filter((c) => c.edit).length} edits, and the tests pass.\n\nStep ${turn} rounds half up now.`;

/** A Codex rollout of the current shape (exec_command calls, apply_patch as a custom tool). */
export function writeCodexRollout(file: string, bytes: number, sessionId: string): Promise<number> {
  const line = (turn: number, step: number, type: string, payload: unknown) =>
    JSON.stringify({ timestamp: at(turn, step), type, payload });
  const header = [
    line(0, 0, 'session_meta', {
      id: sessionId,
      timestamp: at(0, 0),
      cwd: CWD,
      originator: 'codex_cli_rs',
      cli_version: '0.140.0',
      source: 'cli',
      model_provider: 'openai',
      git: { branch: 'main' },
      instructions: null,
    }),
  ];
  return writeTurns(file, bytes, header, (turn, calls, random) => {
    const turnId = `turn-${sessionId.slice(-12)}-${turn.toString().padStart(6, '0')}`;
    const records = [
      line(turn, 1, 'turn_context', {
        turn_id: turnId,
        cwd: CWD,
        approval_policy: 'on-request',
        sandbox_policy: { type: 'workspace-write', network_access: false },
        model: 'gpt-5.2-codex',
        effort: 'medium',
        summary: 'auto',
      }),
      line(turn, 1, 'event_msg', { type: 'task_started', turn_id: turnId, model_context_window: 272000 }),
      line(turn, 2, 'response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: request(turn) }],
      }),
      line(turn, 2, 'event_msg', { type: 'user_message', message: request(turn), images: [] }),
    ];
    calls.forEach((call, i) => {
      const step = 3 + i * 3;
      const callId = `call_${turn}_${i}`;
      records.push(
        line(turn, step, 'response_item', {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: `**Checking ${call.kind}**` }],
          content: null,
          encrypted_content: opaque(random, random.between(SESSION_SHAPE.reasoningChars)),
        }),
        line(turn, step, 'event_msg', { type: 'agent_reasoning', text: `**Checking ${call.kind}**` }),
      );
      if (call.edit) {
        const patch = `*** Begin Patch\n*** Update File: ${call.edit.path}\n@@\n${call.edit.before
          .split('\n')
          .map((l) => `-${l}`)
          .join('\n')}\n${call.edit.after
          .split('\n')
          .map((l) => `+${l}`)
          .join('\n')}\n*** End Patch`;
        const result = `Success. Updated the following files:\nM ${CWD}/${call.edit.path}\n`;
        records.push(
          line(turn, step, 'response_item', {
            type: 'custom_tool_call',
            status: 'completed',
            call_id: callId,
            name: 'apply_patch',
            input: patch,
          }),
          line(turn, step + 1, 'event_msg', {
            type: 'patch_apply_end',
            call_id: callId,
            turn_id: turnId,
            stdout: result,
            stderr: '',
            success: true,
            changes: { [`${CWD}/${call.edit.path}`]: { type: 'update', unified_diff: patch, move_path: null } },
          }),
          line(turn, step + 1, 'response_item', {
            type: 'custom_tool_call_output',
            call_id: callId,
            output: JSON.stringify({ output: result, metadata: { exit_code: 0, duration_seconds: 0.1 } }),
          }),
        );
      } else {
        records.push(
          line(turn, step, 'response_item', {
            type: 'function_call',
            name: 'exec_command',
            arguments: JSON.stringify({ cmd: call.command, workdir: CWD, yield_time_ms: 10000 }),
            call_id: callId,
          }),
          line(turn, step + 1, 'response_item', {
            type: 'function_call_output',
            call_id: callId,
            output: `Chunk ID: ${callId}\nWall time: 1.0000 seconds\nProcess exited with code ${call.exitCode}\nOutput:\n${call.output}`,
          }),
        );
      }
      records.push(
        line(turn, step + 2, 'event_msg', {
          type: 'token_count',
          info: {
            total_token_usage: {
              input_tokens: 20000 + i * 900,
              cached_input_tokens: 18000 + i * 850,
              output_tokens: 400 + i * 60,
              reasoning_output_tokens: 200,
              total_tokens: 20400 + i * 960,
            },
            last_token_usage: {
              input_tokens: 900,
              cached_input_tokens: 850,
              output_tokens: 60,
              reasoning_output_tokens: 20,
              total_tokens: 960,
            },
            model_context_window: 272000,
          },
          rate_limits: {
            primary: { used_percent: 12, window_minutes: 300, resets_at: 1_749_000_000 },
            secondary: null,
          },
        }),
      );
    });
    const end = 3 + calls.length * 3;
    records.push(
      line(turn, end, 'response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: answer(turn, calls) }],
      }),
      line(turn, end, 'event_msg', { type: 'agent_message', message: answer(turn, calls) }),
      line(turn, end, 'event_msg', { type: 'task_complete', turn_id: turnId, last_agent_message: answer(turn, calls) }),
    );
    return records;
  });
}

/** A Claude Code 2.x session: one line per content block, each tool's structured result beside its text. */
export function writeClaudeSession(file: string, bytes: number, sessionId: string): Promise<number> {
  let previous: string | null = null;
  let uuids = 0;
  const model = 'claude-sonnet-4-5-20250929';
  const record = (turn: number, step: number, type: 'user' | 'assistant', message: unknown, extra: object = {}) => {
    const uuid = `${sessionId.slice(0, 8)}-0000-4000-8000-${(uuids++).toString(16).padStart(12, '0')}`;
    const text = JSON.stringify({
      parentUuid: previous,
      isSidechain: false,
      userType: 'external',
      cwd: CWD,
      sessionId,
      version: '2.1.4',
      gitBranch: 'main',
      type,
      message,
      ...extra,
      uuid,
      timestamp: at(turn, step),
    });
    previous = uuid;
    return text;
  };
  const assistant = (turn: number, step: number, id: string, block: object) =>
    record(turn, step, 'assistant', {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [block],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 4,
        cache_creation_input_tokens: 812,
        cache_read_input_tokens: 18000 + step * 190,
        output_tokens: 220,
      },
    });
  return writeTurns(file, bytes, [], (turn, calls, random) => {
    const records = [
      JSON.stringify({
        type: 'file-history-snapshot',
        messageId: `snap-${turn}`,
        snapshot: { messageId: `snap-${turn}`, trackedFileBackups: {}, timestamp: at(turn, 0) },
        isSnapshotUpdate: false,
      }),
      record(turn, 0, 'user', { role: 'user', content: request(turn) }),
    ];
    calls.forEach((call, i) => {
      const step = 1 + i * 2;
      const messageId = `msg_${turn}_${i}`;
      const toolId = `toolu_${turn}_${i}`;
      if (random.next() < SESSION_SHAPE.thinkingShare)
        records.push(
          assistant(turn, step, messageId, {
            type: 'thinking',
            thinking: prose(random, random.between(SESSION_SHAPE.thinkingChars)),
            signature: opaque(random, 400),
          }),
        );
      const path = call.edit?.path ?? `src/${moduleAt(turn + i)}.ts`;
      const [name, input, result]: [string, object, object] =
        call.kind === 'read'
          ? [
              'Read',
              { file_path: `${CWD}/${path}` },
              {
                type: 'text',
                file: {
                  filePath: `${CWD}/${path}`,
                  content: call.output,
                  numLines: call.output.split('\n').length,
                  startLine: 1,
                  totalLines: 400,
                },
              },
            ]
          : call.edit
            ? [
                'Edit',
                { file_path: `${CWD}/${path}`, old_string: call.edit.before, new_string: call.edit.after },
                {
                  filePath: `${CWD}/${path}`,
                  oldString: call.edit.before,
                  newString: call.edit.after,
                  originalFile: sourceText(path, 400),
                  structuredPatch: [
                    {
                      oldStart: 1,
                      oldLines: call.edit.lines,
                      newStart: 1,
                      newLines: call.edit.lines,
                      lines: call.edit.after.split('\n').map((l) => `+${l}`),
                    },
                  ],
                  userModified: false,
                  replaceAll: false,
                },
              ]
            : call.kind === 'search'
              ? [
                  'Grep',
                  { pattern: `${moduleAt(turn + i)}\\(`, path: `${CWD}/src`, output_mode: 'content', '-n': true },
                  { mode: 'content', content: call.output, numLines: call.output ? call.output.split('\n').length : 0 },
                ]
              : [
                  'Bash',
                  { command: call.command, description: `Run ${call.command}` },
                  { stdout: call.output, stderr: '', interrupted: false, isImage: false },
                ];
      const failed = call.exitCode !== 0 && name === 'Bash';
      const text = failed
        ? `Exit code ${call.exitCode}\n${call.output}`
        : call.kind === 'read'
          ? call.output
              .split('\n')
              .map((l, n) => `${String(n + 1).padStart(6)}→${l}`)
              .join('\n')
          : call.edit
            ? `The file ${CWD}/${path} has been updated.`
            : call.output;
      records.push(
        assistant(turn, step, messageId, { type: 'tool_use', id: toolId, name, input }),
        record(
          turn,
          step + 1,
          'user',
          {
            role: 'user',
            content: [
              { tool_use_id: toolId, type: 'tool_result', content: text, ...(failed ? { is_error: true } : {}) },
            ],
          },
          { toolUseResult: failed ? `Error: Exit code ${call.exitCode}\n${call.output}` : result },
        ),
      );
    });
    records.push(assistant(turn, 1 + calls.length * 2, `msg_${turn}_end`, { type: 'text', text: answer(turn, calls) }));
    return records;
  });
}
