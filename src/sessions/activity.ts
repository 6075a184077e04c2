// What one run did, gathered from tool calls and their results (matched by call id, since a call and its
// result are separate records) and turned into facts when the run ends.
import { isSearchWithoutMatch, laterFixes } from '../domain/commands.js';
import type { FileChangeKind } from '../domain/records.js';
import { findTestSummary, type TestSummary } from './testSummary.js';
import { clip, relativePath, tailExcerpt, withoutTerminalCodes } from './text.js';
import { SESSION_LIMITS, type ImportedFact } from './types.js';
import type { PlanStep } from './plan.js';
import { present } from '../domain/errors.js';

export interface FileEdit {
  path: string;
  change: FileChangeKind;
  additions: number | null;
  deletions: number | null;
  previousPath: string | null;
}

export interface CommandResult {
  exitCode: number | null;
  output: string;
  interrupted: boolean;
  /** The tool itself failed (rejected, crashed) rather than the command exiting non-zero. */
  error: boolean;
}

export interface PatchResult {
  applied: boolean;
  output: string;
  /** What the tool reports it changed, when it does: replaces the edits read from the call. */
  edits?: FileEdit[];
}

export interface SubagentUpdate {
  task?: string;
  result?: string;
  status: string | null;
}

interface CommandCall {
  command: string;
  result: CommandResult | null;
}

interface PatchCall {
  tool: string;
  edits: FileEdit[];
  result: PatchResult | null;
}

interface Subagent {
  task: string | null;
  result: string | null;
  status: string | null;
}

export class RunActivity {
  private readonly commands = new Map<string, CommandCall>();
  private readonly patches = new Map<string, PatchCall>();
  private readonly failures = new Map<string, string>();
  private readonly toolFailures: { tool: string; target: string | null; output: string }[] = [];
  private readonly subagents = new Map<string, Subagent>();
  /** Read-only tool calls that succeeded (Read, Grep, Glob, ...), as "Tool target", in order. */
  private readonly reads: { tool: string; target: string }[] = [];
  /** The newest plan the run wrote (newest state wins); null when it wrote none. */
  plan: PlanStep[] | null = null;

  command(callId: string, command: string): void {
    if (!this.commands.has(callId)) this.commands.set(callId, { command, result: null });
  }

  /** `command` registers a call seen only through its result (e.g. a command the user ran). */
  commandResult(callId: string, result: CommandResult, command?: string): void {
    if (command !== undefined) this.command(callId, command);
    const call = this.commands.get(callId);
    if (call) call.result = result;
  }

  patch(callId: string, tool: string, edits: FileEdit[]): void {
    if (!this.patches.has(callId)) this.patches.set(callId, { tool, edits, result: null });
  }

  /** A patch can be reported twice (a tool output and an event): the list of applied edits is kept. */
  patchResult(callId: string, result: PatchResult): void {
    const call = this.patches.get(callId);
    if (call) call.result = { ...result, edits: result.edits ?? call.result?.edits };
  }

  /** A tool or turn failure; only a short excerpt of `output` is kept. */
  failure(key: string, summary: string, output = ''): void {
    const excerpt = tailExcerpt(output);
    this.failures.set(key, excerpt.length > 0 ? `${summary}: ${excerpt}` : summary);
  }

  /** A tool call that failed on a file or pattern: keyed and told by its target, a path relative to the cwd. */
  toolFailure(tool: string, target: string | undefined, output: string): void {
    this.toolFailures.push({ tool, target: target ?? null, output });
  }

  /** A tool call that only read (a file, a search): exploration, summarised by the handoff, never listed. */
  read(tool: string, target: string): void {
    this.reads.push({ tool, target });
  }

  subagent(key: string, update: SubagentUpdate): void {
    const known = this.subagents.get(key) ?? { task: null, result: null, status: null };
    this.subagents.set(key, {
      task: update.task ?? known.task,
      result: update.result ?? known.result,
      status: update.status ?? known.status,
    });
  }

  /** The run's facts, each built when it is asked for. */
  *facts(cwd: string | null): Generator<ImportedFact> {
    yield* this.fileFacts(cwd);
    yield* this.commandFacts();
    yield* this.readFacts(cwd);
    yield* this.failureFacts(cwd);
    yield* this.subagentFacts();
  }

