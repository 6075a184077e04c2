// Test runs are recognised by the summary line common runners print at the end of their output.
// Outputs are session text: each pattern is tried on one line at a time, anchored at its start, with
// no two quantifiers that could match the same characters, so the scan is linear in the output.

export interface TestSummary {
  passed: number;
  failed: number;
  /** Go reports packages, the other runners report tests. */
  unit: 'tests' | 'packages';
}

type Reader = (lines: readonly string[]) => TestSummary | null;

// cargo prints one "test result:" line per test binary: they add up.
const readCargo: Reader = (lines) => {
  const results = matching(lines, /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed/);
  if (results.length === 0) return null;
  return {
    passed: results.reduce((sum, match) => sum + Number(match[1]), 0),
    failed: results.reduce((sum, match) => sum + Number(match[2]), 0),
    unit: 'tests',
  };
};

// go test: one "ok <package> <time>" or "FAIL <package> <time>" line per package.
const readGo: Reader = (lines) => {
  const packages = matching(lines, /^(ok|FAIL)[ \t]+[^ \t]+[ \t]+(?:[\d.]+s|\(cached\))/);
  if (packages.length === 0) return null;
  const failed = packages.filter((match) => match[1] === 'FAIL').length;
  return { passed: packages.length - failed, failed, unit: 'packages' };
};

// vitest "Tests  1 failed | 3 passed (4)", jest "Tests:       1 failed, 3 passed, 4 total".
const readVitestOrJest: Reader = (lines) => {
  for (const line of lines) {
    const rest = /^Tests:?\s/.test(line.trimStart()) ? line.trimStart().slice(5) : null;
    if (rest !== null && /\d (?:passed|failed)/.test(rest)) return countWords(rest, 'passed', 'failed');
  }
  return null;
};

// pytest "===== 2 passed, 1 failed in 0.12s =====", or without the rule under -q.
const readPytest: Reader = (lines) => {
  const line = matching(lines, /^(?:=+ )?((?:\d+ [a-z]+(?:, )?)+) in [\d.]+s\b/)[0]?.[1];
  return line === undefined ? null : countWords(line, 'passed', 'failed');
};

// mocha "3 passing" / "1 failing".
const readMocha: Reader = (lines) => {
  if (matching(lines, /^\d+ passing\b/, true).length === 0) return null;
  return countWords(lines.join('\n'), 'passing', 'failing');
};

/** The lines' matches of an anchored pattern (after leading blanks when asked). */
function matching(lines: readonly string[], pattern: RegExp, trimmed = false): RegExpExecArray[] {
  return lines
    .map((line) => pattern.exec(trimmed ? line.trimStart() : line))
    .filter((match): match is RegExpExecArray => match !== null);
}

function countWords(text: string, passedWord: string, failedWord: string): TestSummary | null {
  // A count starts where a run of digits starts: a long run is read once, not once per digit.
  const count = (word: string) => Number(new RegExp(`(?<!\\d)(\\d+) ${word}\\b`).exec(text)?.[1] ?? 0);
  const passed = count(passedWord);
  const failed = count(failedWord);
  return passed + failed === 0 ? null : { passed, failed, unit: 'tests' };
}

const READERS: readonly Reader[] = [readCargo, readGo, readVitestOrJest, readPytest, readMocha];

/** The summary of the test run a command's output reports, or null when it reports none. */
export function findTestSummary(output: string): TestSummary | null {
  const lines = output.split('\n');
  for (const read of READERS) {
    const summary = read(lines);
    if (summary !== null) return summary;
  }
  return null;
}
