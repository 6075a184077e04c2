// Claude Code session files (projects/<project>/<session id>.jsonl, and subagents' agent-<id>.jsonl):
// one line per message (user, assistant, system) linked into a tree by uuid / parentUuid, plus lines of
// other types (summary, file-history-snapshot, …). A rewind adds a second child to an earlier message:
// the conversation is the branch that leads to the newest message. Claude Code 1.x kept a subagent's
// messages in the main file (isSidechain); 2.x writes them to <session>/subagents/agent-<id>.jsonl
// (workflow agents: subagents/workflows/<run>/agent-<id>.jsonl). A resume starts a new file that
// copies the conversation since the last compaction, uuids included.
import type { FileEdit } from './activity.js';
import { SessionBuilder, type RunDraft } from './builder.js';
import { humanText } from './injected.js';
import {
  asArray,
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

const MESSAGE_TYPES = new Set(['user', 'assistant', 'system']);
// Session titles for the resume list: part of the format, nothing to import.
const TITLE_TYPE = 'summary';
const SUBAGENT_FILE = /^agent-.+\.jsonl$/;
const COMPACT_SUMMARY_START = 'This session is being continued from a previous conversation';
const INTERRUPTED = /^\[Request interrupted by user/;
const LOCAL_COMMAND_OUTPUT = /<local-command-std(?:out|err)>/;
// Assistant messages Claude Code writes itself, not the model.
const SYNTHETIC_MODEL = '<synthetic>';
const FILE_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);
const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);

/** Whether a JSON object is a line of a Claude Code session file. */
export function isClaudeRecord(value: JsonObject): boolean {
  if (value.type === TITLE_TYPE) return typeof value.leafUuid === 'string';
  return (
    typeof value.type === 'string' &&
    MESSAGE_TYPES.has(value.type) &&
    typeof value.uuid === 'string' &&
    typeof value.sessionId === 'string'
  );
}

export function* readClaudeSession(fileName: string, text: string, agentMeta?: string): Sliced<ParsedSession> {
  const { lines, problems } = yield* readJsonLines(text);
  const session = new SessionBuilder(problems);
  const messages = messageLines(lines, session);
  const subagent = SUBAGENT_FILE.test(baseName(fileName)) || messages[0]?.value.isSidechain === true;
  if (subagent) return yield* readThread(session, messages, fileName, true, [], agentNameOf(agentMeta));
  // A main session file may also hold its subagents' messages (isSidechain): they are their own sessions.
  const subagents: ParsedSession[] = [];
  for (const thread of sidechains(messages.filter(({ value }) => value.isSidechain === true)))
    subagents.push(yield* readThread(new SessionBuilder([]), thread, fileName, true));
  return yield* readThread(
    session,
    messages.filter(({ value }) => value.isSidechain !== true),
    fileName,
    false,
    subagents,
  );
}

/**
 * A workflow agent's name from its meta file (`agentType`, and the workflow `step` it ran); null when
 * there is no meta file or it names neither.
 */
function agentNameOf(agentMeta: string | undefined): string | null {
  const meta = agentMeta === undefined ? null : asObject(parseJson(agentMeta));
  const type = asString(meta?.agentType);
  const step = asString(meta?.step);
  if (type === null) return step === null ? null : `step ${step}`;
  return step === null ? type : `${type}, step ${step}`;
}

function* readThread(
  session: SessionBuilder,
  thread: JsonLine[],
  fileName: string,
  subagent: boolean,
  subagents: ParsedSession[] = [],
  agentName: string | null = null,
): Sliced<ParsedSession> {
  const branch = activeBranch(thread);
  session.abandonedBranches(branch.abandoned);
  const reader = new ClaudeReader(session, toolResults(thread));
  for (const line of branch.path) {
    reader.read(line);
    yield;
  }
  const identity = sessionIdentity(fileName, thread, subagent);
  return yield* session.build({ format: 'claude', model: reader.model, agentName, ...identity }, subagents);
}

/**
 * Inline sidechain messages grouped by subagent: by agentId when the lines carry one, else by the
 * message their parentUuid chain starts from (each Task call starts a chain whose first parent is null).
 */
function sidechains(lines: JsonLine[]): JsonLine[][] {
  const rootOf = new Map<string, string>();
  const groups = new Map<string, JsonLine[]>();
  for (const line of lines) {
    const uuid = asString(line.value.uuid) ?? '';
    const parent = asString(line.value.parentUuid);
    const root = asString(line.value.agentId) ?? (parent !== null ? rootOf.get(parent) : undefined) ?? uuid;
    rootOf.set(uuid, root);
    const group = groups.get(root);
    if (group === undefined) groups.set(root, [line]);
    else group.push(line);
  }
  return [...groups.values()];
}

