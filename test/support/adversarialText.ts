// Text built to make a backtracking pattern work hard: each pattern's prefixes repeated, alone or with
// what would almost complete them, up to a given length, and the check that a handler's time per
// character does not grow with the length. Used by the linear-time test of the session text handling
// (test/unit/sessions/linearTime.test.ts) and by `npm run fuzz`, which adds random mixes of the units.
import { performance } from 'node:perf_hooks';
import { LIMITS } from '../../src/api/validation.js';
import { withoutSuggestions } from '../../src/server/armor.js';
import { findTestSummary } from '../../src/sessions/testSummary.js';
import { humanText } from '../../src/sessions/injected.js';
import { cleanText } from '../../src/sessions/text.js';
import { completed } from '../../src/sessions/slices.js';
import { factsOfTurn } from '../../src/sessions/turn.js';

/** The openings of what the session text handling looks for: secrets, tags, escapes, test summaries. */
export const ADVERSARIAL_UNITS: readonly string[] = [
  'token.',
  'token=',
  'token: ',
  'password ',
  'api_key:"',
  'secret',
  'Bearer ',
  'Basic a1',
  'Authorization: Bearer ',
  'sk-',
  'sk-ant-',
  'ghp_',
  'github_pat_',
  'xoxb-',
  'AKIA',
  '-eyJ',
  'eyJaaaaaaaaa.',
  '-----BEGIN ',
  '-----BEGIN PRIVATE KEY-----',
  '-----END ',
  '\u001b[1',
  '\u001b]',
  '<environment_context>',
  '<command-name> ',
  '<command-args>',
  'Tests: 1',
  '1 passed',
  '1 a',
  '1',
  ' ',
  '\n',
  '\n \n',
  '=',
  'ok x ',
  '? ',
  'Did you mean ',
];

/** `unit` repeated to `length` characters; `tail` variants end in a filler that almost completes it. */
export function adversarialText(unit: string, length: number, variant: 'repeat' | 'tail' = 'repeat'): string {
  if (variant === 'tail') return (unit + 'a'.repeat(length)).slice(0, length);
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** Every handler of a client's text the service runs: raw events' session text, errors' messages. */
export const TEXT_HANDLERS: Readonly<Record<string, (text: string) => unknown>> = {
  withoutSuggestions,
  cleanText,
  humanText,
  findTestSummary,
  codexTurn: (text) => completed(factsOfTurn('codex', codexTurn(text))),
  commandsTurn: (text) => completed(factsOfTurn('codex', commandsTurn(text))),
};

/**
 * A Codex turn of many commands: `text` cut into pieces of COMMAND_PIECE characters, each run as a
 * command of one program (with an argument of its own) that fails or succeeds in turn and prints its piece. Its work grows with the
 * number of commands, which a run compares with one another (which later one fixed a failure).
 */
export function commandsTurn(text: string): string[] {
  const [context, message] = codexTurn('run the tests');
  const commands = Array.from({ length: Math.ceil(text.length / COMMAND_PIECE) }, (_, index) => {
    const piece = text.slice(index * COMMAND_PIECE, (index + 1) * COMMAND_PIECE);
    return codexEvent({
      type: 'exec_command_end',
      call_id: `c${index}`,
      command: ['npm', 'test', '--', `case${index}`],
      exit_code: index % 2,
      aggregated_output: piece,
    });
  });
  return [context!, message!, ...commands, codexEvent({ type: 'agent_message', message: 'done' })];
}

const COMMAND_PIECE = 400;

/** A Codex turn whose user message, command output and answer are each `text` (one line each). */
export function codexTurn(text: string): string[] {
  return [
    JSON.stringify({ timestamp: AT, type: 'turn_context', payload: { turn_id: 't', cwd: '/w', model: 'gpt-5' } }),
    codexEvent({ type: 'user_message', message: text, images: [] }),
    codexEvent({
      type: 'exec_command_end',
      call_id: 'c1',
      command: ['npm', 'test'],
      exit_code: 1,
      aggregated_output: text,
    }),
    codexEvent({ type: 'agent_message', message: text }),
  ];
}

const AT = '2026-03-02T10:00:00.000Z';

function codexEvent(payload: object): string {
  return JSON.stringify({ timestamp: AT, type: 'event_msg', payload });
}

const GROWTH = 8;
/** Linear work gives about 1; a quadratic handler gives GROWTH, a cubic one GROWTH². */
const MAX_TIME_RATIO = 4;
/** Smaller sizes first: a super-linear handler fails there, before the longest line would take hours. */
const SIZES = [4_000, 25_000, LIMITS.rawEventLine];

/** The large text's time over GROWTH times the small one's, the best of a few tries (noise only adds). */
function timeRatio(handle: (text: string) => unknown, small: string, large: string): number {
  let best = Infinity;
  for (let attempt = 0; attempt < 4 && best > MAX_TIME_RATIO / 2; attempt++) {
    const smallStart = performance.now();
    for (let i = 0; i < GROWTH; i++) handle(small);
    const smallTime = performance.now() - smallStart;
    const largeStart = performance.now();
    handle(large);
    const largeTime = performance.now() - largeStart;
    // Under a millisecond the timer's grain, not the work, sets the ratio.
    best = Math.min(best, Math.max(largeTime, 1) / Math.max(smallTime, 1));
  }
  return best;
}

/**
 * Where `handle` takes super-linear time on `text(length)`: one line per size whose time per character
 * is more than MAX_TIME_RATIO times that of an eighth of it; empty when linear up to the longest line.
 */
export function superLinear(handle: (text: string) => unknown, text: (length: number) => string): string[] {
  for (const large of SIZES) {
    const ratio = timeRatio(handle, text(large / GROWTH), text(large));
    if (ratio > MAX_TIME_RATIO) return [`${ratio.toFixed(1)}x the time per character at ${large} characters`];
  }
  return [];
}
