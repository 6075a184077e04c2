// completeRun's rawEvents: the provider's own records of the turn, turned into facts by the session
// adapters, or refused with the line or the reason that makes them unreadable.
import { badInput } from '../domain/errors.js';
import type { NewRunFact } from '../domain/records.js';
import { factsOfTurn, fileOf } from '../sessions/turn.js';
import type { SessionFormat } from '../sessions/types.js';
import { jsonLines } from './validation.js';

export interface RawEvents {
  format: SessionFormat;
  lines: readonly string[];
}

export function rawEventFacts(rawEvents: RawEvents | null | undefined): NewRunFact[] {
  if (!rawEvents) return [];
  const read = factsOfTurn(rawEvents.format, jsonLines('rawEvents.lines', rawEvents.lines));
  if ('facts' in read)
    return read.facts.map((fact) => ({
      kind: fact.kind,
      text: fact.text,
      key: fact.key,
      status: fact.status,
      file: fileOf(fact),
    }));
  switch (read.refusal) {
    case 'format':
      throw badInput(
        'rawEvents.format',
        `the lines are not ${rawEvents.format.toUpperCase()} records${read.detected ? ` (they look like ${read.detected.toUpperCase()} records)` : ''}`,
      );
    case 'line':
      throw badInput(`rawEvents.lines[${read.problem.line - 1}]`, read.problem.reason);
    case 'no_turn':
      throw badInput('rawEvents.lines', 'hold no turn: they start with the user message of the turn');
  }
}
