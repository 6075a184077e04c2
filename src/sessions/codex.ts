// Codex CLI rollout files (sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl): one RolloutLine
// {timestamp, type, payload} per line, of type session_meta, turn_context, response_item, event_msg or
// compacted (codex-rs/protocol: RolloutItem, ResponseItem, EventMsg). Paginated rollouts (Codex 0.147+,
// session_meta.history_mode "paginated") record a turn's user message, answers, commands and file
// changes as event_msg item_completed (TurnItem) instead of the legacy events; a thread's later pages
// are files of their own, naming the page before them in session_meta.history_base. Newer line types
// (world_state, token_usage_record, inter_agent_communication, …) are counted, not read.
import type { FileEdit } from './activity.js';
import { SessionBuilder, type RunDraft } from './builder.js';
import { humanText } from './injected.js';
import {
  asArray,
  asInteger,
  asObject,
  asString,
  blockTexts,
  parseJson,
  readJsonLines,
  type JsonLine,
  type JsonObject,
} from './json.js';
import { planSteps } from './plan.js';
import type { Sliced } from './slices.js';
import { baseName, isoTimestamp, lineCount } from './text.js';
import type { ParsedSession } from './types.js';

const RECORD_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);
const THREAD_ID_IN_NAME = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;
const PATCH_START = '*** Begin Patch';
// Turn ids name a turn beyond its file only when they are long random ids (UUIDs), not counters.
const UNIQUE_ID = /^[\w-]{16,}$/;
// Without an exit code, apply_patch reports a failure in words.
const PATCH_FAILED = /\b(?:error|failed|invalid)\b/i;

/** Whether a JSON object is a Codex rollout line. */
export function isCodexRecord(value: JsonObject): boolean {
  return (
    typeof value.timestamp === 'string' &&
    typeof value.type === 'string' &&
    RECORD_TYPES.has(value.type) &&
    asObject(value.payload) !== null
  );
}

export function* readCodexSession(fileName: string, text: string): Sliced<ParsedSession> {
  const { lines, problems } = yield* readJsonLines(text);
  const reader = new CodexReader(new SessionBuilder(problems), lines.some(isUserTurnEvent));
  for (const line of lines) {
    reader.read(line);
    yield;
  }
  return yield* reader.finish(fileName);
}

function isUserTurnEvent({ value }: JsonLine): boolean {
  const event = asObject(value.payload);
  if (value.type !== 'event_msg' || event === null) return false;
  return (
    event.type === 'user_message' || (event.type === 'item_completed' && asObject(event.item)?.type === 'UserMessage')
  );
}

interface Context {
  line: number;
  at: string | null;
}

class CodexReader {
  private metaSeen = false;
  private sessionId: string | null = null;
  private parentSessionId: string | null = null;
  private relationship: 'subagent' | 'fork' | null = null;
  private cwd: string | null = null;
  private startedAt: string | null = null;
  private model: string | null = null;
  private lastAt: string | null = null;
  /** Which tool calls ran commands and which applied patches: their outputs are read accordingly. */
  private readonly calls = new Map<string, 'command' | 'patch'>();
  private readonly commandLines = new Map<string, string>();
  /** The turn the records belong to (turn_context, task_started) and how many runs it opened so far. */
  private turnId: string | null = null;
  private runsInTurn = 0;

  /**
   * Rollouts record each human turn twice: as a user_message event (paginated ones: an item_completed
   * UserMessage) and as a response_item message, the latter among injected context messages. When the
   * file has the events, they mark the turns; older files without them fall back to the response items.
   * Answers are read from both: Codex Desktop writes them only as assistant response items.
   */
  constructor(
    private readonly session: SessionBuilder,
    private readonly turnsFromEvents: boolean,
  ) {}

  read({ line, value }: JsonLine): void {
    const type = asString(value.type);
    if (type === null) return this.session.problem(line, 'record has no type');
    if (!RECORD_TYPES.has(type)) return this.session.unknownType(type);
    const payload = asObject(value.payload);
    if (payload === null) return this.session.problem(line, 'payload is not an object');
    const context = { line, at: isoTimestamp(value.timestamp) ?? this.lastAt };
    this.lastAt = context.at;
    this.startedAt ??= context.at;
    // A compaction belongs to the session, not to the run around it: it does not make a run last longer.
    if (type === 'compacted') return this.session.compaction('marker');
    this.session.record(context.at, () => {
      if (type === 'session_meta') this.readSessionMeta(payload);
      else if (type === 'turn_context') this.readTurnContext(payload);
      else if (type === 'response_item') this.readResponseItem(payload, context);
      else this.readEvent(payload, context);
    });
  }

