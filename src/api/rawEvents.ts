// completeRun's rawEvents: the provider's own records of the turn, turned into facts by the session
// adapters, or refused with the line or the reason that makes them unreadable. Up to a megabyte of
// them is read in slices, letting other requests run every few milliseconds.
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers/promises';
import { badInput } from '../domain/errors.js';
import type { NewRunFact } from '../domain/records.js';
import type { Sliced } from '../sessions/slices.js';
import { factsOfTurn, fileOf } from '../sessions/turn.js';
import type { SessionFormat } from '../sessions/types.js';
import { jsonLines } from './validation.js';

/** How long reading holds the event loop before it lets others run. */
const SLICE_MS = 5;

export interface RawEvents {
  format: SessionFormat;
  lines: readonly string[];
}

export async function rawEventFacts(rawEvents: RawEvents | null | undefined): Promise<NewRunFact[]> {
  if (!rawEvents) return [];
  const read = await betweenOthers(factsOfTurn(rawEvents.format, jsonLines('rawEvents.lines', rawEvents.lines)));
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

/** The result of sliced work, done a few milliseconds of slices at a time with other callbacks run between. */
async function betweenOthers<T>(work: Sliced<T>): Promise<T> {
  let since = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (performance.now() - since >= SLICE_MS) {
      await setImmediate();
      since = performance.now();
    }
  }
}
