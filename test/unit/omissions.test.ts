import { describe, expect, it } from 'vitest';
import { appendOmissions, findOmissions, mustMention } from '../../src/domain/omissions.js';
import type { SummaryFact } from '../../src/domain/summary.js';

const fact = (kind: SummaryFact['kind'], text: string, extra: Partial<SummaryFact> = {}): SummaryFact => ({
  runOrdinal: 1,
  kind,
  text,
  key: null,
  status: null,
  ...extra,
});

const covered = {
  facts: [
    fact('file_change', 'src/parser.ts changed', { key: 'src/parser.ts' }),
    fact('command', 'npm run build ran', { key: 'npm run build' }),
    fact('question', 'Keep the old API?', { key: 'q1', status: 'open' }),
    fact('question', 'Use tabs?', { key: 'q2', status: 'open' }),
    fact('question', 'Use tabs?', { key: 'q2', status: 'answered', runOrdinal: 2 }),
    fact('failure', 'Build broke on Node 18'),
    fact('decision', 'Not checked: decisions are free text'),
  ],
  runs: [
    {
      ordinal: 3,
      provider: 'codex',
      status: 'failed' as const,
      userMessage: 'x',
      assistantMessage: null,
      error: 'tool crashed',
    },
  ],
  latestCheckpoint: {
    runOrdinal: 2,
    ref: 'abc',
    diffSummary: null,
    files: [{ path: 'README.md', change: 'modified' as const, additions: 1, deletions: 0 }],
  },
};

describe('omissions', () => {
  it('lists what any summary must mention, answered questions excepted', () => {
    expect(mustMention(covered)).toEqual([
      'file: src/parser.ts',
      'command: npm run build',
      'question: Keep the old API?',
      'failure: Build broke on Node 18',
      'file: README.md',
      'failure: run 3: tool crashed',
    ]);
  });

  it('finds the items a summary left out, ignoring case', () => {
    const summary = 'We changed SRC/PARSER.TS and ran npm run build. The build broke on node 18. Also README.md.';
    expect(findOmissions(summary, covered)).toEqual(['question: Keep the old API?', 'failure: run 3: tool crashed']);
  });

  it('appends a deterministic section and stays within the budget', () => {
    const omissions = ['file: src/a.ts', 'question: Why?'];
    expect(appendOmissions('Summary.', omissions, null)).toBe(
      'Summary.\n\n## Facts not in the summary above\n- file: src/a.ts\n- question: Why?',
    );
    const long = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n');
    const result = appendOmissions(long, omissions, 120);
    expect(result.length).toBeLessThanOrEqual(120);
    expect(result).toContain('- question: Why?');
    expect(result.startsWith('line 0')).toBe(true);
    expect(appendOmissions('unchanged', [], 5)).toBe('unchanged');
  });
});