  finish(fileName: string): Sliced<ParsedSession> {
    return this.session.build({
      format: 'codex',
      sessionId: this.sessionId ?? idFromFileName(fileName),
      model: this.model,
      cwd: this.cwd,
      startedAt: this.startedAt,
      parentSessionId: this.parentSessionId,
      relationship: this.relationship,
    });
  }

  private readSessionMeta(meta: JsonObject): void {
    // A fork's file goes on with a copy of its source's history, the source's session_meta included:
    // only the first one describes this session.
    if (this.metaSeen) return;
    this.metaSeen = true;
    this.sessionId = asString(meta.id);
    this.cwd = asString(meta.cwd);
    this.startedAt = isoTimestamp(meta.timestamp) ?? this.startedAt;
    const subagent = subagentSource(meta.source);
    const forkedFrom = asString(meta.forked_from_id);
    if (subagent !== null) {
      this.relationship = 'subagent';
      this.parentSessionId = subagent.parentId;
    } else if (forkedFrom !== null) {
      this.relationship = 'fork';
      this.parentSessionId = forkedFrom;
    }
  }

  private readTurnContext(turn: JsonObject): void {
    this.enterTurn(asString(turn.turn_id));
    this.model = asString(turn.model) ?? this.model;
    this.cwd ??= asString(turn.cwd);
    const run = this.session.current;
    if (run !== null && run.model === null) run.model = this.model;
  }

  private readResponseItem(item: JsonObject, context: Context): void {
    if (item.type === 'message') return this.readMessage(item, context);
    const run = this.session.current;
    if (run === null) return;
    const callId = asString(item.call_id);
    switch (item.type) {
      case 'function_call':
        return this.readFunctionCall(run, item);
      case 'custom_tool_call':
        return item.name === 'apply_patch' ? this.patchCall(run, callId, asString(item.input) ?? '') : undefined;
      case 'local_shell_call':
        return this.commandCall(run, callId ?? asString(item.id), commandLine(strings(asObject(item.action)?.command)));
      case 'function_call_output':
      case 'custom_tool_call_output':
        return this.readToolOutput(run, item);
      // Reasoning items (summaries and encrypted content alike) are never read; the rest carry nothing to import.
    }
  }

  private enterTurn(turnId: string | null): void {
    if (turnId === null || turnId === this.turnId) return;
    this.turnId = turnId;
    this.runsInTurn = 0;
  }

  private readMessage(item: JsonObject, context: Context): void {
    const text = contentText(item.content);
    // The same answer may come again as an event: a later text of the run replaces, never joins, it.
    if (item.role === 'assistant') this.session.current?.assistantText(text);
    else if (item.role === 'user' && !this.turnsFromEvents) this.startRun(humanText(text), context);
  }

  private readFunctionCall(run: RunDraft, call: JsonObject): void {
    const name = asString(call.name);
    const callId = asString(call.call_id);
    const args = asObject(parseJson(asString(call.arguments) ?? '')) ?? {};
    if (name === 'update_plan') run.activity.plan = planSteps(args.plan, 'step');
    else if (name === 'apply_patch') this.patchCall(run, callId, asString(args.input) ?? '');
    else this.commandCall(run, callId, shellCommand(name, args) ?? '');
  }

  private commandCall(run: RunDraft, callId: string | null, command: string): void {
    if (callId === null || command.length === 0) return;
    // apply_patch is also run through the shell, its patch as a heredoc.
    const patchStart = command.indexOf(PATCH_START);
    if (patchStart >= 0) return this.patchCall(run, callId, command.slice(patchStart));
    run.activity.command(callId, command);
    this.calls.set(callId, 'command');
    this.commandLines.set(callId, command);
  }

  private patchCall(run: RunDraft, callId: string | null, patch: string): void {
    if (callId === null) return;
    run.activity.patch(callId, 'apply_patch', parsePatch(patch));
    this.calls.set(callId, 'patch');
  }

