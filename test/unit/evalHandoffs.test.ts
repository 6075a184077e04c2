// What a handoff keeps (issue 16): facts about the summarizer over the session fixtures, not timing.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BUDGET,
  REQUIRED_SHARE,
  evaluateThread,
  failuresOf,
  forbiddenStrings,
  isKept,
  leaksIn,
  share,
} from '../../src/sessions/eval.js';
import { evaluateFixtures } from '../../tools/evalHandoffs.js';
import { FIXTURES, HIDDEN_MARKER, SECRETS, fixture } from './sessions/fixtures.js';

const allFixtures = Object.values(FIXTURES).map((path) => {
  const { fileName, text } = fixture(path);
  return { name: fileName, text };
});

describe('what a handoff keeps', () => {
  it('keeps at least 95% of every fixture thread’s artifacts at the default budget, and nothing forbidden', async () => {
    const evaluations = await evaluateFixtures();
    expect(evaluations.map((evaluation) => evaluation.name)).toEqual([
      'fixtures: codex',
      'fixtures: claude',
      'fixtures: all',
    ]);
    for (const evaluation of evaluations) {
      const atDefault = evaluation.results.find((result) => result.budget === DEFAULT_BUDGET)!;
      expect(atDefault.overall.total).toBeGreaterThan(0);
      expect(
        share(atDefault.overall),
        `${evaluation.name} lost ${JSON.stringify(atDefault.lost)}`,
      ).toBeGreaterThanOrEqual(REQUIRED_SHARE);
      expect(failuresOf(evaluation)).toEqual([]);
    }
  });

  it('reads the whole thread an import makes: every session, every run in time order', async () => {
    const all = (await evaluateFixtures()).find((evaluation) => evaluation.name === 'fixtures: all')!;
    expect(all).toMatchObject({ sessions: 6, skipped: [] });
    expect(all.results[0]!.kept.failures.total).toBeGreaterThan(0);
  });

  it('counts what a budget too small for the document leaves out', () => {
    const [tight] = evaluateThread('all', allFixtures, { budgets: [600] }).results;
    expect(tight!.length).toBeLessThanOrEqual(600);
    expect(tight!.lost.length).toBeGreaterThan(0);
    expect(share(tight!.overall)).toBeLessThan(REQUIRED_SHARE);
  });

  it('forbids the fixtures’ reasoning and thinking texts, injected-instruction markers and secret-shaped text', () => {
    const forbidden = forbiddenStrings(allFixtures, SECRETS);
    expect(forbidden.filter((text) => text.includes(HIDDEN_MARKER)).length).toBeGreaterThanOrEqual(3);
    expect(leaksIn('fine\n<environment_context>cwd</environment_context>', forbidden)).toEqual([
      '<environment_context>',
    ]);
    expect(leaksIn(`- Command: echo ${SECRETS[4]}`, forbidden)).toContain(SECRETS[4]);
    expect(leaksIn('- Command: curl -H "Authorization: Bearer abcdefgh12345"', [])).toHaveLength(1);
    expect(leaksIn('- Command: curl -H "Authorization: Bearer [redacted]"', forbidden)).toEqual([]);
  });

  it('counts an artifact as kept when the handoff names it, whatever its line breaks', () => {
    expect(
      isKept(
        { category: 'failures', text: 'Command failed (exit 1): make\nError: boom' },
        '- Command failed (exit 1): make Error: boom (run 2)',
      ),
    ).toBe(true);
    expect(isKept({ category: 'files', text: 'src/a.ts' }, '- src/b.ts (modified)')).toBe(false);
  });
});