/** The message lines; other types are counted as unknown (titles excepted), typeless lines reported. */
function messageLines(lines: JsonLine[], session: SessionBuilder): JsonLine[] {
  const messages: JsonLine[] = [];
  for (const line of lines) {
    const type = asString(line.value.type);
    if (type === null) session.problem(line.line, 'record has no type');
    else if (!MESSAGE_TYPES.has(type)) {
      if (type !== TITLE_TYPE) session.unknownType(type);
    } else if (asString(line.value.uuid) === null) session.problem(line.line, 'message has no uuid');
    else messages.push(line);
  }
  return messages;
}

function sessionIdentity(fileName: string, thread: JsonLine[], subagent: boolean) {
  const first = thread[0]?.value;
  const stem = baseName(fileName).replace(/\.jsonl$/, '');
  const cwd = thread.map(({ value }) => asString(value.cwd)).find((value) => value !== null) ?? null;
  const startedAt = isoTimestamp(first?.timestamp);
  if (subagent) {
    // A subagent's lines carry its parent's sessionId and its own agentId; 1.x inline sidechains have
    // no agentId: the uuid of their first message names them.
    const fromFile = SUBAGENT_FILE.test(baseName(fileName)) ? stem.replace(/^agent-/, '') : null;
    const sessionId = asString(first?.agentId) ?? fromFile ?? asString(first?.uuid) ?? stem;
    return {
      sessionId,
      cwd,
      startedAt,
      parentSessionId: asString(first?.sessionId),
      relationship: 'subagent' as const,
    };
  }
  const sessionId = asString(thread.at(-1)?.value.sessionId) ?? stem;
  return { sessionId, cwd, startedAt, parentSessionId: null, relationship: null };
}

/**
 * The branch that ends at the newest message, oldest first. A message's parent is its parentUuid when
 * that message is in the file; a compact boundary (parentUuid null) continues from its
 * logicalParentUuid; any other message without a known parent continues from the line before it, so a
 * broken or cross-file link never cuts the conversation short. Every other child of a message on the
 * branch starts an abandoned branch, unless it only carries tool results (those are matched to their
 * calls by id, wherever they sit).
 */
function activeBranch(thread: JsonLine[]): { path: JsonLine[]; abandoned: number } {
  const byUuid = new Map<string, JsonLine>();
  const parents = new Map<string, string | null>();
  let previous: string | null = null;
  for (const line of thread) {
    const uuid = asString(line.value.uuid) ?? '';
    const parent = [line.value.parentUuid, line.value.logicalParentUuid]
      .map(asString)
      .find((id) => id !== null && byUuid.has(id));
    parents.set(uuid, parent ?? previous);
    byUuid.set(uuid, line);
    previous = uuid;
  }
  const onPath = new Set<string>();
  for (let uuid = previous; uuid !== null && !onPath.has(uuid); uuid = parents.get(uuid) ?? null) onPath.add(uuid);
  const path = thread.filter(({ value }) => onPath.has(asString(value.uuid) ?? ''));
  const abandoned = thread.filter(({ value }) => {
    const uuid = asString(value.uuid) ?? '';
    return !onPath.has(uuid) && onPath.has(parents.get(uuid) ?? '') && !carriesOnlyToolResults(value);
  }).length;
  return { path, abandoned };
}

function carriesOnlyToolResults(value: JsonObject): boolean {
  const content = asArray(asObject(value.message)?.content);
  return content.length > 0 && content.every((block) => asObject(block)?.type === 'tool_result');
}

interface ToolResult {
  isError: boolean;
  text: string;
  /** toolUseResult: the tool's structured result (patches, stdout, agent id), when the line has one. */
  data: JsonObject | null;
}

function toolResults(thread: JsonLine[]): Map<string, ToolResult> {
  const results = new Map<string, ToolResult>();
  for (const { value } of thread) {
    const blocks = asArray(asObject(value.message)?.content).flatMap((block) => {
      const result = asObject(block);
      return result?.type === 'tool_result' ? [result] : [];
    });
    // toolUseResult describes the line's result: it can only be attributed when there is one.
    const data = blocks.length === 1 ? asObject(value.toolUseResult) : null;
    for (const block of blocks) {
      const id = asString(block.tool_use_id);
      if (id === null) continue;
      const text = messageText(block.content).replace(/<\/?tool_use_error>/g, '');
      results.set(id, { isError: block.is_error === true, text, data });
    }
  }
  return results;
}