  private *fileFacts(cwd: string | null): Generator<ImportedFact> {
    const files = new Map<string, FileEdit>();
    const failed: PatchCall[] = [];
    for (const call of this.patches.values()) {
      // A change counts once its tool reports it applied: a call cut off before its result may not have been.
      if (call.result === null) continue;
      if (!call.result.applied) failed.push(call);
      else for (const edit of call.result.edits ?? call.edits) mergeInto(files, relativeEdit(edit, cwd));
    }
    for (const edit of files.values()) yield fileChangeFact(edit);
    const fixed = this.patchesFixedLater();
    for (const call of failed) yield patchFailure(call, cwd, fixed.has(call));
  }

  /** The failed patches a later patch of the run fixed: it applied a change to every file the failed one named. */
  private patchesFixedLater(): Set<PatchCall> {
    const fixed = new Set<PatchCall>();
    const patchedAfter = new Set<string>();
    // Newest first, so that the paths patched after a call are known when it is reached.
    for (const call of [...this.patches.values()].reverse()) {
      if (call.result === null) continue;
      if (call.result.applied) for (const edit of call.result.edits ?? call.edits) patchedAfter.add(edit.path);
      else if (call.edits.length > 0 && call.edits.every((edit) => patchedAfter.has(edit.path))) fixed.add(call);
    }
    return fixed;
  }

  private *commandFacts(): Generator<ImportedFact> {
    // The last execution of a command is its state at the end of the run.
    const latest = new Map<string, CommandCall>();
    for (const call of this.commands.values()) {
      latest.delete(call.command);
      latest.set(call.command, call);
    }
    // Calls in the order they were made: a call is fixed by a success at a later place.
    const calls = [...this.commands.values()];
    const place = new Map(calls.map((call, index) => [call, index]));
    // A failure a later command of the run fixed (src/domain/commands.ts, `fixes`) is reported fixed.
    const fixer = laterFixes(
      calls.flatMap((call, index) => (succeeded(call) ? [{ command: call.command, at: index }] : [])),
    );
    for (const call of latest.values())
      yield* commandCallFacts(
        call,
        () => fixer(call.command, present(place.get(call), `place of call ${call.command}`)) !== undefined,
      );
  }

  /** One command fact per distinct read, keyed like a command so a repeated read counts once per run. */
  private *readFacts(cwd: string | null): Generator<ImportedFact> {
    for (const read of new Set(this.reads.map(({ tool, target }) => `${tool} ${relativePath(target, cwd)}`)))
      yield {
        kind: 'command',
        text: clip(read, SESSION_LIMITS.factText),
        key: clip(read, SESSION_LIMITS.label),
        status: 'ok',
      };
  }

  private *failureFacts(cwd: string | null): Generator<ImportedFact> {
    // The newest failure of each key, told when its fact is built.
    const failures = new Map([...this.failures].map(([key, text]) => [key, () => text]));
    for (const { tool, target, output } of this.toolFailures) {
      const path = target === null ? null : relativePath(target, cwd);
      const summary = `${tool} failed${path === null ? '' : ` on ${path}`}`;
      failures.set(path === null ? tool : `${tool} ${path}`, () => {
        const excerpt = tailExcerpt(output);
        return excerpt.length > 0 ? `${summary}: ${excerpt}` : summary;
      });
    }
    for (const [key, text] of failures)
      yield {
        kind: 'failure',
        text: clip(text(), SESSION_LIMITS.factText),
        key: clip(key, SESSION_LIMITS.label),
        status: null,
      };
  }

  private *subagentFacts(): Generator<ImportedFact> {
    for (const [key, agent] of this.subagents) {
      const lines = [
        agent.task === null ? null : `Task: ${clip(agent.task, SESSION_LIMITS.excerpt)}`,
        agent.result === null ? null : `Result: ${clip(agent.result, SESSION_LIMITS.excerpt)}`,
      ].filter((line) => line !== null);
      yield {
        kind: 'subagent_result',
        text: clip(lines.length > 0 ? lines.join('\n') : `Subagent ${key}`, SESSION_LIMITS.factText),
        key: clip(key, SESSION_LIMITS.label),
        status: agent.status === null ? null : clip(agent.status, SESSION_LIMITS.label),
      };
    }
  }
}

function relativeEdit(edit: FileEdit, cwd: string | null): FileEdit {
  return {
    ...edit,
    path: relativePath(edit.path, cwd),
    previousPath: edit.previousPath === null ? null : relativePath(edit.previousPath, cwd),
  };
}

// Several edits of one file in a run are one change: a rename moves the entry to its new path.
function mergeInto(files: Map<string, FileEdit>, edit: FileEdit): void {
  const from = edit.change === 'renamed' && edit.previousPath !== null ? edit.previousPath : edit.path;
  const previous = files.get(from);
  files.delete(from);
  if (previous === undefined) {
    files.set(edit.path, edit);
    return;
  }
  const change = mergedChange(previous.change, edit.change);
  files.set(edit.path, {
    path: edit.path,
    change,
    additions: sum(previous.additions, edit.additions),
    deletions: sum(previous.deletions, edit.deletions),
    previousPath: change === 'renamed' ? (previous.previousPath ?? edit.previousPath) : null,
  });
}