  private readToolOutput(run: RunDraft, item: JsonObject): void {
    const callId = asString(item.call_id);
    if (callId === null) return;
    const { text, exitCode } = toolOutput(item.output);
    const kind = this.calls.get(callId);
    if (kind === 'command') {
      run.activity.commandResult(callId, { exitCode, output: text, interrupted: false, error: false });
      if (exitCode === 0) run.commandSucceeded(callId, this.commandLines.get(callId) ?? '');
    } else if (kind === 'patch') {
      run.activity.patchResult(callId, {
        applied: exitCode === null ? !PATCH_FAILED.test(text) : exitCode === 0,
        output: text,
      });
    }
  }

  private readEvent(event: JsonObject, context: Context): void {
    const run = this.session.current;
    const type = asString(event.type);
    if (type === 'user_message') return this.readUserMessage(event, context);
    if (type === 'task_started' || type === 'turn_started') return this.enterTurn(asString(event.turn_id));
    if (type === 'item_completed') return this.readItemCompleted(asObject(event.item), context);
    if (type === 'context_compacted') return this.session.compaction('summary');
    if (type === 'thread_rolled_back') return this.session.dropLastRuns(asInteger(event.num_turns) ?? 0);
    if (run === null) return;
    switch (type) {
      case 'agent_message':
        return run.assistantText(asString(event.message) ?? '');
      case 'task_complete':
      case 'turn_complete':
        run.finalAnswer(asString(event.last_agent_message));
        return run.end('completed', context.at);
      case 'turn_aborted':
        return run.end('interrupted', context.at);
      case 'error':
        run.activity.failure('error', 'The turn failed', asString(event.message) ?? '');
        return run.end('failed', context.at);
      case 'exec_command_end':
        return this.readExecCommandEnd(run, event);
      case 'patch_apply_end':
        return this.readPatchApplyEnd(run, event);
      case 'mcp_tool_call_end':
        return readMcpToolCallEnd(run, event);
      case 'collab_agent_spawn_end':
        return readSubagentSpawn(run, event);
      case 'collab_agent_interaction_end':
      case 'collab_waiting_end':
      case 'collab_close_end':
        return readSubagentStatus(run, event);
      // Reasoning events are never read; token counts and the rest carry nothing to import.
    }
  }

  private readUserMessage(event: JsonObject, context: Context): void {
    // Older rollouts wrote injected context as user_message events of another kind.
    const kind = asString(event.kind);
    if (kind !== null && kind !== 'plain') return;
    this.startRun(humanText(asString(event.message) ?? ''), context);
  }

  /**
   * A run is known across files (a fork's copy, a later page) by its user item's id, else by its turn's
   * id (and its place among the turn's runs, when the user wrote again mid-turn).
   */
  private startRun(userMessage: string, { line, at }: Context, itemId: string | null = null): void {
    if (userMessage.length === 0) return;
    if (at === null) return this.session.problem(line, 'user message without a timestamp');
    this.runsInTurn += 1;
    const turnId = this.turnId !== null && UNIQUE_ID.test(this.turnId) ? this.turnId : null;
    const turnKey = turnId === null ? null : this.runsInTurn === 1 ? turnId : `${turnId}#${this.runsInTurn}`;
    this.session.startRun({ at, line, sourceId: itemId ?? turnKey }, userMessage, this.model);
  }

  /** TurnItem (codex-rs/protocol items.rs), the main record of paginated rollouts. */
  private readItemCompleted(item: JsonObject | null, context: Context): void {
    const id = asString(item?.id);
    if (item === null || id === null) return;
    if (item.type === 'UserMessage') {
      const text = asArray(item.content)
        .map((input) => (asObject(input)?.type === 'text' ? asString(asObject(input)?.text) : null))
        .filter((part): part is string => part !== null)
        .join('');
      return this.startRun(humanText(text), context, id);
    }
    if (item.type === 'ContextCompaction') return this.session.compaction('summary');
    const run = this.session.current;
    if (run === null) return;
    switch (item.type) {
      case 'AgentMessage':
        return run.assistantText(contentText(item.content));
      case 'CommandExecution':
        // The same fields exec_command_end carries, in camelCase.
        return this.readExecCommandEnd(run, {
          call_id: id,
          command: item.command,
          aggregated_output: item.aggregatedOutput,
          stdout: item.stdout,
          stderr: item.stderr,
          exit_code: item.exitCode,
        });
      case 'FileChange':
        return this.readPatchApplyEnd(run, {
          call_id: id,
          changes: item.changes,
          success: item.status === 'completed',
          stdout: item.stdout,
          stderr: item.stderr,
        });
      case 'McpToolCall':
        return readMcpToolCallEnd(run, {
          invocation: { server: item.server, tool: item.tool },
          result:
            asObject(item.error) === null ? { Ok: item.result } : { Err: asString(asObject(item.error)?.message) },
        });
      // Reasoning, plans (update_plan is read from its call), web searches and the rest carry nothing to import.
    }
  }

