// A provider's own records of one turn, sent with completeRun, read as a session file by the same
// adapters that import whole sessions.
import { detectFormat, readSession } from './index.js';
import type { FileChangeRecord } from '../domain/records.js';
import type { Sliced } from './slices.js';
import type { ImportedFact, SessionFormat, SessionProblem } from './types.js';
import { present } from '../domain/errors.js';

// The adapters recognise a session file by its extension before its content.
const TURN_FILE_NAME = 'turn.jsonl';

export type TurnFacts =
  | { facts: ImportedFact[] }
  | { refusal: 'format'; detected: SessionFormat | null }
  | { refusal: 'line'; problem: SessionProblem }
  | { refusal: 'no_turn' };

/** The facts of the turns the lines hold, or why they cannot be read as records of `format`; in slices. */
export function* factsOfTurn(format: SessionFormat, lines: readonly string[]): Sliced<TurnFacts> {
  const text = lines.join('\n');
  const detected = detectFormat(TURN_FILE_NAME, text);
  if (detected !== format) return { refusal: 'format', detected };
  const session = present(yield* readSession(TURN_FILE_NAME, text), `a ${format} session of the detected format`);
  const [problem] = session.problems;
  if (problem) return { refusal: 'line', problem };
  if (session.runs.length === 0) return { refusal: 'no_turn' };
  return { facts: session.runs.flatMap((run) => run.facts) };
}

/** The typed change a file_change fact carries, as a run records it (the path before a rename stays in its text). */
export function fileOf(fact: ImportedFact): FileChangeRecord | null {
  if (fact.kind !== 'file_change') return null;
  const { path, change, additions, deletions, previousPath } = fact.file;
  return { path, change, additions, deletions, previousPath };
}