/** A later delete wins, even of a file the run created: it is gone at the end of the run. */
function mergedChange(previous: FileChangeKind, next: FileChangeKind): FileChangeKind {
  if (next === 'deleted') return 'deleted';
  if (previous === 'added') return 'added';
  if (previous === 'deleted' && next === 'added') return 'modified';
  if (previous === 'renamed' && next === 'modified') return 'renamed';
  return next;
}

function sum(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

function fileChangeFact(edit: FileEdit): ImportedFact {
  const counts = edit.additions !== null && edit.deletions !== null ? ` (+${edit.additions} -${edit.deletions})` : '';
  const from = edit.previousPath === null ? '' : ` from ${edit.previousPath}`;
  return {
    kind: 'file_change',
    text: clip(`${edit.path} ${edit.change}${from}${counts}`, SESSION_LIMITS.factText),
    key: clip(edit.path, SESSION_LIMITS.label),
    status: edit.change,
    file: {
      path: clip(edit.path, SESSION_LIMITS.path),
      change: edit.change,
      additions: edit.additions,
      deletions: edit.deletions,
      previousPath: edit.previousPath === null ? null : clip(edit.previousPath, SESSION_LIMITS.path),
    },
  };
}

function patchFailure(call: PatchCall, cwd: string | null, fixed: boolean): ImportedFact {
  const paths = call.edits.map((edit) => relativePath(edit.path, cwd)).join(', ');
  const output = call.result === null ? '' : tailExcerpt(call.result.output);
  return {
    kind: 'failure',
    text: clip(
      `${call.tool} failed${paths ? ` on ${paths}` : ''}${output ? `: ${output}` : ''}`,
      SESSION_LIMITS.factText,
    ),
    key: clip(`${call.tool} ${paths}`.trim(), SESSION_LIMITS.label),
    status: fixed ? 'fixed' : null,
  };
}

function commandStatus(command: string, result: CommandResult | null): string | null {
  if (result === null) return null;
  if (isSearchWithoutMatch(command, result.exitCode, result.output)) return 'no match';
  if (result.exitCode !== null) return `exit ${result.exitCode}`;
  if (result.interrupted) return 'interrupted';
  return result.error ? 'error' : null;
}

const FAILED_COMMAND_MAX = SESSION_LIMITS.factText - SESSION_LIMITS.excerpt - 40;

function succeeded(call: CommandCall): boolean {
  const result = call.result;
  return (
    result !== null && !result.error && (result.exitCode === 0 || commandStatus(call.command, result) === 'no match')
  );
}

function commandCallFacts({ command, result }: CommandCall, fixedLater: () => boolean): ImportedFact[] {
  const status = commandStatus(command, result);
  const key = clip(command, SESSION_LIMITS.label);
  const facts: ImportedFact[] = [
    {
      kind: 'command',
      text: clip(status === null ? command : `${command} (${status})`, SESSION_LIMITS.factText),
      key,
      status,
    },
  ];
  if (result === null) return facts;
  const failed = ((result.exitCode ?? 0) !== 0 && status !== 'no match') || result.error;
  // Only the counts of the summary line are kept: the output is read, not returned, so it is not
  // redacted (a whole output redacted per command was most of an import's parsing time).
  const tests = findTestSummary(withoutTerminalCodes(result.output));
  if (tests !== null) facts.push(testFact(command, key, tests, failed));
  if (failed) {
    const output = tailExcerpt(result.output);
    facts.push({
      kind: 'failure',
      text: clip(
        // The command is cut on its own, so the output's tail (where the error is) always fits.
        `Command failed (${status ?? 'error'}): ${clip(command, FAILED_COMMAND_MAX)}${output ? `\n${output}` : ''}`,
        SESSION_LIMITS.factText,
      ),
      key,
      status: fixedLater() ? 'fixed' : null,
    });
  }
  return facts;
}

function testFact(command: string, key: string, tests: TestSummary, commandFailed: boolean): ImportedFact {
  const unit = tests.unit === 'packages' ? ' packages' : '';
  return {
    kind: 'test',
    text: clip(`${command}: ${tests.passed}${unit} passed, ${tests.failed} failed`, SESSION_LIMITS.factText),
    key,
    status: tests.failed > 0 || commandFailed ? 'failed' : 'passed',
  };
}
