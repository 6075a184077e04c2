// The ground truth of a handoff, read straight from raw Codex and Claude Code session records: what a
// successor must be told, decided here and nowhere else. Deliberately simple and on purpose apart from
// the session adapters (src/sessions/): it shares no code with them, so what they drop cannot hide
// from the evaluation that uses it (tools/evalHandoffs.ts). Pure: the caller reads the files.
//
// Its simplifications, each on the side of asking the handoff for more rather than less:
// - Subagent work (inline sidechain lines, subagents/ files) counts as the project's work: its files,
//   commands and failures are real; its task prompts are not the user's requests.
// - A file change comes from an edit tool (apply_patch, Edit, MultiEdit, Write, NotebookEdit) or a
//   shell command of a few plain shapes: rm, git rm, mv, git mv, cp, sed -i, and output redirection.
// - A command is exploration when every part of it runs a read-only program (EXPLORATION below).

export interface RawFile {
  /** The file's path relative to the case folder: `subagents/` in it marks a subagent's file. */
  name: string;
  text: string;
}

export type FinalState = 'added' | 'modified' | 'deleted' | 'renamed';

export interface TruthFile {
  path: string;
  state: FinalState;
  /** For a rename, the path it had. */
  from: string | null;
}

export interface TruthCommand {
  command: string;
  /** Its last run's outcome. */
  ok: boolean;
  exitCode: number | null;
  runs: number;
  /** It failed at least once before its last run succeeded. */
  fixed: boolean;
}

export interface TruthFailure {
  /** The command that still fails, or the path an edit still fails on. */
  target: string;
  kind: 'command' | 'edit';
}

export interface GroundTruth {
  files: TruthFile[];
  /** Non-exploration commands, each once, with its last outcome. */
  commands: TruthCommand[];
  unresolvedFailures: TruthFailure[];
  /** The items of the last plan or todo list not completed. */
  openTodos: string[];
  /** Items of the last plan or todo list that are completed. */
  doneTodos: string[];
  lastUserRequest: string | null;
  /** Questions the assistant asked that a later user turn answered. */
  answeredQuestions: string[];
  explorationCommands: number;
  /** Searches (grep, rg, ...) that found nothing (exit 1): no failure, whatever their exit code. */
  searchesWithoutMatch: string[];
  /** Openings of the model's reasoning and thinking texts: none may reach a handoff. */
  reasoning: string[];
}

interface Command {
  kind: 'command';
  id: string;
  command: string;
  cwd: string | null;
  ok: boolean | null;
  exitCode: number | null;
}
interface FileEdit {
  kind: 'edit';
  id: string;
  changes: { path: string; change: 'add' | 'update' | 'delete' | 'write'; to?: string }[];
  ok: boolean | null;
}
type Event =
  | Command
  | FileEdit
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  | { kind: 'plan'; items: { text: string; done: boolean }[] }
  | { kind: 'reasoning'; text: string };

