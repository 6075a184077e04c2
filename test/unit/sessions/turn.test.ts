import { describe, expect, it } from 'vitest';
import { completed } from '../../../src/sessions/slices.js';
import { factsOfTurn } from '../../../src/sessions/turn.js';
import { FIXTURES, fixture } from './fixtures.js';

/** The lines of the Claude fixture session's last turn: its user message and the answer. */
function lastClaudeTurn(): string[] {
  const lines = fixture(FIXTURES.claudeMain)
    .text.split('\n')
    .filter((line) => line.length > 0);
  const start = lines.findIndex((line) => line.includes('"content":"Wait, ask me which environment first"'));
  return lines.slice(start, start + 2);
}

describe("factsOfTurn: completeRun's raw events", () => {
  it("reads one turn's records with its format's adapter and returns their facts", () => {
    expect(completed(factsOfTurn('claude', lastClaudeTurn()))).toEqual({
      facts: [
        {
          kind: 'question',
          text: expect.stringMatching(/^Which environment/),
          key: expect.any(String),
          status: 'open',
        },
      ],
    });
  });

  it('refuses records of another format, naming the one they look like', () => {
    expect(completed(factsOfTurn('codex', lastClaudeTurn()))).toEqual({ refusal: 'format', detected: 'claude' });
    expect(completed(factsOfTurn('codex', ['{"note": 1}']))).toEqual({ refusal: 'format', detected: null });
  });

  it('refuses a line that is not a record, and records that hold no turn', () => {
    expect(completed(factsOfTurn('claude', [...lastClaudeTurn(), '{"type": "user"']))).toEqual({
      refusal: 'line',
      problem: { line: 3, reason: 'not valid JSON' },
    });
    expect(completed(factsOfTurn('claude', lastClaudeTurn().slice(1)))).toEqual({ refusal: 'no_turn' });
  });
});
