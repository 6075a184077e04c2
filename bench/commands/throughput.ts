// `npm run bench:throughput`: reads its command line before loading the benchmark
// (bench/throughput.ts), so that --help and a usage error answer at once.
import type { Options } from '../throughput.js';
import { readOptions, runCommand, UsageError, wholeNumber } from '../commandLine.js';

const USAGE = `Usage: npm run bench:throughput -- [--quick] [--before DIR [--before-commit SHA]] [options]
       npm run bench:throughput -- --render FILE

  --quick              3 s phases, 1 round, 30 floor iterations, 6 and 5 MiB imports
  --before DIR         an older source tree to measure side by side with this one
  --before-commit SHA  the commit DIR was taken from, for the report
  --seconds N          seconds of each cycles phase (default 10)
  --rounds N           rounds of the cycles phases, alternating the trees (default 4: each goes first as often)
  --iterations N       iterations of the floor and planRun loop (default 200)
  --orchestrators N    concurrent clients of the cycles phases (default 16)
  --profiles DIR       keep the services' .cpuprofile files there
  --codex-mib N        the Codex rollout imported (default 60)
  --claude-mib N       the Claude Code session imported (default 50)
  --no-import          measure no import
  --no-write           write no results file and leave docs/benchmarks.md alone
  --render FILE        rewrite the throughput section of docs/benchmarks.md from a results file

Runs on NEO4J_URI, else on a throwaway local Neo4j, and writes bench/results/throughput-<timestamp>.json
and its section of docs/benchmarks.md.`;

/** What the command line asks for: a run with these options, or a rendering of a results file. */
type Command = { render: string } | { render: null; options: Omit<Options, 'log'> };

function readCommand(argv: string[]): Command {
  const text = { type: 'string' } as const;
  const flag = { type: 'boolean' } as const;
  const values = readOptions(argv, {
    quick: flag,
    before: text,
    'before-commit': text,
    seconds: text,
    rounds: text,
    iterations: text,
    orchestrators: text,
    profiles: text,
    'codex-mib': text,
    'claude-mib': text,
    'no-import': flag,
    'no-write': flag,
    render: text,
  });
  if (typeof values.render === 'string') {
    if (argv.length > 2) throw new UsageError('--render measures nothing: it takes no other option');
    return { render: values.render };
  }
  const quick = values.quick === true;
  const textOf = (name: string) => (typeof values[name] === 'string' ? values[name] : null);
  return {
    render: null,
    options: {
      before: textOf('before'),
      beforeCommit: textOf('before-commit'),
      seconds: wholeNumber(values, 'seconds', quick ? 3 : 10),
      rounds: wholeNumber(values, 'rounds', quick ? 1 : 4),
      iterations: wholeNumber(values, 'iterations', quick ? 30 : 200),
      orchestrators: wholeNumber(values, 'orchestrators', 16),
      profiles: textOf('profiles'),
      importMiB:
        values['no-import'] === true
          ? null
          : {
              codex: wholeNumber(values, 'codex-mib', quick ? 6 : 60),
              claude: wholeNumber(values, 'claude-mib', quick ? 5 : 50),
            },
      write: values['no-write'] !== true,
    },
  };
}

const started = performance.now();
runCommand(process.argv.slice(2), USAGE, readCommand, async (command) => {
  if (command.render !== null) {
    const { renderThroughputFile } = await import('../throughputReport.js');
    renderThroughputFile(command.render);
    console.log(`rendered the throughput section of docs/benchmarks.md from ${command.render}`);
    return;
  }
  const { main } = await import('../throughput.js');
  await main({
    ...command.options,
    log: (line) => console.log(`[${Math.round((performance.now() - started) / 1000)} s] ${line}`),
  });
});
