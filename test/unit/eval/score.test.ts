// The scorer of tools/eval/score.ts on a small truth and texts written for it: what counts as kept,
// a wrong final state, and each kind of stale item.
import { describe, expect, it } from 'vitest';
import type { GroundTruth } from '../../../tools/eval/groundTruth.js';
import { commandOpening, missedTargets, scoreHandoff, totalOf } from '../../../tools/eval/score.js';

const truth: GroundTruth = {
  files: [
    { path: 'src/a.ts', state: 'modified', from: null },
    { path: 'scripts/dump.py', state: 'deleted', from: null },
    { path: 'pebble/b.py', state: 'renamed', from: 'pebble/a.py' },
  ],
  commands: [
    { command: 'npm test', ok: true, exitCode: 0, runs: 2, fixed: true },
    { command: 'npm run lint', ok: false, exitCode: 1, runs: 1, fixed: false },
  ],
  unresolvedFailures: [{ target: 'npm run lint', kind: 'command' }],
  openTodos: ['Document the flag'],
  doneTodos: ['Add the flag'],
  lastUserRequest: "Yes, add a header row. Don't touch the README yet.",
  answeredQuestions: ['Should the dump be JSON?'],
  explorationCommands: 3,
  searchesWithoutMatch: ['rg -n Cache tests'],
  reasoning: ['**Planning** the discount before the tests'],
};

const faithful = `# Handoff
Last request: Yes, add a header row. Don't touch the README yet.

## Files changed
- src/a.ts (modified, +3/-1)
- scripts/dump.py (deleted)
- pebble/a.py → pebble/b.py (renamed)

## Unresolved failures
- npm run lint (exit 1): no-unused-vars

## Commands
- npm test: passed (fixed since run 2)

## Open todos
- Document the flag

## Questions
- Should the dump be JSON? (answered)
`;

describe('scoreHandoff', () => {
  it('keeps everything a faithful text states, with nothing stale', () => {
    const score = scoreHandoff(truth, faithful);
    expect(score.kinds).toEqual({
      files: { kept: 3, total: 3 },
      commands: { kept: 2, total: 2 },
      failures: { kept: 1, total: 1 },
      todos: { kept: 1, total: 1 },
      request: { kept: 1, total: 1 },
    });
    expect(score.stale).toEqual([]);
    expect(score.wrongState).toEqual([]);
    expect(score.leaks).toEqual([]);
    expect(missedTargets(score)).toEqual([]);
  });

  it('finds a failure removed from the text, and a request cut to its first sentence', () => {
    const cut = faithful
      .split('\n')
      .filter((line) => !line.includes('npm run lint'))
      .join('\n')
      .replace("Don't touch the README yet.", '');
    const score = scoreHandoff(truth, cut);
    expect(score.kinds.failures).toEqual({ kept: 0, total: 1 });
    expect(score.kinds.request).toEqual({ kept: 0, total: 1 });
    expect(score.missing).toContainEqual({ kind: 'failures', item: 'npm run lint' });
    expect(missedTargets(score)).toEqual([
      'commands: 1 of 2, target 90%',
      'failures: 0 of 1, target 100%',
      'request: 0 of 1, target 100%',
    ]);
  });

  it('calls a deleted file shown as added a wrong final state and stale; prose naming a path states nothing', () => {
    const wrong = faithful.replace('- scripts/dump.py (deleted)', '- scripts/dump.py (added, +640/-0)');
    const score = scoreHandoff(truth, wrong);
    expect(score.kinds.files).toEqual({ kept: 2, total: 3 });
    expect(score.wrongState).toEqual(['scripts/dump.py (deleted)']);
    expect(score.stale).toEqual(['file scripts/dump.py shown as present']);
    const prose = `${faithful.replace('- scripts/dump.py (deleted)\n', '')}\n## Runs\n- 2 · user: dump it → Added \`scripts/dump.py\`.\n`;
    expect(scoreHandoff(truth, prose)).toMatchObject({ wrongState: [], kinds: { files: { kept: 2, total: 3 } } });
  });

  it('finds stale items: a fixed failure, an answered question, a done todo shown open, a search with no match', () => {
    const stale = `${faithful}
## Known failures
- Command failed (exit 1): npm test
- Command failed (exit 1): rg -n Cache tests
## Open questions
- Should the dump be JSON? [open]
## Plan
- Add the flag [in_progress]
`;
    expect(scoreHandoff(truth, stale).stale).toEqual([
      'fixed failure shown as failing: npm test',
      'search without a match shown as a failure: rg -n Cache tests',
      'completed todo shown as open: Add the flag',
      'answered question shown as open: Should the dump be JSON?',
    ]);
  });

  it('finds reasoning and injected context that leaked into the text', () => {
    const leaked = `${faithful}\n- user: <environment_context> cwd\n- note: **Planning** the discount before the tests, then\n`;
    expect(scoreHandoff(truth, leaked).leaks).toEqual([
      '**Planning** the discount before the tests',
      '<environment_context>',
    ]);
    expect(missedTargets(scoreHandoff(truth, leaked))).toEqual(['leaks: 2']);
  });

  it('identifies a command by its opening, cut before a secret', () => {
    expect(commandOpening("curl -s -H 'Authorization: Bearer tokFAKE1234567890abcdef' https://x")).toBe(
      "curl -s -H 'Authorization: Bearer",
    );
    expect(commandOpening(`python -m pytest ${'tests/test_x.py '.repeat(10)}`)).toHaveLength(80);
  });

  it('sums scores kind by kind', () => {
    const total = totalOf([scoreHandoff(truth, faithful), scoreHandoff(truth, '')]);
    expect(total.kinds.files).toEqual({ kept: 3, total: 6 });
    expect(total.missing).toHaveLength(8);
  });
});
