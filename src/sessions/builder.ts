// The part of reading a session both adapters share: runs as they are read, compactions, unknown record
// types and problems, and turning it all into a ParsedSession.
import { RunActivity } from './activity.js';
import { PlanTracker } from './plan.js';
import { shellFileEdits } from './shellEdits.js';
import type { Sliced } from './slices.js';
import { clip, clipOrNull } from './text.js';
import type { ImportedRunStatus } from '../domain/imports.js';
import {
  SESSION_LIMITS,
  type ImportedFact,
  type ImportedRun,
  type ParsedSession,
  type SessionFormat,
  type SessionProblem,
} from './types.js';

export class RunDraft {
  readonly activity = new RunActivity();
  private answer: string | null = null;
  private answerMessageId: string | null = null;
  private outcome: ImportedRunStatus | null = null;
  private endedAt: string | null = null;
  private lastAt: string | null = null;

  constructor(
    readonly startedAt: string,
    readonly userMessage: string,
    public model: string | null,
    readonly sourceId: string | null,
    /** 1-based line of the record that opened the run. */
    readonly line: number,
  ) {}

  get ended(): boolean {
    return this.outcome !== null;
  }

  /** A record of the run was seen at `at`: the run lasted at least until then. */
  touch(at: string | null): void {
    if (at !== null) this.lastAt = at;
  }

  /**
   * The newest assistant text is the answer so far. Parts of one message (same id) are joined; a later
   * message replaces the earlier one, so the run's answer is its final text.
   */
  assistantText(text: string, messageId: string | null = null): void {
    if (text.trim().length === 0) return;
    const sameMessage = messageId !== null && messageId === this.answerMessageId;
    this.answer = sameMessage && this.answer !== null ? `${this.answer}\n\n${text}` : text;
    this.answerMessageId = messageId;
  }

  /** A command that succeeded may have deleted or renamed files itself (rm, mv, git rm, git mv). */
  commandSucceeded(callId: string, command: string): void {
    const edits = shellFileEdits(command);
    if (edits.length === 0) return;
    const id = `${callId}#shell`;
    this.activity.patch(id, 'shell', edits);
    this.activity.patchResult(id, { applied: true, output: '' });
  }

  /** The provider's own word for the final answer overrides the text gathered so far. */
  finalAnswer(text: string | null): void {
    if (text !== null && text.trim().length > 0) this.answer = text;
  }

  get endedAtOrLast(): string | null {
    return this.endedAt ?? this.lastAt;
  }

  end(outcome: ImportedRunStatus, at: string | null): void {
    if (this.ended) return;
    this.outcome = outcome;
    this.endedAt = at;
  }

  /** The run as imported, a slice per fact of what it did. */
  *finish(cwd: string | null, plans: PlanTracker, startedAt: string): Sliced<ImportedRun> {
    const answer = clipOrNull(this.answer, SESSION_LIMITS.message);
    const facts: ImportedFact[] = [];
    for (const fact of this.activity.facts(cwd)) {
      facts.push(fact);
      yield;
    }
    facts.push(...(this.activity.plan === null ? [] : plans.facts(this.activity.plan)), ...questionFacts(this.answer));
    const completedAt = this.endedAtOrLast;
    return {
      sourceId: clipOrNull(this.sourceId, SESSION_LIMITS.label),
      startedAt,
      completedAt: completedAt !== null && completedAt < startedAt ? startedAt : completedAt,
      model: clipOrNull(this.model, SESSION_LIMITS.label),
      userMessage: clip(this.userMessage, SESSION_LIMITS.message),
      assistantMessage: answer,
      // Without an explicit end, a run that produced an answer completed; one that did not was cut off.
      status: this.outcome ?? (answer === null ? 'interrupted' : 'completed'),
      facts: latestPerKey(facts).slice(0, SESSION_LIMITS.factsPerRun),
    };
  }
}

export interface SessionMeta {
  format: SessionFormat;
  sessionId: string;
  model: string | null;
  cwd: string | null;
  startedAt: string | null;
  parentSessionId: string | null;
  relationship: 'subagent' | 'fork' | null;
  agentName?: string | null;
}

export class SessionBuilder {
  private readonly drafts: RunDraft[] = [];
  private readonly unknownTypes = new Map<string, number>();
  private compactionCount = 0;
  private unpairedCompaction: 'marker' | 'summary' | null = null;
  private abandoned = 0;

  constructor(private readonly problems: SessionProblem[]) {}

  startRun(
    opening: { at: string; line: number; sourceId: string | null },
    userMessage: string,
    model: string | null,
  ): RunDraft {
    this.unpairedCompaction = null;
    const draft = new RunDraft(opening.at, userMessage, model, opening.sourceId, opening.line);
    this.drafts.push(draft);
    return draft;
  }

