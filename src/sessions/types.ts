// What the session adapters return: a provider's own session file read as Threadline runs and facts.
// Plain data, ready for startRun / completeRun / failRun; every string is cleaned, redacted and bounded.
import type { ImportedRunStatus } from '../domain/imports.js';
import type { FileChangeKind, RunFactKind } from '../domain/records.js';

export type SessionFormat = 'codex' | 'claude';

// Kept within the service's input limits (LIMITS in src/api/validation.ts, documented in schema/runs.graphql);
// test/unit/sessions/text.test.ts checks that they stay there.
export const SESSION_LIMITS = {
  /** userMessage and assistantMessage: the service takes 100,000, a session import needs far less. */
  message: 20_000,
  factText: 1_000,
  /** Fact keys and statuses, model names, ids. */
  label: 200,
  /** Tool output kept in a fact: never more than a short excerpt. */
  excerpt: 400,
  path: 4_000,
  factsPerRun: 500,
  timestamp: 64,
} as const;

export interface ParsedSession {
  format: SessionFormat;
  /** The provider thread's own id (a Codex thread id, a Claude session id, or a Claude subagent's agent id). */
  sessionId: string;
  provider: SessionFormat;
  /** The newest model the session used. */
  model: string | null;
  cwd: string | null;
  startedAt: string | null;
  /** The session this one is a subagent or a fork of, when the file says so. */
  parentSessionId: string | null;
  relationship: 'subagent' | 'fork' | null;
  /** A Claude Code workflow agent's name, from its meta file: its agent type and workflow step. */
  agentName: string | null;
  runs: ImportedRun[];
  /** The 1-based line of the record that opened each of `runs`, as parsed (a reader that resumes mid-file cuts there). */
  runLines: number[];
  compactions: number;
  /** Branches left behind by a Claude rewind or a Codex rollback: counted, never imported. */
  abandonedBranches: number;
  unknownRecordTypes: Record<string, number>;
  problems: SessionProblem[];
  /** What was read but adjusted: times that ran backwards (clamped so a run never ends before it starts). */
  warnings: SessionProblem[];
  /** Subagents whose records the same file holds (Claude Code 1.x inline sidechains): sessions of their own. */
  subagents: ParsedSession[];
}

export interface SessionProblem {
  /** 1-based line of the file. */
  line: number;
  reason: string;
}

export interface ImportedRun {
  /**
   * The provider's own id of the record that opened the turn (a Claude message uuid, a Codex user item
   * or turn id); a resume or a fork copies it with the record, so a copied turn is known by it. Null
   * when the records carry none.
   */
  sourceId: string | null;
  startedAt: string;
  completedAt: string | null;
  /** The model that answered this run, when the records name it. */
  model: string | null;
  userMessage: string;
  assistantMessage: string | null;
  status: ImportedRunStatus;
  facts: ImportedFact[];
}

export interface ImportedFileChange {
  /** Relative to the session's cwd when the file lies under it. */
  path: string;
  change: FileChangeKind;
  additions: number | null;
  deletions: number | null;
  /** The path before a rename. */
  previousPath: string | null;
}

/** A file_change fact carries its typed change; every other kind is text, key and status only. */
export type ImportedFact =
  | { kind: Exclude<RunFactKind, 'file_change'>; text: string; key: string | null; status: string | null }
  | { kind: 'file_change'; text: string; key: string; status: FileChangeKind; file: ImportedFileChange };
