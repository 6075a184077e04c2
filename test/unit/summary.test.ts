import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import {
  answerOutcome,
  fillsBudget,
  leastLength,
  LeastLengthMeter,
  renderSummary,
  type SummaryFact,
  type SummaryFactKind,
  type SummaryInput,
  type SummaryRun,
} from '../../src/domain/summary.js';

function run(ordinal: number, provider: string, overrides: Partial<SummaryRun> = {}): SummaryRun {
  return {
    ordinal,
    provider,
    status: 'completed',
    userMessage: `User asks for step ${ordinal}`,
    assistantMessage: `Assistant did step ${ordinal}`,
    error: null,
    ...overrides,
  };
}

function fact(
  runOrdinal: number,
  kind: SummaryFactKind,
  text: string,
  key: string | null = null,
  status: string | null = null,
): SummaryFact {
  return { runOrdinal, kind, text, key, status };
}

function baseInput(overrides: Partial<SummaryInput> = {}): SummaryInput {
  return {
    strategy: 'delta_since_target_last_seen',
    threadId: 'thr_42',
    title: 'Fix the CSV importer',
    covered: { from: 6, to: 8 },
    providers: ['claude', 'gemini'],
    runs: [
      run(6, 'claude', {
        userMessage: 'Fix the CSV importer.\nIt breaks on quotes.',
        assistantMessage: 'Patched the parser. Tests next.',
      }),
      run(7, 'claude', {
        status: 'failed',
        assistantMessage: null,
        error: 'Rate limited by upstream\n    at callModel (client.ts:12)',
      }),
      run(8, 'gemini', { status: 'interrupted', error: null }),
    ],
    omittedRunCount: 0,
    facts: [
      fact(6, 'goal', 'CSV import must handle quoted fields'),
      fact(6, 'constraint', 'No new runtime dependencies'),
      fact(6, 'decision', 'Use a hand-written state-machine parser'),
      fact(6, 'file_change', 'src/csv.ts', 'src/csv.ts', 'modified'),
      fact(6, 'command', 'npm run build', null, 'ok'),
      fact(7, 'test', 'vitest: 3 failed OLD_TEST_RESULT', 'test:unit', 'failed'),
      fact(8, 'test', 'vitest: all passed NEW_TEST_RESULT', 'test:unit', 'passed'),
      fact(7, 'plan_item', 'Document quoting rules', 'plan:docs', 'pending'),
      fact(8, 'approval_request', 'Allow writing to ~/.config', 'approval:config', null),
      fact(8, 'question', 'Should TSV be supported too?', null, 'open'),
      fact(8, 'failure', 'Parser crashed on empty input'),
      fact(8, 'subagent_result', 'Explorer found 2 call sites'),
      fact(8, 'note', 'User prefers small commits'),
    ],
    latestCheckpoint: {
      runOrdinal: 8,
      ref: 'ckpt_abc123',
      diffSummary: '2 files changed, 40 insertions(+), 2 deletions(-)',
      files: [
        { path: 'src/csv.ts', change: 'modified', additions: 10, deletions: 2 },
        { path: 'test/csv.test.ts', change: 'added', additions: 30, deletions: null },
      ],
    },
    targetProvider: 'codex',
    ...overrides,
  };
}

