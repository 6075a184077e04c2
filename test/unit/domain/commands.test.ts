import { describe, expect, it } from 'vitest';
import {
  explorationPaths,
  fixes,
  laterFixes,
  isExploration,
  isSearchWithoutMatch,
} from '../../../src/domain/commands.js';

describe('isExploration', () => {
  it.each([
    ["sed -n '1,80p' src/a.ts", true],
    ['rg -n "parseSession" src', true],
    ['grep -rn foo .', true],
    ['nl -ba src/a.ts | sed -n 10,40p', true],
    ['cat README.md', true],
    ['ls -la', true],
    ['head -50 a.txt && tail -5 b.txt', true],
    ['find . -name "*.ts"', true],
    ['git status --short', true],
    ['git diff HEAD~1 -- src', true],
    ['git log --oneline | head -5', true],
    ['git show abc123:src/a.ts', true],
    ['wc -l src/*.ts', true],
    ['cd /repo && rg foo 2>/dev/null', true],
    ['bash -lc "sed -n 1,20p a.ts"', true],
    ['Read src/a.ts', true],
    ['Grep parseSession', true],
    ['rg foo 2>&1 | head', true],
    ["sed -i 's/a/b/' a.ts", false],
    ['sed -i.bak s/a/b/ a.ts', false],
    ['cat a > b', false],
    ['echo hi >> notes.md', false],
    ['cat a | tee b', false],
    ['find . -name x -delete', false],
    ['find . -exec rm {} ;', false],
    ['npm test', false],
    ['pytest tests/test_x.py', false],
    ['git commit -m "x"', false],
    ['git branch -D old', false],
    ['rm -rf build', false],
    ['ls && npm run build', false],
    ['bash -lc "npm test"', false],
    ['', false],
    ['   ', false],
  ])('%j → %s', (command, expected) => {
    expect(isExploration(command)).toBe(expected);
  });

  it('takes time linear in the command length (no backtracking)', () => {
    // Quotes never closed, escapes and separators: the shapes a backtracking pattern chokes on.
    const hostile = (n: number) => `${'"\\ |&>'.repeat(n)}${"'a".repeat(n)}`;
    const time = (n: number) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < 5; i += 1) isExploration(hostile(n));
      return Number(process.hrtime.bigint() - start);
    };
    time(1_000);
    const small = time(20_000);
    const large = time(200_000);
    // 10x the input: a linear scan takes about 10x; quadratic would take 100x.
    expect(large / small).toBeLessThan(40);
  });
});

describe('a runner word', () => {
  it('is judged by the command it runs', () => {
    expect(isExploration('time npm run build')).toBe(false);
    expect(isExploration('time cat README.md')).toBe(true);
  });
});

describe('isSearchWithoutMatch', () => {
  it.each([
    ['rg foo src', 1, '', true],
    ['rg foo src', 1, '  \n', true],
    ['cd x && grep -rn foo .', 1, '', true],
    ['git grep foo', 1, '', true],
    ['rg foo src', 1, 'rg: src: No such file or directory', false],
    ['rg foo src', 2, '', false],
    ['npm test', 1, '', false],
    ['grep foo a | wc -l', 1, '', false],
  ] as const)('%j exit %s output %j → %s', (command, exit, output, expected) => {
    expect(isSearchWithoutMatch(command, exit, output)).toBe(expected);
  });
});

describe('explorationPaths', () => {
  it.each([
    ["sed -n '1,80p' src/a.ts", ['src/a.ts']],
    ['nl -ba src/a.ts | sed -n 10,40p', ['src/a.ts']],
    ['rg -n parseSession src/sessions', ['src/sessions']],
    ['cat a.ts b.ts', ['a.ts', 'b.ts']],
    ['Read src/x.ts', ['src/x.ts']],
    ['Grep foo', []],
    ['git status', []],
  ])('%j → %j', (command, expected) => {
    expect(explorationPaths(command)).toEqual(expected);
  });
});

describe('fixes', () => {
  it.each([
    ['npm test', 'npm test', true],
    ['cd /w && npm test', 'npm test', true],
    ['cargo build', 'cargo build && cargo test stats', true],
    ['python -m pytest tests/test_csv_writer.py -q', 'python -m pytest -q', true],
    ['npm test -- shelves', 'npm test', true],
    ['pytest tests/a.py', 'pytest tests/b.py', false],
    ['npm test', 'npm run build', false],
    ['make lint', 'make', false],
    ['npm run lint', 'npm run build', false],
    ['cargo test', 'cargo build', false],
    ['', 'npm test', false],
  ])('%j fixed by %j → %s', (failed, later, expected) => {
    expect(fixes(failed, later)).toBe(expected);
  });
});

describe('fixes, in loops and pipelines', () => {
  it('judges the programs a loop runs, not its frame or the read-only steps around them', () => {
    const loop = 'for i in 1 2 3 4 5; do npx jest tests/sensor -i --silent 2>&1 | tail -3; done';
    const later = 'for i in $(seq 1 10); do npx jest tests/sensor -i --silent 2>&1 | tail -1; done | sort | uniq -c';
    expect(fixes(loop, later)).toBe(true);
    expect(fixes('npx jest tests/sensor -i --silent', later)).toBe(true);
    expect(fixes('npm run build', 'time npm run build')).toBe(true);
    expect(fixes(loop, 'for i in 1 2; do npx tsc --noEmit; done')).toBe(false);
    // A command that only reads fixes nothing and is fixed by nothing.
    expect(fixes('cat missing.txt', 'cat missing.txt')).toBe(false);
  });
});

describe('laterFixes', () => {
  it('finds the first later success that fixes a failure, never an earlier one, as fixes judges each pair', () => {
    const run = [
      { command: 'npm test -- shelves', succeeded: true },
      { command: 'npm test -- shelves', succeeded: false },
      { command: 'cargo build', succeeded: false },
      { command: 'npm run lint', succeeded: true },
      { command: 'cargo build && cargo test', succeeded: true },
      { command: 'pytest tests/a.py', succeeded: false },
      { command: 'cargo build', succeeded: true },
    ];
    const successes = run.flatMap(({ command, succeeded }, at) => (succeeded ? [{ command, at }] : []));
    const fixer = laterFixes(successes);
    expect(run.map(({ command }, at) => fixer(command, at)?.at)).toEqual([
      undefined,
      undefined,
      4,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const pairs = run.map(
      ({ command }, at) => successes.find((later) => later.at > at && fixes(command, later.command))?.at,
    );
    expect(run.map(({ command }, at) => fixer(command, at)?.at)).toEqual(pairs);
  });

  it('finds `npm test` run after many other runs of npm test', () => {
    const others = Array.from({ length: 40 }, (_, at) => ({ command: `npm test -- case${at}`, at: at + 1 }));
    expect(laterFixes([...others, { command: 'npm test', at: 41 }])('npm test -- shelves', 0)?.at).toBe(41);
  });
});