interface Timeline {
  cwd: string | null;
  events: Event[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function records(text: string): Json[] {
  const out: Json[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed: unknown = JSON.parse(line);
      if (isObject(parsed)) out.push(parsed);
    } catch {
      // A torn or foreign line says nothing about the session.
    }
  }
  return out;
}

/**
 * The truth of one project's session files (a case folder): files in the order they started, each in
 * its own order (never by timestamps, which may run backwards), a record or call copied into a later
 * file (a resume, a fork) read once by its id.
 */
export function groundTruth(files: readonly RawFile[]): GroundTruth {
  const read = files
    .filter((file) => file.name.endsWith('.jsonl'))
    .map((file) => {
      const lines = records(file.text);
      const start = lines.map((line) => str(line.timestamp)).find((time) => time !== null) ?? '';
      return { file, lines, start };
    })
    .filter(({ lines }) => lines.length > 0)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const seen = new Set<string>();
  const timelines = read.map(({ file, lines }) =>
    lines.some((line) => line.type === 'session_meta' || line.type === 'response_item')
      ? readCodex(lines, seen)
      : readClaude(lines, seen, /(^|\/)subagents\//.test(file.name)),
  );
  const cwd = timelines.find((timeline) => timeline.cwd !== null)?.cwd ?? null;
  return truthOf(
    timelines.flatMap((timeline) => timeline.events),
    cwd,
  );
}

// ---------------------------------------------------------------------------------------------- Codex

// Text Codex puts in user-role messages that the user did not type.
const CODEX_INJECTED =
  /^\s*(# AGENTS\.md instructions|<environment_context>|<user_instructions>|<INSTRUCTIONS>|<user_shell_command>|<turn_aborted>)/;

function readCodex(lines: Json[], seen: Set<string>): Timeline {
  const events: Event[] = [];
  const commands = new Map<string, Command>();
  const edits = new Map<string, FileEdit>();
  let cwd: string | null = null;
  const lastOf = (kind: 'user' | 'assistant') => {
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i]!;
      if (event.kind === 'user') return kind === 'user' ? event.text : null;
      if (event.kind === kind) return event.text;
    }
    return null;
  };
  // The same message arrives as a response item and as an event: keep it once per turn.
  const say = (kind: 'user' | 'assistant', text: string | null) => {
    if (text === null || text.trim() === '') return;
    if (kind === 'user' && CODEX_INJECTED.test(text)) return;
    if (lastOf(kind) === text) return;
    events.push({ kind, text });
  };
  const command = (id: string, text: string, workdir: string | null) => {
    if (commands.has(id)) return commands.get(id)!;
    // A fork or a later page may copy a call: the same id with the same command is the same call.
    if (seen.has(`${id}\u0000${text}`)) return null;
    seen.add(`${id}\u0000${text}`);
    const event: Command = { kind: 'command', id, command: text, cwd: workdir ?? cwd, ok: null, exitCode: null };
    commands.set(id, event);
    events.push(event);
    return event;
  };
  const settle = (id: string, exitCode: number | null, ok: boolean | null) => {
    const known = commands.get(id) ?? edits.get(id);
    if (!known) return;
    if (known.kind === 'command' && exitCode !== null) known.exitCode = exitCode;
    if (ok !== null) known.ok = ok;
    else if (exitCode !== null) known.ok = exitCode === 0;
  };
  const edit = (id: string, changes: FileEdit['changes']) => {
    const known = edits.get(id);
    if (known) {
      if (known.changes.length === 0) known.changes = changes;
      return known;
    }
    const copy = `${id}\u0000${JSON.stringify(changes)}`;
    if (seen.has(copy)) return { kind: 'edit', id, changes, ok: null } satisfies FileEdit;
    seen.add(copy);
    const event: FileEdit = { kind: 'edit', id, changes, ok: null };
    edits.set(id, event);
    events.push(event);
    return event;
  };

  for (const line of lines) {
    const payload = isObject(line.payload) ? line.payload : {};
    if (line.type === 'session_meta') cwd ??= str(payload.cwd);
    if (line.type === 'turn_context') cwd = str(payload.cwd) ?? cwd;
    if (line.type === 'response_item') {
      const type = payload.type;
      if (type === 'reasoning') {
        const parts: unknown[] = [payload.summary, payload.content].flatMap((list: unknown) =>
          Array.isArray(list) ? (list as unknown[]) : [],
        );
        for (const part of parts)
          if (isObject(part) && str(part.text)) events.push({ kind: 'reasoning', text: str(part.text)! });
      }
      if (type === 'message') {
        const text = contentText(payload.content);
        if (payload.role === 'user') say('user', text);
        if (payload.role === 'assistant') say('assistant', text);
      } else if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
        const id = str(payload.call_id) ?? str(payload.id) ?? `call-${events.length}`;
        const name = str(payload.name) ?? (type === 'local_shell_call' ? 'shell' : '');
        const args =
          type === 'custom_tool_call' ? { input: payload.input } : parseArgs(payload.arguments ?? payload.action);
        if (name === 'update_plan' && Array.isArray(args.plan)) {
          events.push({
            kind: 'plan',
            items: args.plan.filter(isObject).map((item) => ({
              text: str(item.step) ?? '',
              done: item.status === 'completed',
            })),
          });
          continue;
        }
        if (name === 'apply_patch') {
          edit(id, patchChanges(str(args.input) ?? str(args.patch) ?? ''));
          continue;
        }
        const shell = shellText(args);
        if (shell === null) continue;
        if (/^apply_patch\b/.test(shell.text)) edit(id, patchChanges(shell.text));
        else command(id, shell.text, shell.workdir);
      } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
        const id = str(payload.call_id);
        if (id) settle(id, ...outputOutcome(payload.output));
      }
    }
    if (line.type === 'event_msg') {
      const type = payload.type;
      if (type === 'user_message') say('user', str(payload.message));
      if ((type === 'agent_reasoning' || type === 'agent_reasoning_raw_content') && str(payload.text))
        events.push({ kind: 'reasoning', text: str(payload.text)! });
      if (type === 'agent_message') say('assistant', str(payload.message));
      if (type === 'task_complete') say('assistant', str(payload.last_agent_message));
      if (type === 'exec_command_end' && str(payload.call_id)) {
        const exit = typeof payload.exit_code === 'number' ? payload.exit_code : null;
        settle(str(payload.call_id)!, exit, null);
      }
      if (type === 'patch_apply_end' && str(payload.call_id)) {
        const known = edit(str(payload.call_id)!, changeMap(payload.changes));
        if (typeof payload.success === 'boolean') known.ok = payload.success;
      }
      if (type === 'item_completed' && isObject(payload.item)) {
        const item = payload.item;
        const id = str(item.id) ?? `item-${events.length}`;
        if (item.type === 'UserMessage') say('user', contentText(item.content));
        if (item.type === 'AgentMessage') say('assistant', contentText(item.content) ?? str(item.text));
        if (item.type === 'CommandExecution') {
          const text = Array.isArray(item.command) ? unwrapShell(item.command) : str(item.command);
          if (text !== null) {
            command(id, text, str(item.cwd)?.replace(/^file:\/\//, '') ?? null);
            const exit = typeof item.exitCode === 'number' ? item.exitCode : null;
            settle(
              id,
              exit,
              item.status === 'failed' ? false : item.status === 'completed' ? exit === null || exit === 0 : null,
            );
          }
        }
        if (item.type === 'FileChange') {
          const known = edit(id, changeMap(item.changes));
          if (item.status === 'completed' || item.status === 'failed') known.ok = item.status === 'completed';
        }
        if (item.type === 'Plan' && Array.isArray(item.plan)) {
          events.push({
            kind: 'plan',
            items: item.plan.filter(isObject).map((entry) => ({
              text: str(entry.step) ?? '',
              done: entry.status === 'completed',
            })),
          });
        }
      }
    }
  }
  return { cwd, events };
}

function parseArgs(value: unknown): Json {
  if (isObject(value)) return value;
  if (typeof value !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function shellText(args: Json): { text: string; workdir: string | null } | null {
  const workdir = str(args.workdir) ?? str(args.cwd);
  if (Array.isArray(args.command)) return { text: unwrapShell(args.command), workdir };
  const text = str(args.command) ?? str(args.cmd);
  return text === null ? null : { text, workdir };
}

/** `["bash", "-lc", "npm test"]` is `npm test`. */
function unwrapShell(argv: unknown[]): string {
  const parts = argv.map(String);
  if (parts.length >= 3 && /(^|\/)(ba|z)?sh$/.test(parts[0]!) && /^-l?c$/.test(parts[1]!))
    return parts.slice(2).join(' ');
  return parts.join(' ');
}

/** A tool output's exit code and success: Codex wrote JSON with metadata, later plain text. */
function outputOutcome(output: unknown): [number | null, boolean | null] {
  const text = typeof output === 'string' ? output : isObject(output) ? JSON.stringify(output) : '';
  const parsed = parseArgs(text);
  if (isObject(parsed.metadata) && typeof parsed.metadata.exit_code === 'number')
    return [parsed.metadata.exit_code, parsed.metadata.exit_code === 0];
  const exited = /(?:Process exited with code|Exit code:?)\s*(-?\d+)/i.exec(text);
  if (exited) return [Number(exited[1]), Number(exited[1]) === 0];
  if (/^Success\./.test(text)) return [null, true];
  return [null, null];
}

function patchChanges(patch: string): FileEdit['changes'] {
  const changes: FileEdit['changes'] = [];
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line.trim());
    if (header) {
      const change = header[1] === 'Add' ? 'add' : header[1] === 'Delete' ? 'delete' : 'update';
      changes.push({ path: header[2]!.trim(), change });
    }
    const move = /^\*\*\* Move to: (.+)$/.exec(line.trim());
    if (move && changes.length > 0) changes[changes.length - 1]!.to = move[1]!.trim();
  }
  return changes;
}

/** The `changes` map of a patch event: path -> {type: add|update|delete, move_path}. */
function changeMap(value: unknown): FileEdit['changes'] {
  if (!isObject(value)) return [];
  return Object.entries(value).map(([path, change]) => {
    const entry = isObject(change) ? change : {};
    const type = entry.type === 'add' ? 'add' : entry.type === 'delete' ? 'delete' : 'update';
    const to = str(entry.move_path) ?? undefined;
    return to ? { path, change: type, to } : { path, change: type };
  });
}

function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts = content.filter(isObject).flatMap((part) => {
    const text = str(part.text);
    return text !== null && part.type !== 'tool_result' ? [text] : [];
  });
  return texts.length === 0 ? null : texts.join('\n');
}

