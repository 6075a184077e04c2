// `threadline bench` (`npm run bench`): reads its command line before loading the benchmark
// (bench/run.ts), so that --help and a usage error answer at once.
import type { BenchOptions } from '../run.js';
import { CROWD_THREAD_RUNS, CROWD_THREADS, DEFAULT_ITERATIONS } from '../settings.js';
import { readOptions, runCommand, UsageError, wholeNumber } from '../commandLine.js';

const QUICK_SIZES = [10, 1000, 10000];
const FULL_SIZES = [10, 1000, 10000, 100000];

const USAGE = `Usage: threadline bench [--quick] [--sizes N,N,...] [--iterations N] [--seconds N] [--many-threads N]
       threadline bench --render FILE

  --quick           sizes ${QUICK_SIZES.join(',')}, 10 iterations, 3 s throughput, a crowd of 1,000 threads
  --sizes N,N,...   the threads' lengths in runs (default ${FULL_SIZES.join(',')})
  --iterations N    measured iterations of each case (default ${DEFAULT_ITERATIONS})
  --seconds N       seconds of each throughput case (default 10)
  --many-threads N  threads of ${CROWD_THREAD_RUNS} runs beside the small thread (default ${CROWD_THREADS}; 0: not measured)
  --render FILE     rewrite docs/benchmarks.md from a results file, measuring nothing

Runs on NEO4J_URI, else on a throwaway local Neo4j, and writes bench/results/<timestamp>.json and
docs/benchmarks.md.`;

/** What the command line asks for: a run with these options, or a rendering of a results file. */
type Command = { render: string } | { render: null; options: Omit<BenchOptions, 'log' | 'write'> };

function readCommand(argv: string[]): Command {
  const values = readOptions(argv, {
    quick: { type: 'boolean' },
    sizes: { type: 'string' },
    iterations: { type: 'string' },
    seconds: { type: 'string' },
    'many-threads': { type: 'string' },
    render: { type: 'string' },
  });
  if (typeof values.render === 'string') {
    if (argv.length > 2) throw new UsageError('--render measures nothing: it takes no other option');
    return { render: values.render };
  }
  const quick = values.quick === true;
  const sizes =
    typeof values.sizes === 'string'
      ? values.sizes.split(',').map((size) => wholeNumber({ sizes: size }, 'sizes', 0))
      : quick
        ? QUICK_SIZES
        : FULL_SIZES;
  const iterations = wholeNumber(values, 'iterations', quick ? 10 : DEFAULT_ITERATIONS);
  return {
    render: null,
    options: {
      manyThreads: wholeNumber(values, 'many-threads', quick ? 1000 : CROWD_THREADS, 0),
      sizes,
      iterations,
      warmup: Math.max(2, Math.round(iterations / 10)),
      seconds: wholeNumber(values, 'seconds', quick ? 3 : 10),
    },
  };
}

const started = performance.now();
runCommand(process.argv.slice(2), USAGE, readCommand, async (command) => {
  if (command.render !== null) {
    const { renderResultsFile } = await import('../report.js');
    renderResultsFile(command.render);
    console.log(`rendered docs/benchmarks.md from ${command.render}`);
    return;
  }
  const { main } = await import('../run.js');
  await main({
    ...command.options,
    write: true,
    log: (line) => console.log(`[${Math.round((performance.now() - started) / 1000)} s] ${line}`),
  });
});