  private readExecCommandEnd(run: RunDraft, event: JsonObject): void {
    const callId = asString(event.call_id);
    if (callId === null) return;
    const exitCode = asInteger(event.exit_code);
    const output =
      asString(event.aggregated_output) || [asString(event.stdout), asString(event.stderr)].filter(Boolean).join('\n');
    if (this.calls.get(callId) === 'patch')
      return run.activity.patchResult(callId, { applied: exitCode === 0, output });
    const command = commandLine(strings(event.command));
    if (command.length === 0) return;
    run.activity.commandResult(callId, { exitCode, output, interrupted: false, error: false }, command);
    this.calls.set(callId, 'command');
    if (exitCode === 0) run.commandSucceeded(callId, this.commandLines.get(callId) ?? command);
  }

  private readPatchApplyEnd(run: RunDraft, event: JsonObject): void {
    const callId = asString(event.call_id);
    if (callId === null) return;
    const edits = Object.entries(asObject(event.changes) ?? {}).flatMap(([path, change]) =>
      fileChangeEdit(path, asObject(change)),
    );
    if (!this.calls.has(callId)) this.patchCall(run, callId, '');
    const output = [asString(event.stdout), asString(event.stderr)].filter(Boolean).join('\n');
    // The event lists what was applied, with line counts: it replaces what was read from the patch.
    run.activity.patchResult(callId, {
      applied: event.success === true,
      output,
      ...(edits.length > 0 ? { edits } : {}),
    });
  }
}

/** SessionSource serialises a subagent as {"subagent": "review" | {"thread_spawn": {"parent_thread_id": …}} | …}. */
function subagentSource(source: unknown): { parentId: string | null } | null {
  const subagent = asObject(source)?.subagent;
  if (subagent === undefined) return null;
  const spawn = asObject(asObject(subagent)?.thread_spawn);
  return { parentId: asString(spawn?.parent_thread_id) };
}

function idFromFileName(fileName: string): string {
  const name = baseName(fileName);
  return THREAD_ID_IN_NAME.exec(name)?.[1] ?? name.replace(/\.jsonl$/, '');
}

function strings(value: unknown): string[] {
  return asArray(value).filter((item): item is string => typeof item === 'string');
}

function contentText(content: unknown): string {
  return blockTexts(content).join('\n');
}

/** The command line of a shell tool's arguments; null for other tools. */
function shellCommand(tool: string | null, args: JsonObject): string | null {
  switch (tool) {
    case 'shell':
    case 'container.exec':
    case 'local_shell':
      return commandLine(strings(args.command));
    case 'shell_command':
      return asString(args.command);
    case 'exec_command':
      return asString(args.cmd);
    default:
      return null;
  }
}