// ---------------------------------------------------------------------------------------- Claude Code

const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

function readClaude(lines: Json[], seen: Set<string>, subagentFile: boolean): Timeline {
  const events: Event[] = [];
  const calls = new Map<string, Command | FileEdit>();
  let cwd: string | null = null;
  for (const line of lines) {
    const uuid = str(line.uuid);
    if (uuid !== null) {
      if (seen.has(uuid)) continue;
      seen.add(uuid);
    }
    cwd ??= str(line.cwd);
    const sidechain = subagentFile || line.isSidechain === true;
    const message = isObject(line.message) ? line.message : null;
    if (!message) continue;
    if (line.type === 'user') {
      const content = message.content;
      for (const part of Array.isArray(content) ? content.filter(isObject) : []) {
        if (part.type !== 'tool_result') continue;
        const call = calls.get(str(part.tool_use_id) ?? '');
        if (!call) continue;
        call.ok = part.is_error !== true;
        if (call.kind === 'command') call.exitCode = exitOf(part.content, call.ok);
        // Write says whether it created the file or replaced one.
        const written = isObject(line.toolUseResult) ? line.toolUseResult.type : null;
        if (call.kind === 'edit' && (written === 'create' || written === 'update'))
          call.changes = call.changes.map((change) => ({ ...change, change: written === 'create' ? 'add' : 'update' }));
      }
      if (sidechain || line.isMeta === true || line.isCompactSummary === true) continue;
      const text = userRequest(content);
      if (text !== null) events.push({ kind: 'user', text });
    }
    if (line.type === 'assistant' && Array.isArray(message.content)) {
      for (const part of message.content.filter(isObject)) {
        if (part.type === 'thinking' && str(part.thinking))
          events.push({ kind: 'reasoning', text: str(part.thinking)! });
        if (part.type === 'text' && !sidechain && str(part.text))
          events.push({ kind: 'assistant', text: str(part.text)! });
        if (part.type !== 'tool_use') continue;
        const id = str(part.id) ?? `tool-${events.length}`;
        const name = str(part.name) ?? '';
        const input = isObject(part.input) ? part.input : {};
        if (name === 'Bash' && str(input.command)) {
          const event: Command = {
            kind: 'command',
            id,
            command: str(input.command)!,
            cwd: str(line.cwd),
            ok: null,
            exitCode: null,
          };
          calls.set(id, event);
          events.push(event);
        } else if (EDIT_TOOLS.has(name)) {
          const path = str(input.file_path) ?? str(input.notebook_path);
          if (path === null) continue;
          const event: FileEdit = {
            kind: 'edit',
            id,
            changes: [{ path, change: name === 'Write' ? 'write' : 'update' }],
            ok: null,
          };
          calls.set(id, event);
          events.push(event);
        } else if (name === 'TodoWrite' && Array.isArray(input.todos) && !sidechain) {
          events.push({
            kind: 'plan',
            items: input.todos.filter(isObject).map((todo) => ({
              text: str(todo.content) ?? '',
              done: todo.status === 'completed',
            })),
          });
        } else if (name === 'AskUserQuestion' && Array.isArray(input.questions) && !sidechain) {
          for (const question of input.questions.filter(isObject))
            if (str(question.question)) events.push({ kind: 'assistant', text: str(question.question)! });
        }
      }
    }
  }
  return { cwd, events };
}

