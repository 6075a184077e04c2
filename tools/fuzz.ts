/**
 * `npm run fuzz -- [--seconds N | --minutes N] [--max-steps N] [--seed N] [--instances N] [--pending-timeout S]`: runs the model-based
 * property of test/reliability/model.property.test.ts (random operation sequences against the
 * reference model and the real service, the invariant audit after each) for as long as asked,
 * default 5 minutes, and stops at the first disagreement with the shrunk sequence as a script.
 *
 * Before the sequences, the adversarial text generator (test/support/adversarialText.ts) feeds every
 * session text handler random mixes of the patterns' prefixes, up to the longest raw event line, and
 * stops at the first whose time per character grows with the length.
 *
 * `npm run fuzz -- --replay script.json` runs such a script once and prints what each operation
 * returned. Uses the Neo4j named by NEO4J_URI (NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE), else
 * boots a throwaway local one, and services of its own on free ports: --instances of them (default
 * 1), each with its own driver, taking the operations in turn, so that nothing a sequence relies on
 * may live in one service's memory. Each instance runs the pending-handoff sweeper, with the summary
 * policy's pendingTimeoutSeconds set to --pending-timeout (default 2 s), so that handoffs Claude is
 * asked to write expire in the middle of sequences. Exit 1 on a disagreement.
 */

import type { FuzzOptions } from './fuzz/run.js';

const USAGE = `Usage: npm run fuzz [-- [--seconds N | --minutes N] [--max-steps N] [--seed N] [--instances N] [--pending-timeout S]]
       npm run fuzz -- --replay FILE

  --seconds N, --minutes N  how long to run random sequences (default 5 minutes)
  --max-steps N             operations per sequence at most (default 25)
  --seed N                  the first seed (default: a new one each run)
  --instances N             services taking the operations in turn (default 1)
  --pending-timeout S       seconds before a handoff left pending expires (default 2)
  --replay FILE             runs a script a disagreement printed, once, printing what each operation returned

First feeds the session text handlers adversarial text, then runs random operation sequences against
the reference model and services of its own (on NEO4J_URI, else a throwaway local Neo4j) until the
time is up or they disagree. Exit status: 0 without a disagreement, 1 on one, 2 on a usage error.`;

/** The options, or the text to print instead: the usage, or why the arguments are wrong and the usage. */
function parseArgs(argv: readonly string[]): FuzzOptions | string {
  const options: FuzzOptions = {
    seconds: 300,
    maxSteps: 25,
    seed: null,
    replay: null,
    instances: 1,
    pendingTimeout: 2,
  };
  const numbers: Record<string, (number: number) => void> = {
    '--seconds': (number) => (options.seconds = number),
    '--minutes': (number) => (options.seconds = number * 60),
    '--max-steps': (number) => (options.maxSteps = Math.floor(number)),
    '--seed': (number) => (options.seed = Math.floor(number)),
    '--instances': (number) => (options.instances = Math.floor(number)),
    '--pending-timeout': (number) => (options.pendingTimeout = Math.floor(number)),
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--help' || flag === '-h') return USAGE;
    const value = argv[++i];
    const number = Number(value);
    if (flag === '--replay') {
      if (!value) return `--replay needs a file\n\n${USAGE}`;
      options.replay = value;
    } else if (!Object.hasOwn(numbers, flag)) return `unknown option ${flag}\n\n${USAGE}`;
    else if (!Number.isFinite(number) || number <= 0) return `${flag} needs a positive number\n\n${USAGE}`;
    else numbers[flag]!(number);
  }
  return options;
}

const options = parseArgs(process.argv.slice(2));
if (typeof options === 'string') {
  (options === USAGE ? console.log : console.error)(options);
  process.exitCode = options === USAGE ? 0 : 2;
} else {
  const { runFuzz } = await import('./fuzz/run.js');
  process.exitCode = await runFuzz(options);
}