/** Lines of one `## heading` section, without the heading; [] when the section is absent. */
function section(doc: string, heading: string): string[] {
  const lines = doc.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ') || line === '') break;
    out.push(line);
  }
  return out;
}

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Deterministic PRNG so the shuffles are reproducible. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const next = rng(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Shuffles facts across runs but keeps each run's own facts in their input order (which is meaningful). */
function shuffleAcrossRuns(facts: readonly SummaryFact[], seed: number): SummaryFact[] {
  const queues = new Map<number, SummaryFact[]>();
  for (const f of facts) queues.set(f.runOrdinal, [...(queues.get(f.runOrdinal) ?? []), f]);
  const slots = shuffle(
    facts.map((f) => f.runOrdinal),
    seed,
  );
  return slots.map((ordinal) => queues.get(ordinal)!.shift()!);
}

const ALL_KINDS: SummaryFactKind[] = [
  'goal',
  'constraint',
  'decision',
  'file_change',
  'command',
  'test',
  'plan_item',
  'approval_request',
  'question',
  'failure',
  'subagent_result',
  'note',
  'tool_output',
  'reasoning',
  'protocol',
];

function largeInput(runCount: number): SummaryInput {
  const runs: SummaryRun[] = [];
  const facts: SummaryFact[] = [
    fact(1, 'goal', 'GOAL_MARKER migrate the storage layer'),
    fact(1, 'constraint', 'CONSTRAINT_MARKER keep the public API stable'),
    fact(2, 'decision', 'DECISION_MARKER use batched writes'),
    fact(3, 'plan_item', 'PLAN_MARKER backfill old rows', 'plan:backfill', 'in_progress'),
    fact(4, 'approval_request', 'APPROVAL_MARKER run the migration on staging', 'approval:staging', 'pending'),
  ];
  for (let i = 1; i <= runCount; i++) {
    const provider = i % 3 === 0 ? 'codex' : 'claude';
    runs.push(
      run(i, provider, {
        userMessage: `Please handle chunk ${i} of the migration and explain in detail what changed and why it matters for the rollout`,
        assistantMessage: `Handled chunk ${i}; rewrote the writer for that chunk and verified the checksums against the source table`,
        status: i % 97 === 0 ? 'failed' : 'completed',
        error: i % 97 === 0 ? `Timeout in chunk ${i}` : null,
      }),
    );
    facts.push(
      fact(i, 'test', `integration suite after chunk ${i}`, 'test:integration', i % 2 ? 'passed' : 'failed'),
      fact(i, 'file_change', `src/storage/chunk${i % 50}.ts`, `src/storage/chunk${i % 50}.ts`, 'modified'),
      fact(i, 'reasoning', `REASONING_SECRET_${i}`),
      fact(i, 'tool_output', `TOOL_OUTPUT_SECRET_${i}`),
    );
    // Sparse enough that at 32000 characters some run lines survive the section content.
    if (i % 10 === 0) {
      facts.push(
        fact(i, 'note', `Note for run ${i}: the chunk had ${i * 7} rows`),
        fact(i, 'command', `npm run migrate -- --chunk ${i}`, null, 'ok'),
      );
    }
  }
  return baseInput({
    strategy: 'full_thread_summary',
    covered: { from: 1, to: runCount },
    providers: ['claude', 'codex'],
    runs,
    facts,
    omittedRunCount: 0,
    latestCheckpoint: { runOrdinal: runCount, ref: 'CHECKPOINT_REF_MARKER', diffSummary: 'many files', files: [] },
    targetProvider: 'gemini',
  });
}

describe('answerOutcome', () => {
  it.each([
    [
      'Looked at the parser.\n\nFixed the quote handling; all 12 tests pass.',
      'Fixed the quote handling; all 12 tests pass.',
    ],
    ['## Summary\n\nAdded the header row.\n\n---\n\nPerfect!', 'Added the header row.'],
    ['Done. Next steps:\n\n- write docs\n- ship', '- write docs - ship'],
    ['Changes:\n\n- a\n- b\n\nNext:', '- a - b'],
    ['', ''],
  ])('%j → %j', (answer, outcome) => {
    expect(answerOutcome(answer, 200)).toBe(outcome);
  });

  it('keeps the end of a long last paragraph, where the conclusion is', () => {
    const outcome = answerOutcome(`${'word '.repeat(100)}so the build is green.`, 40);
    expect(outcome).toHaveLength(40);
    expect(outcome).toMatch(/^….*so the build is green\.$/);
  });
});

describe('renderSummary document', () => {
  const doc = renderSummary(baseInput(), null);

  it('is byte-identical for the same input and for shuffled runs and facts', () => {
    const input = baseInput();
    expect(renderSummary(input, null)).toBe(doc);
    const seeds = [1, 2, 3, 4, 5];
    // The shuffles really reorder something, so this test would see order-dependent output.
    expect(seeds.some((seed) => shuffle(input.runs, seed)[0] !== input.runs[0])).toBe(true);
    expect(seeds.some((seed) => shuffleAcrossRuns(input.facts, seed)[0] !== input.facts[0])).toBe(true);
    for (const seed of seeds) {
      const shuffled = { ...input, runs: shuffle(input.runs, seed), facts: shuffleAcrossRuns(input.facts, seed) };
      expect(renderSummary(shuffled, null)).toBe(doc);
      expect(renderSummary(shuffled, 600)).toBe(renderSummary(input, 600));
    }
    const large = largeInput(300);
    const largeShuffled = { ...large, runs: shuffle(large.runs, 9), facts: shuffleAcrossRuns(large.facts, 9) };
    expect(renderSummary(largeShuffled, 5000)).toBe(renderSummary(large, 5000));
  });

  it('has the header lines', () => {
    const lines = doc.split('\n');
    expect(lines[0]).toBe('# Handoff: runs 6-8 of thread Fix the CSV importer');
    expect(lines).toContain('Strategy: delta since you last took part');
    expect(lines).toContain('Covers runs 6-8');
    expect(lines).toContain('Providers: claude, gemini');
    expect(lines).toContain('For: codex');
    expect(renderSummary(baseInput({ title: null }), null).split('\n')[0]).toBe('# Handoff: runs 6-8 of thread thr_42');
    expect(renderSummary(baseInput({ strategy: 'full_thread_summary' }), null)).toContain(
      'Strategy: full thread summary',
    );
    expect(renderSummary(baseInput({ strategy: 'checkpoint_summary' }), null)).toContain(
      'Strategy: checkpoint summary',
    );
    expect(renderSummary(baseInput({ strategy: 'manual_context' }), null)).toContain('Strategy: manual context');
  });

  it('keeps the fixed section order', () => {
    const headings = doc.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual([
      '## Last user request',
      '## Goals and constraints',
      '## Decisions',
      '## Unresolved failures',
      '## Files changed',
      '## Commands and tests',
      '## Open todos',
      '## Open approvals and questions',
      '## Latest checkpoint',
      '## Subagent results',
      '## Notes',
      '## Runs',
    ]);
  });

  it('leaves out sections with nothing to say', () => {
    const sparse = renderSummary(
      baseInput({ facts: [fact(6, 'goal', 'Only a goal')], latestCheckpoint: null, runs: [run(6, 'claude')] }),
      null,
    );
    expect(sparse.split('\n').filter((l) => l.startsWith('## '))).toEqual([
      '## Last user request',
      '## Goals and constraints',
      '## Runs',
    ]);
  });

  it('shows only the newest form of a keyed fact', () => {
    expect(doc).not.toContain('OLD_TEST_RESULT');
    expect(section(doc, 'Commands and tests')).toEqual([
      '- npm run build → ok (run 6)',
      '- vitest: all passed NEW_TEST_RESULT → passed (run 8)',
    ]);

    // Same run: the later one in the input array wins; the key is scoped by kind.
    const sameRun = renderSummary(
      baseInput({
        facts: [
          fact(7, 'decision', 'FIRST_FORM', 'd1'),
          fact(7, 'decision', 'SECOND_FORM', 'd1'),
          fact(7, 'note', 'NOTE_WITH_SAME_KEY', 'd1'),
          fact(7, 'note', 'UNKEYED_A'),
          fact(7, 'note', 'UNKEYED_A'),
        ],
      }),
      null,
    );
    expect(sameRun).not.toContain('FIRST_FORM');
    expect(sameRun).toContain('SECOND_FORM');
    expect(sameRun).toContain('NOTE_WITH_SAME_KEY');
    expect(occurrences(sameRun, 'UNKEYED_A')).toBe(2);

    // A newer status supersedes an open item: the plan item is done now.
    const done = renderSummary(
      baseInput({
        facts: [
          fact(6, 'plan_item', 'PLAN_LATER_DONE', 'p', 'pending'),
          fact(8, 'plan_item', 'PLAN_LATER_DONE', 'p', 'done'),
        ],
      }),
      null,
    );
    expect(done).not.toContain('PLAN_LATER_DONE');
  });

  it('never shows reasoning, protocol or tool_output facts', () => {
    const secrets = [
      fact(6, 'reasoning', 'REASONING_SECRET_XYZ'),
      fact(7, 'protocol', 'PROTOCOL_SECRET_XYZ', 'k', 'open'),
      fact(8, 'tool_output', 'TOOL_OUTPUT_SECRET_XYZ'),
    ];
    const input = baseInput({ facts: [...baseInput().facts, ...secrets] });
    for (const strategy of [
      'delta_since_target_last_seen',
      'full_thread_summary',
      'checkpoint_summary',
      'manual_context',
    ] as const) {
      for (const budget of [null, 400, 1000]) {
        const out = renderSummary({ ...input, strategy }, budget);
        expect(out).not.toMatch(/SECRET_XYZ/);
      }
    }
    // Sanity: the visible facts next to them did render.
    expect(renderSummary(input, null)).toContain('CSV import must handle quoted fields');
  });

  it('keeps closed approvals, questions and done plan items out of the open sections', () => {
    const input = baseInput({
      facts: [
        fact(6, 'plan_item', 'PLAN_OPEN_NULL'),
        fact(6, 'plan_item', 'PLAN_DONE', null, 'done'),
        fact(6, 'plan_item', 'PLAN_COMPLETED', null, 'completed'),
        fact(6, 'plan_item', 'PLAN_CANCELLED', null, 'Cancelled'),
        fact(6, 'plan_item', 'PLAN_IN_PROGRESS', null, 'in_progress'),
        ...['resolved', 'answered', 'closed', 'approved', 'rejected', 'done'].flatMap((status) => [
          fact(7, 'approval_request', `APPROVAL_CLOSED_${status}`, null, status),
          fact(7, 'question', `QUESTION_CLOSED_${status}`, null, status),
        ]),
        fact(7, 'approval_request', 'APPROVAL_PENDING', null, 'pending'),
        fact(7, 'approval_request', 'APPROVAL_NULL'),
        fact(8, 'question', 'QUESTION_OPEN', null, 'open'),
        fact(7, 'question', 'QUESTION_REPLIED_TO_BY_RUN_8', null, 'open'),
        fact(7, 'question', 'QUESTION_ANSWERED_LATER', 'q', 'open'),
        fact(8, 'question', 'QUESTION_ANSWERED_LATER', 'q', 'answered'),
      ],
    });
    const out = renderSummary(input, null);
    expect(section(out, 'Open todos')).toEqual([
      '- PLAN_OPEN_NULL (run 6)',
      '- PLAN_IN_PROGRESS [in_progress] (run 6)',
    ]);
    expect(section(out, 'Open approvals and questions')).toEqual([
      '- Approval: APPROVAL_PENDING [pending] (run 7)',
      '- Approval: APPROVAL_NULL (run 7)',
      '- Question: QUESTION_OPEN [open] (run 8)',
    ]);
    expect(out).not.toMatch(
      /_CLOSED_|PLAN_DONE|PLAN_COMPLETED|PLAN_CANCELLED|QUESTION_ANSWERED_LATER|QUESTION_REPLIED/,
    );
  });

  it('lists each changed file once as path + change + counts, first lines only', () => {
    const input = baseInput({
      facts: [
        fact(6, 'file_change', 'src/csv.ts', 'src/csv.ts', 'modified'),
        fact(7, 'file_change', 'src/new.ts\n@@ -0,0 +1,3 @@\n+DIFF_BODY_LINE', null, 'added'),
        fact(7, 'file_change', 'Rewrote the reader', 'src/reader.ts', null),
      ],
    });
    const files = section(renderSummary(input, null), 'Files changed');
    expect(files).toEqual([
      '- src/new.ts (added)',
      '- src/reader.ts (changed)',
      '- src/csv.ts (modified, +10/-2)',
      '- test/csv.test.ts (added, +30)',
    ]);
    expect(renderSummary(input, null)).not.toContain('DIFF_BODY_LINE');
  });

  it('lists failed and interrupted runs and failure facts under unresolved failures, with the end of the error', () => {
    expect(section(doc, 'Unresolved failures')).toEqual([
      '- run 7 failed: Rate limited by upstream at callModel (client.ts:12) (run 7)',
      '- run 8 interrupted (run 8)',
      '- Parser crashed on empty input (run 8)',
    ]);
  });

  it('has one line per run, oldest first, with status marks and the omitted count', () => {
    const input = baseInput({ runs: shuffle(baseInput().runs, 3), omittedRunCount: 5 });
    expect(section(renderSummary(input, null), 'Runs')).toEqual([
      '- 5 earlier runs not listed (not loaded)',
      '- 6 · claude · user: Fix the CSV importer. It breaks on quotes. → Patched the parser. Tests next.',
      '- 7 · claude [failed] · user: User asks for step 7 → (no answer)',
      '- 8 · gemini [interrupted] · user: User asks for step 8 → Assistant did step 8',
    ]);
    expect(section(doc, 'Runs')[0]).toMatch(/^- 6 · claude/);
  });

  it('collapses newlines so a fact cannot inject a heading', () => {
    const out = renderSummary(
      baseInput({
        title: 'Title\n## Injected title',
        facts: [fact(6, 'note', 'harmless\n## Injected heading\n\nmore'), fact(6, 'decision', '\n# Top level')],
        runs: [run(6, 'claude', { assistantMessage: 'ok\n## Injected run' })],
        latestCheckpoint: null,
      }),
      null,
    );
    expect(out.split('\n').filter((l) => l.startsWith('#'))).toEqual([
      '# Handoff: runs 6-8 of thread Title ## Injected title',
      '## Last user request',
      '## Decisions',
      '## Notes',
      '## Runs',
    ]);
    expect(section(out, 'Notes')).toEqual(['- harmless ## Injected heading more (run 6)']);
  });

  it('checkpoint_summary is compact and anchored on the checkpoint', () => {
    const out = renderSummary(baseInput({ strategy: 'checkpoint_summary', omittedRunCount: 3 }), null);
    expect(out.split('\n').filter((l) => l.startsWith('## '))).toEqual([
      '## Last user request',
      '## Goals and constraints',
      '## Unresolved failures',
      '## Latest checkpoint',
      '## Files changed',
      '## Open todos',
      '## Open approvals and questions',
    ]);
    expect(out).not.toContain('## Runs');
    expect(out).not.toContain('user:');
    expect(section(out, 'Latest checkpoint')).toEqual([
      '- Ref: ckpt_abc123 (run 8)',
      '- Diff: 2 files changed, 40 insertions(+), 2 deletions(-)',
    ]);
  });
});

describe('renderSummary budget', () => {
  const large = largeInput(2000);
  const full = renderSummary(large, null);

  it('returns the full document when it fits, and a shorter one otherwise', () => {
    const input = baseInput();
    const doc = renderSummary(input, null);
    expect(renderSummary(input, doc.length)).toBe(doc);
    const smaller = renderSummary(input, doc.length - 1);
    expect(smaller).not.toBe(doc);
    expect(smaller.length).toBeLessThanOrEqual(doc.length - 1);
  });

  it.each([200, 300, 1000, 4000, 32000])('stays within %i characters on 2000 runs', (budget) => {
    expect(full.length).toBeGreaterThan(32000);
    const out = renderSummary(large, budget);
    expect(out.length).toBeLessThanOrEqual(budget);
    expect(out.startsWith('# Handoff: runs 1-2000 of thread Fix the CSV importer\n')).toBe(true);
    expect(out).toContain('For: gemini');
    expect(out).not.toMatch(/REASONING_SECRET|TOOL_OUTPUT_SECRET/);
    if (budget >= 1000) {
      for (const marker of [
        'GOAL_MARKER',
        'CONSTRAINT_MARKER',
        'DECISION_MARKER',
        'PLAN_MARKER',
        'APPROVAL_MARKER',
        'CHECKPOINT_REF_MARKER',
      ]) {
        expect(out).toContain(marker);
      }
      expect(out).toMatch(/^- \d+ earlier runs left out to fit the budget$/m);
      expect(out).not.toContain('[summary cut to fit');
    }
  });

  it('drops the oldest run lines first and keeps the rest ascending', () => {
    const out = renderSummary(large, 32000);
    const runLines = section(out, 'Runs');
    const leftOut = /^- (\d+) earlier runs left out to fit the budget$/.exec(runLines[0] ?? '');
    expect(leftOut).not.toBeNull();
    const ordinals = runLines.slice(1).map((l) => Number(/^- (\d+) · /.exec(l)?.[1]));
    expect(ordinals.length).toBeGreaterThan(0);
    expect(ordinals[0]).toBe(Number(leftOut![1]) + 1);
    expect(ordinals.at(-1)).toBe(2000);
    expect(ordinals).toEqual([...ordinals].sort((a, b) => a - b));
    expect(out).not.toMatch(/^- 1 · /m);
  });

  it('shrinks the oldest run gists before dropping any run', () => {
    const runs = Array.from({ length: 30 }, (_, i) =>
      run(i + 1, 'claude', {
        userMessage: `${'long request '.repeat(20)}${i + 1}`,
        assistantMessage: `${'long answer '.repeat(20)}${i + 1}`,
      }),
    );
    const input = baseInput({ runs, facts: [], latestCheckpoint: null, covered: { from: 1, to: 30 } });
    const doc = renderSummary(input, null);
    const out = renderSummary(input, doc.length - 200);
    expect(out.length).toBeLessThanOrEqual(doc.length - 200);
    expect(out).not.toContain('left out');
    const lines = section(out, 'Runs');
    expect(lines).toHaveLength(30);
    expect(lines[0]!.length).toBeLessThan(lines[29]!.length);
    expect(lines[29]).toBe(section(doc, 'Runs')[29]);

    // Room for every run line in bare form plus 300 characters: short gists alone do not get there.
    const fullLines = section(doc, 'Runs');
    const allBareSaving = linesLength(fullLines) - linesLength(fullLines.map((l) => l.split(' · user:')[0]!));
    const tight = renderSummary(input, doc.length - allBareSaving + 300);
    const tightLines = section(tight, 'Runs');
    expect(tight).not.toContain('left out');
    expect(tightLines).toHaveLength(30);
    expect(tightLines[0]).toBe('- 1 · claude');
    expect(tightLines[29]).toContain(' · user: ');
    expect(tightLines[29]!.length).toBeLessThan(fullLines[29]!.length);
  });

  it('trims notes before anything essential, with a "… N more" line', () => {
    const facts = [
      fact(1, 'goal', 'GOAL_KEEP'),
      fact(1, 'decision', 'DECISION_KEEP'),
      ...Array.from({ length: 50 }, (_, i) => fact(1, 'note', `NOTE_${i} ${'x'.repeat(40)}`)),
      ...Array.from({ length: 5 }, (_, i) => fact(1, 'command', `COMMAND_${i}`)),
    ];
    const input = baseInput({ facts, runs: [], latestCheckpoint: null });
    const out = renderSummary(input, 1200);
    expect(out.length).toBeLessThanOrEqual(1200);
    expect(out).toContain('GOAL_KEEP');
    expect(out).toContain('DECISION_KEEP');
    expect(out).toContain('COMMAND_4');
    const notes = section(out, 'Notes');
    expect(notes[0]).toMatch(/^- … \d+ more$/);
    expect(out).not.toContain('NOTE_0 ');
    expect(out).toContain('NOTE_49 ');
  });

  it('cuts on a line boundary with a marker as a last resort', () => {
    const facts = Array.from({ length: 200 }, (_, i) => fact(1, 'goal', `GOAL_${i} ${'y'.repeat(50)}`, `g${i}`));
    const out = renderSummary(baseInput({ facts }), 1000);
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out.endsWith('\n[summary cut to fit 1000 characters]\n')).toBe(true);
    expect(out).toContain('GOAL_0 ');
    const lines = out.split('\n');
    expect(
      lines
        .slice(0, -2)
        .every(
          (l) =>
            l === '' ||
            l.startsWith('#') ||
            l.startsWith('- ') ||
            /^(Strategy: |Covers |Providers: |For: |Run \d+:$|> )/.test(l),
        ),
    ).toBe(true);
  });

  it('never exceeds the budget and keeps the header from 200 characters up', () => {
    const nasty = baseInput({
      title: 'T'.repeat(5000),
      providers: Array.from({ length: 40 }, (_, i) => `provider-with-a-long-name-${i}`),
      targetProvider: 'target-provider-with-a-very-long-name',
      covered: { from: 123456, to: 654321 },
      facts: Array.from({ length: 400 }, (_, i) =>
        fact(
          i,
          ALL_KINDS[i % ALL_KINDS.length]!,
          `fact ${i} `.repeat(30),
          i % 4 ? `k${i % 9}` : null,
          i % 5 ? 'open' : null,
        ),
      ),
    });
    const next = rng(7);
    const budgets = [
      0,
      1,
      10,
      36,
      37,
      100,
      199,
      200,
      201,
      250,
      500,
      ...Array.from({ length: 40 }, () => Math.floor(next() * 6000)),
    ];
    for (const input of [nasty, large, baseInput()]) {
      for (const budget of budgets) {
        const out = renderSummary(input, budget);
        expect(out.length).toBeLessThanOrEqual(budget);
        if (budget >= 200) {
          expect(out).toMatch(/^# Handoff: /);
          expect(out).toMatch(/^Strategy: /m);
          expect(out).toMatch(/^Covers runs /m);
          expect(out).toMatch(/^For: /m);
          if (input.providers.length > 0) expect(out).toMatch(/^Providers: /m);
        }
      }
    }
  }, 30_000); // 150 renders of a 2,000-run thread: slow on a busy machine, not a measure

  it('returns the whole document for a null budget', () => {
    expect(renderSummary(large, null)).toBe(full);
    expect(full).toMatch(/^- 1 · claude · user: /m);
  });
});

function linesLength(lines: readonly string[]): number {
  return lines.reduce((sum, l) => sum + l.length + 1, 0);
}

describe('files and diffs in a summary (issue 17)', () => {
  const withFiles = (facts: SummaryFact[], checkpoint: SummaryInput['latestCheckpoint']) =>
    renderSummary(baseInput({ facts, latestCheckpoint: checkpoint }), null);

  it('lists a path once, with its net change and summed known counts, and no "?"', () => {
    const text = withFiles(
      [
        fact(6, 'file_change', 'src/csv/parse.ts', 'src/csv/parse.ts', 'added'),
        fact(7, 'file_change', 'src/csv/parse.ts: handle quotes', null, 'modified'),
      ],
      {
        runOrdinal: 8,
        ref: 'ckpt',
        diffSummary: null,
        files: [{ path: './src/csv/parse.ts', change: 'modified', additions: 140, deletions: null }],
      },
    );
    const lines = text.split('\n').filter((line) => line.includes('src/csv/parse.ts'));
    expect(lines).toEqual(['- src/csv/parse.ts (added, +140)']);
    expect(text).not.toContain('?');
  });

  it('shows a file created and deleted within the range as deleted, never as added', () => {
    const text = withFiles(
      [
        fact(6, 'file_change', 'tmp/scratch.ts', 'tmp/scratch.ts', 'added'),
        fact(7, 'file_change', 'tmp/scratch.ts', 'tmp/scratch.ts', 'deleted'),
        fact(7, 'file_change', 'src/old.ts', 'src/old.ts', 'deleted'),
      ],
      null,
    );
    expect(text).toContain('- tmp/scratch.ts (deleted)');
    expect(text).not.toContain('tmp/scratch.ts (added');
    expect(text).toContain('- src/old.ts (deleted)');
  });

  it('leaves a raw diff out of the checkpoint: the files section already lists the files', () => {
    const diff = [
      'diff --git a/src/csv.ts b/src/csv.ts',
      '--- a/src/csv.ts',
      '+++ b/src/csv.ts',
      '@@ -1,3 +1,200 @@',
      ...Array.from({ length: 200 }, (_, i) => `+const line${i} = ${i};`),
    ].join('\n');
    const text = withFiles([fact(6, 'file_change', 'src/csv.ts', 'src/csv.ts', 'modified')], {
      runOrdinal: 8,
      ref: 'ckpt',
      diffSummary: diff,
      files: [],
    });
    expect(text).not.toContain('@@');
    expect(text).not.toContain('+const line');
    expect(text).toContain('- Diff: a raw diff of 204 lines, left out (see Files changed)');
  });

  it('keeps a short diff summary as it is', () => {
    const text = withFiles([], {
      runOrdinal: 8,
      ref: 'ckpt',
      diffSummary: '2 files changed, 40 insertions(+)',
      files: [],
    });
    expect(text).toContain('- Diff: 2 files changed, 40 insertions(+)');
  });
});

describe('a covered range with rolled-back gaps (issue 17)', () => {
  it('claims only the live runs it covers', () => {
    const text = renderSummary(
      baseInput({
        covered: { from: 6, to: 10 },
        coveredLive: [{ from: 10, to: 10 }],
        providers: ['claude'],
        runs: [run(10, 'claude')],
        facts: [],
        latestCheckpoint: null,
      }),
      null,
    );
    expect(text).toContain('Covers run 10');
    expect(text).not.toContain('6-10');
    const gappy = renderSummary(
      baseInput({
        covered: { from: 1, to: 10 },
        coveredLive: [
          { from: 1, to: 5 },
          { from: 10, to: 10 },
        ],
        runs: [],
        facts: [],
        latestCheckpoint: null,
      }),
      null,
    );
    expect(gappy).toContain('Covers runs 1-5, 10');
  });
});

describe('fillsBudget: where a summary stops reading', () => {
  const input = (count: number) =>
    baseInput({
      strategy: 'full_thread_summary',
      covered: { from: 1, to: count },
      runs: Array.from({ length: count }, (_, index) => run(index + 1, 'claude')),
      facts: [],
      latestCheckpoint: null,
    });

  it('is full exactly when the condensed text has to leave runs out', () => {
    const fifty = input(50);
    const seen = { full: 0, room: 0 };
    for (let budget = 300; budget <= 4_000; budget += 25) {
      const fill = fillsBudget(fifty, budget, 64);
      const text = renderSummary(fifty, budget);
      expect(/left out to fit the budget|\[summary cut/.test(text), `budget ${budget}`).toBe(fill.full);
      seen[fill.full ? 'full' : 'room']++;
    }
    expect(seen.full).toBeGreaterThan(0);
    expect(seen.room).toBeGreaterThan(0);
  });

  it('asks for as many more runs as the room left holds at the rate so far, at least the least step', () => {
    const fill = fillsBudget(input(100), 100_000, 64);
    // A bare run line takes 13 to 15 characters here, plus its share of the header: the room holds thousands more.
    expect(fill).toEqual({ full: false, moreRuns: expect.any(Number) });
    const moreRuns = (fill as { moreRuns: number }).moreRuns;
    expect(moreRuns).toBeGreaterThan(3_000);
    expect(moreRuns).toBeLessThanOrEqual(100_000 / 13);
    // The least budget with room left: the room holds less than a run, so the next read is the least step.
    let least = 1_000;
    while (fillsBudget(input(100), least, 64).full) least++;
    expect(fillsBudget(input(100), least, 64)).toEqual({ full: false, moreRuns: 64 });
  });

  it('starts from the least step when nothing was read', () => {
    expect(fillsBudget(input(0), 32_000, 64)).toEqual({ full: false, moreRuns: 64 });
  });
});

describe('LeastLengthMeter: the least length measured a window at a time', () => {
  // Read newest first, as readSummaryMaterial reads: runs of every status, facts that change the
  // sections as older windows arrive (a failure fixed later, the newest plan, an answered question).
  const history = Array.from({ length: 120 }, (_, index) =>
    run(index + 1, index % 3 === 0 ? 'codex' : 'claude', {
      status: index % 17 === 5 ? 'failed' : index % 23 === 7 ? 'interrupted' : 'completed',
      error: index % 17 === 5 ? `exit ${index}` : null,
    }),
  );
  const facts = history.flatMap((r) =>
    r.ordinal % 4 === 0
      ? [
          fact(r.ordinal, 'test', `npm test: run ${r.ordinal}`, 'npm test', r.ordinal % 8 === 0 ? 'passed' : 'failed'),
          fact(r.ordinal, 'question', `Keep comments as of run ${r.ordinal}?`, null, 'open'),
          fact(r.ordinal, 'plan_item', `Step after ${r.ordinal}`, null, 'pending'),
        ]
      : [],
  );

  it.each(['full_thread_summary', 'delta_since_target_last_seen', 'checkpoint_summary', 'fork_delta_summary'] as const)(
    'equals the rendered least length after every window (%s)',
    (strategy) => {
      for (const windowRuns of [1, 7, 50]) {
        const meter = new LeastLengthMeter();
        const read: SummaryRun[] = [];
        for (let to = history.length; to >= 1; to -= windowRuns) {
          const window = history.slice(Math.max(0, to - windowRuns), to).reverse();
          read.push(...window);
          meter.add(window);
          const oldest = Math.min(...read.map((r) => r.ordinal));
          const input = baseInput({
            strategy,
            covered: { from: 1, to: history.length },
            runs: [...read].reverse(),
            omittedRunCount: oldest - 1,
            facts: facts.filter((f) => f.runOrdinal >= oldest),
          });
          expect(meter.length(input), `${strategy}, ${read.length} runs in windows of ${windowRuns}`).toBe(
            leastLength(input),
          );
        }
      }
    },
  );

  it('refuses an input whose runs it did not measure', () => {
    const meter = new LeastLengthMeter();
    meter.add(history.slice(0, 3));
    expect(() => meter.length(baseInput({ runs: history.slice(0, 4) }))).toThrow(/measured 3 runs/);
  });
});

describe('renames in a summary', () => {
  const renamed = (ordinal: number, path: string, from: string): SummaryFact => ({
    ...fact(ordinal, 'file_change', `${path} renamed from ${from}`, path, 'renamed'),
    file: { path, change: 'renamed', additions: 0, deletions: 0, previousPath: from },
  });
  const typed = (ordinal: number, path: string, change: 'added' | 'modified', additions: number): SummaryFact => ({
    ...fact(ordinal, 'file_change', path, path, change),
    file: { path, change, additions, deletions: 0 },
  });
  const files = (facts: SummaryFact[]) =>
    section(renderSummary(baseInput({ facts, latestCheckpoint: null }), null), 'Files changed');

  it('moves a file to its new path, saying where it was, and forgets the old path', () => {
    expect(files([typed(6, 'src/a.ts', 'modified', 3), renamed(7, 'src/b.ts', 'src/a.ts')])).toEqual([
      '- src/b.ts (renamed from src/a.ts, +3/-0)',
    ]);
  });

  it('keeps a file added in the range and renamed as added, at its new path', () => {
    expect(files([typed(6, 'src/new.ts', 'added', 9), renamed(7, 'src/final.ts', 'src/new.ts')])).toEqual([
      '- src/final.ts (added, +9/-0)',
    ]);
  });

  it('keeps a renamed file renamed when it is edited after, and follows a chain of renames', () => {
    expect(files([renamed(6, 'b.ts', 'a.ts'), typed(7, 'b.ts', 'modified', 2), renamed(8, 'c.ts', 'b.ts')])).toEqual([
      '- c.ts (renamed from a.ts, +2/-0)',
    ]);
  });
});

describe('failures fixed later', () => {
  it('a command whose failure was fixed says so where it is listed', () => {
    const doc = renderSummary(
      baseInput({
        covered: { from: 1, to: 2 },
        runs: [run(1, 'codex'), run(2, 'codex')],
        facts: [
          fact(1, 'command', 'cargo build (exit 101)', 'cargo build', 'exit 101'),
          fact(1, 'failure', 'Command failed (exit 101): cargo build\nerror[E0063]', 'cargo build'),
          fact(2, 'command', 'cargo build && cargo test (exit 0)', 'cargo build && cargo test', 'exit 0'),
        ],
        latestCheckpoint: null,
      }),
      null,
    );
    expect(section(doc, 'Commands and tests')).toContain('- cargo build → exit 101, fixed in run 2 (run 1)');
    expect(section(doc, 'Unresolved failures')).toEqual([]);
  });

  it('a failed edit is fixed by a later run that changed the file, not by a change of another', () => {
    const doc = renderSummary(
      baseInput({
        covered: { from: 1, to: 2 },
        runs: [run(1, 'claude'), run(2, 'claude')],
        facts: [
          fact(1, 'failure', 'Edit failed on src/a.ts: String to replace not found', 'Edit src/a.ts'),
          fact(1, 'failure', 'Edit failed on src/b.ts: String to replace not found', 'Edit src/b.ts'),
          fact(2, 'file_change', 'src/a.ts modified (+1 -1)', 'src/a.ts', 'modified'),
        ],
        latestCheckpoint: null,
      }),
      null,
    );
    expect(section(doc, 'Failures since fixed').join('\n')).toMatch(/Edit failed on src\/a\.ts.*fixed in run 2/);
    expect(section(doc, 'Unresolved failures').join('\n')).toMatch(/Edit failed on src\/b\.ts/);
    expect(section(doc, 'Unresolved failures').join('\n')).not.toMatch(/src\/a\.ts/);
  });
});

describe('which later run fixed each failure', () => {
  /** Runs that each fail one command of a program and run another of it well, and edit a file that failed before. */
  function manyFailures(count: number): SummaryInput {
    const runs = Array.from({ length: count }, (_, i) => run(i + 1, 'claude'));
    const facts = runs.flatMap(({ ordinal }) => [
      fact(ordinal, 'failure', `Command failed (exit 1): npm test -- case${ordinal}`, `npm test -- case${ordinal}`),
      fact(ordinal, 'command', `npm test -- other${ordinal} (exit 0)`, `npm test -- other${ordinal}`, 'exit 0'),
      fact(ordinal, 'failure', `Edit failed on src/f${ordinal}.ts`, `Edit src/f${ordinal}.ts`),
      fact(ordinal, 'file_change', `src/f${ordinal - 1}.ts`, `src/f${ordinal - 1}.ts`, 'modified'),
    ]);
    return baseInput({ covered: { from: 1, to: count }, runs, facts, latestCheckpoint: null });
  }

  /** The time for `count` runs over GROWTH times that for an eighth of them, the best of a few tries. */
  function timeRatio(count: number): number {
    const [small, large] = [manyFailures(count / 8), manyFailures(count)];
    let best = Infinity;
    for (let attempt = 0; attempt < 3; attempt++) {
      const start = performance.now();
      for (let i = 0; i < 8; i++) renderSummary(small, null);
      const middle = performance.now();
      renderSummary(large, null);
      best = Math.min(best, (performance.now() - middle) / (middle - start));
    }
    return best;
  }

  it('is found in time linear in the runs, not by comparing every failure with every command', () => {
    const doc = renderSummary(manyFailures(40), null);
    expect(section(doc, 'Failures since fixed').join('\n')).toMatch(/Edit failed on src\/f3\.ts.*fixed in run 4/);
    expect(section(doc, 'Unresolved failures').join('\n')).toMatch(/npm test -- case3/);
    // Quadratic work takes about 8 times as long per run at 8 times the runs (before: 5.6, the test 34 s).
    expect(timeRatio(2_000)).toBeLessThan(4);
  });
});