  /** The run records belong to now: the newest one, unless it has ended. */
  get current(): RunDraft | null {
    const latest = this.drafts.at(-1);
    return latest === undefined || latest.ended ? null : latest;
  }

  /** Runs the provider took back out of its thread (a rollback): counted as one abandoned branch. */
  dropLastRuns(count: number): void {
    if (count <= 0 || this.drafts.length === 0) return;
    this.drafts.splice(Math.max(0, this.drafts.length - count));
    this.abandoned += 1;
  }

  abandonedBranches(count: number): void {
    this.abandoned += count;
  }

  /**
   * Reads one record. The run it belongs to lasted at least until the record's time, unless the record
   * ended that run or started the next one.
   */
  record(at: string | null, read: () => void): void {
    const run = this.current;
    read();
    if (run !== null && this.current === run) run.touch(at);
  }

  problem(line: number, reason: string): void {
    this.problems.push({ line, reason });
  }

  unknownType(type: string): void {
    const key = clip(type, SESSION_LIMITS.label);
    this.unknownTypes.set(key, (this.unknownTypes.get(key) ?? 0) + 1);
  }

  /**
   * One compaction can leave two records: a marker (Codex `compacted`, Claude compact_boundary) and a
   * summary or notice (Codex context_compacted, Claude's compact summary message). A record of one kind
   * right after an unpaired record of the other is the same compaction.
   */
  compaction(kind: 'marker' | 'summary'): void {
    if (this.unpairedCompaction !== null && this.unpairedCompaction !== kind) {
      this.unpairedCompaction = null;
      return;
    }
    this.compactionCount += 1;
    this.unpairedCompaction = kind;
  }

  *build(meta: SessionMeta, subagents: ParsedSession[] = []): Sliced<ParsedSession> {
    const plans = new PlanTracker();
    const cwd = clipOrNull(meta.cwd, SESSION_LIMITS.path);
    const warnings: SessionProblem[] = [];
    let previousStart: string | null = null;
    const runs: ImportedRun[] = [];
    for (const draft of this.drafts) {
      // A clock set back mid-session makes times run backwards: a run never starts before the one
      // before it, nor ends before it starts (ISO 8601 UTC times order as strings).
      const startedAt: string =
        previousStart !== null && draft.startedAt < previousStart ? previousStart : draft.startedAt;
      runs.push(yield* draft.finish(meta.cwd, plans, startedAt));
      const ended = draft.endedAtOrLast;
      if (startedAt !== draft.startedAt || (ended !== null && ended < startedAt))
        warnings.push({ line: draft.line, reason: "timestamps run backwards: the turn's times were clamped" });
      previousStart = startedAt;
    }
    return {
      format: meta.format,
      sessionId: clip(meta.sessionId, SESSION_LIMITS.label),
      provider: meta.format,
      model: clipOrNull(meta.model, SESSION_LIMITS.label),
      cwd,
      startedAt: meta.startedAt,
      parentSessionId: clipOrNull(meta.parentSessionId, SESSION_LIMITS.label),
      relationship: meta.relationship,
      agentName: clipOrNull(meta.agentName ?? null, SESSION_LIMITS.label),
      runs,
      runLines: this.drafts.map((draft) => draft.line),
      compactions: this.compactionCount,
      abandonedBranches: this.abandoned,
      unknownRecordTypes: Object.fromEntries(this.unknownTypes),
      problems: this.problems,
      warnings,
      subagents,
    };
  }
}

const QUESTION_END = /\?[\s*_`)\]"'”’»]*$/;

/** A final answer that ends by asking something leaves an open question. */
function questionFacts(answer: string | null): ImportedFact[] {
  if (answer === null || !QUESTION_END.test(answer)) return [];
  const lastParagraph =
    answer
      .trim()
      .split(/\n\s*\n/)
      .at(-1) ?? '';
  const question = (lastParagraph.split(/(?<=[.!])\s+/).at(-1) ?? lastParagraph).replace(/^[-*>\s]+/, '').trim();
  if (question.length === 0) return [];
  return [
    {
      kind: 'question',
      text: clip(question, SESSION_LIMITS.factText),
      key: clip(question, SESSION_LIMITS.label),
      status: 'open',
    },
  ];
}

/** Facts with the same kind and key describe one thing: the last one is its state at the run's end. */
function latestPerKey(facts: ImportedFact[]): ImportedFact[] {
  const latest = new Map<string, ImportedFact>();
  facts.forEach((fact, index) => {
    const id = fact.key === null ? `#${index}` : `${fact.kind}\u0000${fact.key}`;
    latest.delete(id);
    latest.set(id, fact);
  });
  return [...latest.values()];
}