function exitOf(content: unknown, ok: boolean): number | null {
  const text = typeof content === 'string' ? content : (contentText(content) ?? '');
  const exited = /Exit code (\d+)/.exec(text);
  return exited ? Number(exited[1]) : ok ? 0 : null;
}

/** What the user asked in a user line, or null when it is no request (tool results, command output, an interruption). */
function userRequest(content: unknown): string | null {
  const text = contentText(content);
  if (text === null) return null;
  const name = /<command-name>([^<]*)<\/command-name>/.exec(text);
  if (name) {
    const args = /<command-args>([^<]*)<\/command-args>/.exec(text);
    return `${name[1]!.trim()} ${args?.[1]?.trim() ?? ''}`.trim();
  }
  if (/^\s*<(local-command-stdout|local-command-stderr|bash-stdout|bash-input)>/.test(text)) return null;
  const stripped = text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim();
  if (stripped === '' || /^\[Request interrupted by user/.test(stripped)) return null;
  return stripped;
}

// ---------------------------------------------------------------------------------------------- truth

/**
 * Read-only programs. `sed` only without -i, `find` only without -delete or -exec, `git` only with
 * a reading subcommand. Anything else (builds, tests, installs, writes) is not exploration.
 */
const EXPLORATION = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'nl',
  'wc',
  'rg',
  'grep',
  'egrep',
  'fgrep',
  'ag',
  'ack',
  'find',
  'fd',
  'tree',
  'pwd',
  'echo',
  'printf',
  'which',
  'type',
  'file',
  'stat',
  'du',
  'df',
  'sort',
  'uniq',
  'cut',
  'tr',
  'awk',
  'jq',
  'less',
  'more',
  'diff',
  'cmp',
  'realpath',
  'basename',
  'dirname',
  'date',
  'true',
  'sed',
  'git',
  'cd',
]);
const GIT_READS = new Set([
  'status',
  'diff',
  'log',
  'show',
  'branch',
  'blame',
  'grep',
  'ls-files',
  'rev-parse',
  'remote',
]);