class ClaudeReader {
  model: string | null = null;
  /**
   * A slash command (<command-name>) is a local command unless the model answers it, as it does a
   * prompt command: then it is the turn's user message.
   */
  private pendingCommand: { text: string; at: string; uuid: string | null } | null = null;

  constructor(
    private readonly session: SessionBuilder,
    private readonly results: Map<string, ToolResult>,
  ) {}

  read({ line, value }: JsonLine): void {
    // A compaction belongs to the session, not to the run around it: it does not make a run last longer.
    const compaction = compactionRecord(value);
    if (compaction !== null) return this.session.compaction(compaction);
    const at = isoTimestamp(value.timestamp);
    this.session.record(at, () => {
      if (value.type === 'user') this.readUser(value, line, at);
      else if (value.type === 'assistant') this.readAssistant(value, line, at);
    });
  }

  private readUser(value: JsonObject, line: number, at: string | null): void {
    const content = asObject(value.message)?.content;
    const text = messageText(content);
    // Lines Claude Code writes as the user: caveats, expanded command prompts, hook output.
    if (value.isMeta === true) return;
    if (INTERRUPTED.test(text.trim())) return this.session.current?.end('interrupted', at);
    if (LOCAL_COMMAND_OUTPUT.test(text)) {
      this.pendingCommand = null;
      return;
    }
    const human = humanText(text) || (hasBlock(content, 'image') ? '[image]' : '');
    if (human.length > 0) {
      this.pendingCommand = null;
      return this.startRun(human, line, at, asString(value.uuid));
    }
    const command = slashCommand(text);
    if (command !== null && at !== null) this.pendingCommand = { text: command, at, uuid: asString(value.uuid) };
  }

  private readAssistant(value: JsonObject, line: number, at: string | null): void {
    if (this.pendingCommand !== null) {
      this.startRun(this.pendingCommand.text, line, this.pendingCommand.at, this.pendingCommand.uuid);
      this.pendingCommand = null;
    }
    const run = this.session.current;
    if (run === null) return;
    const message = asObject(value.message);
    const content = asArray(message?.content);
    if (value.isApiErrorMessage === true) {
      run.activity.failure('api_error', 'The model API failed', messageText(content));
      return run.end('failed', at);
    }
    const model = asString(message?.model);
    if (model === SYNTHETIC_MODEL) return;
    if (model !== null) {
      this.model = model;
      run.model = model;
    }
    for (const block of content) {
      const item = asObject(block);
      if (item?.type === 'text') run.assistantText(asString(item.text) ?? '', asString(message?.id));
      else if (item?.type === 'tool_use') this.readToolUse(run, item);
      // thinking and redacted_thinking blocks are never read.
    }
  }

  private startRun(userMessage: string, line: number, at: string | null, uuid: string | null): void {
    if (at === null) return this.session.problem(line, 'user message without a timestamp');
    this.session.startRun({ at, line, sourceId: uuid }, userMessage, this.model);
  }

  private readToolUse(run: RunDraft, block: JsonObject): void {
    const id = asString(block.id);
    const name = asString(block.name);
    if (id === null || name === null) return;
    const input = asObject(block.input) ?? {};
    const result = this.results.get(id) ?? null;
    if (name === 'Bash') readBash(run, id, input, result);
    else if (FILE_TOOLS.has(name)) readFileTool(run, id, name, input, result);
    else if (SUBAGENT_TOOLS.has(name)) readSubagent(run, id, input, result);
    else if (name === 'TodoWrite') {
      if (result?.isError !== true) run.activity.plan = planSteps(input.todos, 'content');
    } else {
      const target = [input.file_path, input.path, input.pattern, input.url]
        .map(asString)
        .find((value) => value !== null);
      if (result?.isError === true) run.activity.toolFailure(name, target, result.text);
      else if (result !== null && target !== undefined) run.activity.read(name, target);
    }
  }
}

/** A compact boundary marks a compaction; the summary message after it (older versions: only it) is its text. */
function compactionRecord(value: JsonObject): 'marker' | 'summary' | null {
  if (value.type === 'system') return value.subtype === 'compact_boundary' ? 'marker' : null;
  if (value.type !== 'user') return null;
  const isSummary =
    value.isCompactSummary === true || messageText(asObject(value.message)?.content).startsWith(COMPACT_SUMMARY_START);
  return isSummary ? 'summary' : null;
}

