// Test runs are recognised by the summary line common runners print at the end of their output.

export interface TestSummary {
  passed: number;
  failed: number;
  /** Go reports packages, the other runners report tests. */
  unit: 'tests' | 'packages';
}

type Reader = (output: string) => TestSummary | null;

// cargo prints one "test result:" line per test binary: they add up.
const readCargo: Reader = (output) => {
  const results = [...output.matchAll(/^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed/gm)];
  if (results.length === 0) return null;
  return {
    passed: results.reduce((sum, match) => sum + Number(match[1]), 0),
    failed: results.reduce((sum, match) => sum + Number(match[2]), 0),
    unit: 'tests',
  };
};

// go test: one "ok <package> <time>" or "FAIL <package> <time>" line per package.
const readGo: Reader = (output) => {
  const packages = [...output.matchAll(/^(ok|FAIL)\s+\S+\s+(?:[\d.]+s|\(cached\))/gm)];
  if (packages.length === 0) return null;
  const failed = packages.filter((match) => match[1] === 'FAIL').length;
  return { passed: packages.length - failed, failed, unit: 'packages' };
};

// vitest "Tests  1 failed | 3 passed (4)", jest "Tests:       1 failed, 3 passed, 4 total".
const readVitestOrJest: Reader = (output) => {
  const line = /^\s*Tests:?\s+(.*\d+ (?:passed|failed).*)$/m.exec(output)?.[1];
  return line === undefined ? null : countWords(line, 'passed', 'failed');
};

// pytest "===== 2 passed, 1 failed in 0.12s =====", or without the rule under -q.
const readPytest: Reader = (output) => {
  const line = /^(?:=+ )?((?:\d+ [a-z]+(?:, )?)+) in [\d.]+s\b/m.exec(output)?.[1];
  return line === undefined ? null : countWords(line, 'passed', 'failed');
};

// mocha "3 passing" / "1 failing".
const readMocha: Reader = (output) => {
  if (!/^\s*\d+ passing\b/m.test(output)) return null;
  return countWords(output, 'passing', 'failing');
};

function countWords(text: string, passedWord: string, failedWord: string): TestSummary | null {
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}\\b`).exec(text)?.[1] ?? 0);
  const passed = count(passedWord);
  const failed = count(failedWord);
  return passed + failed === 0 ? null : { passed, failed, unit: 'tests' };
}

const READERS: readonly Reader[] = [readCargo, readGo, readVitestOrJest, readPytest, readMocha];

/** The summary of the test run a command's output reports, or null when it reports none. */
export function findTestSummary(output: string): TestSummary | null {
  for (const read of READERS) {
    const summary = read(output);
    if (summary !== null) return summary;
  }
  return null;
}
