import { describe, expect, it } from 'vitest';
import { RECEIPT_OMITTED_MAX, receiptFor } from '../../../src/domain/receipt.js';
import { renderSummary, type SummaryFact, type SummaryInput } from '../../../src/domain/summary.js';

const fact = (
  runOrdinal: number,
  kind: SummaryFact['kind'],
  text: string,
  key: string | null = null,
  status: string | null = null,
): SummaryFact => ({ runOrdinal, kind, text, key, status });

function input(facts: SummaryFact[], runs = 3): SummaryInput {
  return {
    strategy: 'full_thread_summary',
    threadId: 'th',
    title: null,
    covered: { from: 1, to: runs },
    providers: ['codex'],
    runs: Array.from({ length: runs }, (_, i) => ({
      ordinal: i + 1,
      provider: 'codex',
      status: 'completed' as const,
      userMessage: `request ${i + 1}`,
      assistantMessage: `answer ${i + 1}`,
      error: null,
    })),
    omittedRunCount: 0,
    facts,
    latestCheckpoint: null,
    targetProvider: 'claude',
  };
}

const session = input([
  fact(1, 'file_change', 'src/a.ts added', 'src/a.ts', 'added'),
  fact(1, 'file_change', 'src/gone.ts added', 'src/gone.ts', 'added'),
  fact(2, 'file_change', 'src/gone.ts deleted', 'src/gone.ts', 'deleted'),
  fact(1, 'command', 'npm test (exit 1)', 'npm test', 'exit 1'),
  fact(1, 'failure', 'Command failed (exit 1): npm test\nFAILED a.test.ts', 'npm test'),
  fact(3, 'command', 'npm test (exit 0)', 'npm test', 'exit 0'),
  fact(2, 'command', 'make lint (exit 2)', 'make lint', 'exit 2'),
  fact(2, 'failure', 'Command failed (exit 2): make lint\nlint error in b.ts', 'make lint'),
  fact(2, 'command', "sed -n '1,40p' src/a.ts (exit 0)", "sed -n '1,40p' src/a.ts", 'exit 0'),
  fact(1, 'plan_item', 'Old plan step', 'Old plan step', 'open'),
  fact(3, 'plan_item', 'Write docs', 'Write docs', 'open'),
  fact(3, 'plan_item', 'Ship', 'Ship', 'done'),
  fact(1, 'question', 'Should I add a header?', 'Should I add a header?', 'open'),
  fact(3, 'question', 'Keep the README as is?', 'Keep the README as is?', 'open'),
]);

describe('receiptFor', () => {
  it('counts what the covered runs hold at the handoff: final files, no exploration, unresolved failures, last plan, open questions', () => {
    const receipt = receiptFor(session, renderSummary(session, null));
    expect(receipt).toEqual({
      files: { held: 2, kept: 2, omitted: [] },
      commands: { held: 2, kept: 2, omitted: [] },
      failures: { held: 1, kept: 1, omitted: [] },
      todos: { held: 1, kept: 1, omitted: [] },
      questions: { held: 1, kept: 1, omitted: [] },
    });
  });

  it('names what a text left out', () => {
    const receipt = receiptFor(session, 'We changed src/a.ts, removed src/gone.ts and ran npm test.');
    expect(receipt.failures).toEqual({ held: 1, kept: 0, omitted: ['Command failed (exit 2): make lint'] });
    expect(receipt.commands).toEqual({ held: 2, kept: 1, omitted: ['make lint'] });
    expect(receipt.todos.omitted).toEqual(['Write docs']);
    expect(receipt.questions.omitted).toEqual(['Keep the README as is?']);
    expect(receipt.files).toEqual({ held: 2, kept: 2, omitted: [] });
  });

  it('bounds the omitted list, not the counts', () => {
    const many = input(
      Array.from({ length: 50 }, (_, i) => fact(1, 'file_change', `f${i}.ts`, `f${i}.ts`, 'modified')),
    );
    const receipt = receiptFor(many, '');
    expect(receipt.files.held).toBe(50);
    expect(receipt.files.kept).toBe(0);
    expect(receipt.files.omitted).toHaveLength(RECEIPT_OMITTED_MAX);
  });

  it('shows what a tight budget drops', () => {
    const big = input(
      Array.from({ length: 80 }, (_, i) =>
        fact(1, 'command', `npm run task-${i} (exit 0)`, `npm run task-${i}`, 'exit 0'),
      ),
    );
    const receipt = receiptFor(big, renderSummary(big, 1_500));
    expect(receipt.commands.held).toBe(80);
    expect(receipt.commands.kept).toBeLessThan(80);
    expect(receipt.commands.kept).toBeGreaterThan(0);
    // The oldest go first.
    expect(receipt.commands.omitted[0]).toBe('npm run task-0');
  });
});