/** A failed command's result starts "Exit code N"; a successful one prints no code. */
function readBash(run: RunDraft, id: string, input: JsonObject, result: ToolResult | null): void {
  const command = asString(input.command);
  if (command === null || command.length === 0) return;
  run.activity.command(id, command);
  if (result === null) return;
  const code = /^Exit code (-?\d+)/m.exec(result.text)?.[1];
  const interrupted = result.data?.interrupted === true;
  // A background command has not finished when its result is written.
  const unfinished = interrupted || input.run_in_background === true;
  const streams = [asString(result.data?.stdout), asString(result.data?.stderr)].filter(
    (part) => part !== null && part.length > 0,
  );
  const exitCode = code !== undefined ? Number(code) : result.isError || unfinished ? null : 0;
  run.activity.commandResult(id, {
    exitCode,
    // Without its streams the result text starts with the tool's "Exit code N" line: the code, not output.
    output: streams.length > 0 ? streams.join('\n') : result.text.replace(/^Exit code -?\d+\n?/, ''),
    interrupted,
    error: result.isError && code === undefined,
  });
  if (exitCode === 0) run.commandSucceeded(id, command);
}

function readFileTool(run: RunDraft, id: string, tool: string, input: JsonObject, result: ToolResult | null): void {
  const edit = fileToolEdit(tool, input, result?.data ?? null);
  if (edit === null) return;
  run.activity.patch(id, tool, [edit]);
  if (result !== null) run.activity.patchResult(id, { applied: !result.isError, output: result.text });
}

/** toolUseResult gives the file path, a Write's type (create / update) and structuredPatch hunks. */
function fileToolEdit(tool: string, input: JsonObject, data: JsonObject | null): FileEdit | null {
  const path = asString(data?.filePath) ?? asString(input.file_path) ?? asString(input.notebook_path);
  if (path === null) return null;
  if (tool === 'Write' && data?.type === 'create') {
    const content = asString(data.content) ?? asString(input.content) ?? '';
    return { path, change: 'added', additions: lineCount(content), deletions: 0, previousPath: null };
  }
  const counts = hunkCounts(data?.structuredPatch);
  return {
    path,
    change: 'modified',
    additions: counts?.additions ?? null,
    deletions: counts?.deletions ?? null,
    previousPath: null,
  };
}

/** structuredPatch: [{oldStart, oldLines, newStart, newLines, lines: [" context", "-old", "+new"]}]. */
function hunkCounts(patch: unknown): { additions: number; deletions: number } | null {
  if (!Array.isArray(patch)) return null;
  const lines = patch
    .flatMap((hunk) => asArray(asObject(hunk)?.lines))
    .filter((line): line is string => typeof line === 'string');
  return {
    additions: lines.filter((line) => line.startsWith('+')).length,
    deletions: lines.filter((line) => line.startsWith('-')).length,
  };
}

/** The Task tool runs a subagent; its result names the agent, whose own file is subagents/agent-<id>.jsonl. */
function readSubagent(run: RunDraft, id: string, input: JsonObject, result: ToolResult | null): void {
  const kind = asString(input.subagent_type);
  const description = asString(input.description) ?? asString(input.prompt) ?? '';
  const status = result === null ? null : result.isError ? 'failed' : (asString(result.data?.status) ?? 'completed');
  run.activity.subagent(asString(result?.data?.agentId) ?? id, {
    task: kind === null ? description : `${kind}: ${description}`,
    ...(result === null ? {} : { result: result.text }),
    status,
  });
}

/** The text of message content: a string, or the text blocks of a block list. */
function messageText(content: unknown): string {
  return typeof content === 'string' ? content : blockTexts(content, 'text').join('\n\n');
}

function hasBlock(content: unknown, type: string): boolean {
  return asArray(content).some((block) => asObject(block)?.type === type);
}

/** The trimmed text of the first <tag>…</tag> block; found with indexOf, so linear in the text. */
function tagText(text: string, tag: string): string | null {
  const start = text.indexOf(`<${tag}>`);
  const end = start < 0 ? -1 : text.indexOf(`</${tag}>`, start + tag.length + 2);
  return end < 0 ? null : text.slice(start + tag.length + 2, end).trim();
}

function slashCommand(text: string): string | null {
  const name = tagText(text, 'command-name');
  if (name === null || name.length === 0 || name.includes('<')) return null;
  const args = tagText(text, 'command-args');
  return args ? `${name} ${args}` : name;
}