/** The shell command's simple commands, split on && || ; | (quotes respected), each as words. */
function segments(command: string): string[][] {
  const out: string[][] = [];
  let words: string[] = [];
  let word = '';
  let quote: string | null = null;
  const endWord = () => {
    if (word !== '') words.push(word);
    word = '';
  };
  const endSegment = () => {
    endWord();
    if (words.length > 0) out.push(words);
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else word += c;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '\\' && i + 1 < command.length) word += command[++i];
    else if ((c === '&' || c === '|') && command[i + 1] === c) {
      endSegment();
      i++;
    } else if (c === ';' || c === '|' || c === '\n') endSegment();
    else if (c === ' ' || c === '\t') endWord();
    else word += c;
  }
  endSegment();
  return out;
}

/** A segment's words without leading VAR=value assignments. */
function program(words: string[]): string[] {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  return words.slice(i);
}

const WRITES_OUTPUT = /(^|[^0-9&>])>>?\s*(?!&|\/dev\/)/;

export function isExploration(command: string): boolean {
  if (WRITES_OUTPUT.test(command.replace(/'[^']*'|"[^"]*"/g, '').replace(/2>&1|2>\/dev\/null/g, ''))) return false;
  const parts = segments(command)
    .map(program)
    .filter((words) => words.length > 0);
  if (parts.length === 0) return true;
  return parts.every((words) => {
    const name = words[0]!.split('/').pop()!;
    if (!EXPLORATION.has(name)) return false;
    if (name === 'sed') return !words.some((word) => /^-[a-zA-Z]*i/.test(word) || word === '--in-place');
    if (name === 'find') return !words.some((word) => word === '-delete' || word === '-exec' || word === '-execdir');
    if (name === 'git') return GIT_READS.has(words.find((word, i) => i > 0 && !word.startsWith('-')) ?? '');
    return true;
  });
}

/** File changes a shell command makes in the plain shapes this reader knows. */
function shellChanges(command: string): FileEdit['changes'] {
  const changes: FileEdit['changes'] = [];
  for (const redirect of command.replace(/'[^']*'|"[^"]*"/g, '').matchAll(/(?:^|[^0-9&>])>>?\s*([^\s&|;>]+)/g))
    if (!redirect[1]!.startsWith('/dev/')) changes.push({ path: redirect[1]!, change: 'write' });
  for (const raw of segments(command)) {
    let words = program(raw);
    if (words[0] === 'git' && (words[1] === 'rm' || words[1] === 'mv')) words = words.slice(1);
    const args = words.slice(1).filter((word) => !word.startsWith('-'));
    const name = words[0];
    if (name === 'rm') for (const path of args) changes.push({ path, change: 'delete' });
    if (name === 'mv' && args.length === 2) changes.push({ path: args[0]!, change: 'update', to: args[1]! });
    if (name === 'cp' && args.length === 2) changes.push({ path: args[1]!, change: 'write' });
    if (name === 'sed' && words.some((word) => /^-[a-zA-Z]*i/.test(word) || word === '--in-place')) {
      // The script is the word after each -e, else the first operand; the rest are the files edited.
      const scripts = new Set(words.flatMap((word, i) => (word === '-e' ? [i + 1] : [])));
      const operands = words.slice(1).filter((word, i) => !word.startsWith('-') && !scripts.has(i + 1));
      for (const path of scripts.size > 0 ? operands : operands.slice(1)) changes.push({ path, change: 'update' });
    }
  }
  return changes;
}

// Shell keywords and wrappers around the programs that matter.
const WRAPPERS = new Set(['while', 'until', 'if', 'then', 'do', 'else', 'time', 'timeout']);

/**
 * The programs a command runs that are not exploration, each as its words: `for i in 1 2; do npx
 * jest a 2>&1 | tail -1; done` runs `npx jest a`.
 */
function cores(command: string): string[][] {
  const out: string[][] = [];
  for (const words of segments(command)) {
    let rest = program(words);
    if (rest[0] === 'for' || rest[0] === 'done' || rest[0] === 'fi') continue;
    while (rest.length > 0 && WRAPPERS.has(rest[0]!)) rest = rest.slice(rest[0] === 'timeout' ? 2 : 1);
    const kept = rest.filter((word, i) => !/^\d?>|^&>/.test(word) && !/^\d?>>?$/.test(rest[i - 1] ?? ''));
    if (kept.length > 0 && !isExploration(kept.join(' '))) out.push(kept);
  }
  return out;
}

/**
 * A later success settles an earlier failure when it runs each of the failure's programs again, the
 * same way or more broadly (same program and subcommand, a subset of its words: `npm test` after
 * `npm test -- shelves`, `npx tsc --noEmit && npx jest` after `npx tsc --noEmit`).
 */
function settles(success: string[][], failure: string[][]): boolean {
  if (failure.length === 0) return false;
  return failure.every((failed) =>
    success.some((ran) => ran[0] === failed[0] && ran[1] === failed[1] && ran.every((word) => failed.includes(word))),
  );
}

function relative(path: string, cwd: string | null): string {
  const clean = path.replace(/^file:\/\//, '');
  if (cwd !== null) {
    const base = cwd.endsWith('/') ? cwd : `${cwd}/`;
    if (clean.startsWith(base)) return clean.slice(base.length);
  }
  return clean.replace(/^\.\//, '');
}

const REASONING_OPENING = 40;
const REASONING_OPENING_MIN = 12;

function truthOf(events: Event[], cwd: string | null): GroundTruth {
  const files = new Map<string, TruthFile>();
  const commands = new Map<string, TruthCommand>();
  const failedEdits = new Set<string>();
  let exploration = 0;
  const noMatch = new Set<string>();
  let plan: { text: string; done: boolean }[] = [];
  let lastUser: string | null = null;
  let pendingQuestion: string | null = null;
  const answered: string[] = [];
  const reasoning = new Set<string>();

  const change = (raw: FileEdit['changes'][number], base: string | null) => {
    const path = relative(raw.path, base ?? cwd);
    const before = files.get(path);
    if (raw.to !== undefined) {
      const to = relative(raw.to, base ?? cwd);
      files.delete(path);
      const origin = before?.state === 'renamed' ? before.from : path;
      files.set(
        to,
        before?.state === 'added'
          ? { path: to, state: 'added', from: null }
          : { path: to, state: 'renamed', from: origin },
      );
      return;
    }
    if (raw.change === 'delete') {
      // A renamed file deleted later: the file that existed before the session, under its old name, is gone.
      const gone = before?.state === 'renamed' ? before.from! : path;
      files.delete(path);
      files.set(gone, { path: gone, state: 'deleted', from: null });
      return;
    }
    const kept = before && before.state !== 'deleted' ? before.state : null;
    const state: FinalState =
      kept ??
      (raw.change === 'add'
        ? 'added'
        : before?.state === 'deleted'
          ? 'modified'
          : raw.change === 'write'
            ? 'added'
            : 'modified');
    files.set(path, { path, state, from: before?.from ?? null });
  };

  for (const event of events) {
    if (event.kind === 'user') {
      lastUser = event.text;
      if (pendingQuestion !== null) answered.push(pendingQuestion);
      pendingQuestion = null;
    } else if (event.kind === 'assistant') {
      pendingQuestion = questionOf(event.text);
    } else if (event.kind === 'reasoning') {
      // Its opening, long enough not to match ordinary words.
      const opening = event.text.trim().replace(/\s+/g, ' ').slice(0, REASONING_OPENING);
      if (opening.length >= REASONING_OPENING_MIN) reasoning.add(opening);
    } else if (event.kind === 'plan') {
      plan = event.items.filter((item) => item.text !== '');
    } else if (event.kind === 'edit') {
      if (event.ok === false) {
        for (const raw of event.changes) failedEdits.add(relative(raw.path, cwd));
        continue;
      }
      for (const raw of event.changes) {
        change(raw, null);
        failedEdits.delete(relative(raw.to ?? raw.path, cwd));
      }
    } else if (isExploration(event.command)) {
      exploration++;
      const search = /^(rg|grep|egrep|fgrep|ag|ack|git grep)\b/.test(event.command.trim());
      if (search && event.exitCode === 1) noMatch.add(event.command.trim().replace(/\s+/g, ' '));
    } else {
      const key = event.command.trim().replace(/\s+/g, ' ');
      const earlier = commands.get(key);
      const ok = event.ok ?? true;
      commands.set(key, {
        command: key,
        ok,
        exitCode: event.exitCode,
        runs: (earlier?.runs ?? 0) + 1,
        fixed: ok && earlier !== undefined && (!earlier.ok || earlier.fixed),
      });
      if (!ok) continue;
      for (const raw of shellChanges(event.command)) change(raw, event.cwd);
      const ran = cores(key);
      for (const other of commands.values())
        if (!other.ok && settles(ran, cores(other.command))) Object.assign(other, { ok: true, fixed: true });
    }
  }

  return {
    files: [...files.values()],
    commands: [...commands.values()],
    unresolvedFailures: [
      ...[...commands.values()]
        .filter((command) => !command.ok)
        .map((command) => ({ target: command.command, kind: 'command' as const })),
      ...[...failedEdits].map((path) => ({ target: path, kind: 'edit' as const })),
    ],
    openTodos: plan.filter((item) => !item.done).map((item) => item.text),
    doneTodos: plan.filter((item) => item.done).map((item) => item.text),
    lastUserRequest: lastUser,
    answeredQuestions: [...new Set(answered)],
    explorationCommands: exploration,
    searchesWithoutMatch: [...noMatch],
    reasoning: [...reasoning],
  };
}

/** The question an answer ends on: its last sentence, when that ends with a question mark. */
function questionOf(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed.endsWith('?')) return null;
  const lastParagraph = trimmed
    .split(/\n\s*\n/)
    .pop()!
    .trim();
  const sentences = lastParagraph.split(/(?<=[.!?])\s+/);
  return sentences[sentences.length - 1]!.trim();
}