/** `bash -lc "<script>"` runs one script: the script is the command a person would recognise. */
function commandLine(argv: string[]): string {
  const [program, flag, script] = argv;
  if (
    argv.length === 3 &&
    program !== undefined &&
    /(?:^|\/)(?:ba|z)?sh$/.test(program) &&
    (flag === '-lc' || flag === '-c')
  ) {
    return script ?? '';
  }
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`)).join(' ');
}

/**
 * A tool's output as the model saw it. Older shell and apply_patch outputs are JSON
 * {"output": …, "metadata": {"exit_code": …}}; newer ones are text headed "Exit code: N" (or, for
 * unified exec, "Process exited with code N").
 */
function toolOutput(raw: unknown): { text: string; exitCode: number | null } {
  const text = typeof raw === 'string' ? raw : contentText(raw);
  const wrapped = asObject(parseJson(text));
  if (wrapped !== null && typeof wrapped.output === 'string') {
    return { text: wrapped.output, exitCode: asInteger(asObject(wrapped.metadata)?.exit_code) };
  }
  const code = /^(?:Exit code:|Process exited with code) (-?\d+)/m.exec(text)?.[1];
  if (code === undefined) return { text, exitCode: null };
  // The command's own output follows the headers (exit code, wall time, …).
  return { text: /^Output:\n([\s\S]*)$/m.exec(text)?.[1] ?? text, exitCode: Number(code) };
}

/** The apply_patch format: "*** Add File: p" (+ lines), "*** Delete File: p", "*** Update File: p" with hunks, "*** Move to: q". */
function parsePatch(patch: string): FileEdit[] {
  const edits: FileEdit[] = [];
  let edit: FileEdit | null = null;
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (Add|Delete|Update) File: (.+)$/.exec(line);
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (header?.[1] !== undefined && header[2] !== undefined) {
      const kind = header[1];
      edit = {
        path: header[2].trim(),
        change: kind === 'Add' ? 'added' : kind === 'Delete' ? 'deleted' : 'modified',
        additions: 0,
        // A deletion does not carry the file's content.
        deletions: kind === 'Delete' ? null : 0,
        previousPath: null,
      };
      edits.push(edit);
    } else if (move?.[1] !== undefined && edit !== null) {
      edit.previousPath = edit.path;
      edit.path = move[1].trim();
      edit.change = 'renamed';
    } else if (edit !== null && !line.startsWith('***')) {
      countDiffLine(edit, line);
    }
  }
  return edits;
}

function countDiffLine(edit: FileEdit, line: string): void {
  if (line.startsWith('+') && !line.startsWith('+++') && edit.additions !== null) edit.additions += 1;
  if (line.startsWith('-') && !line.startsWith('---') && edit.deletions !== null) edit.deletions += 1;
}

/** FileChange: {"type": "add", content} | {"type": "delete", content} | {"type": "update", unified_diff, move_path}. */
function fileChangeEdit(path: string, change: JsonObject | null): FileEdit[] {
  const content = asString(change?.content) ?? '';
  switch (change?.type) {
    case 'add':
      return [{ path, change: 'added', additions: lineCount(content), deletions: 0, previousPath: null }];
    case 'delete':
      return [{ path, change: 'deleted', additions: 0, deletions: lineCount(content), previousPath: null }];
    case 'update': {
      const movedTo = asString(change.move_path);
      const edit: FileEdit = {
        path: movedTo ?? path,
        change: movedTo === null ? 'modified' : 'renamed',
        additions: 0,
        deletions: 0,
        previousPath: movedTo === null ? null : path,
      };
      for (const line of (asString(change.unified_diff) ?? '').split('\n')) countDiffLine(edit, line);
      return [edit];
    }
    default:
      return [];
  }
}

/** McpToolCallEndEvent.result is a serialised Result: {"Ok": CallToolResult} or {"Err": message}. */
function readMcpToolCallEnd(run: RunDraft, event: JsonObject): void {
  const invocation = asObject(event.invocation);
  const tool = `${asString(invocation?.server) ?? 'mcp'}.${asString(invocation?.tool) ?? 'tool'}`;
  const result = asObject(event.result);
  const error = asString(result?.Err);
  const ok = asObject(result?.Ok);
  if (error !== null) run.activity.failure(tool, `MCP tool ${tool} failed`, error);
  else if (ok?.isError === true) run.activity.failure(tool, `MCP tool ${tool} failed`, contentText(ok.content));
}

function readSubagentSpawn(run: RunDraft, event: JsonObject): void {
  const id = asString(event.new_thread_id) ?? asString(event.call_id);
  if (id === null) return;
  const prompt = asString(event.prompt);
  run.activity.subagent(id, { ...(prompt ? { task: prompt } : {}), ...agentStatus(event.status) });
}

function readSubagentStatus(run: RunDraft, event: JsonObject): void {
  const id = asString(event.receiver_thread_id);
  if (id !== null) run.activity.subagent(id, agentStatus(event.status));
}

/** AgentStatus: "running", "shutdown", … or {"completed": final message} / {"errored": message}. */
function agentStatus(raw: unknown): { status: string | null; result?: string } {
  if (typeof raw === 'string') return { status: raw };
  const status = asObject(raw);
  const completed = asString(status?.completed);
  const errored = asString(status?.errored);
  if (status !== null && 'completed' in status)
    return { status: 'completed', ...(completed ? { result: completed } : {}) };
  if (errored !== null) return { status: 'errored', result: errored };
  return { status: null };
}
