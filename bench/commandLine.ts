// The benchmarks' command lines. A full run takes hours and rewrites docs/benchmarks.md, so an
// option it does not know (`--iteration 20`, `--help`) is a usage error that stops it before any
// work, never a silent default.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | undefined>;

/** The options given; throws UsageError on an unknown option, a missing value or a stray argument. */
export function readOptions(argv: string[], options: OptionSpecs): OptionValues {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as OptionValues;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A whole number option, at least `min`; `fallback` when absent. */
export function wholeNumber(values: OptionValues, name: string, fallback: number, min = 1): number {
  const given = values[name];
  if (given === undefined) return fallback;
  const number = Number(given);
  if (typeof given !== 'string' || !Number.isInteger(number) || number < min)
    throw new UsageError(`--${name} takes a whole number of at least ${min}, not ${JSON.stringify(given)}`);
  return number;
}

/**
 * Runs a benchmark's entry point: `--help` prints the usage (exit 0); a UsageError prints why and
 * the usage (exit 2); otherwise `start` runs with the options read, and its failure exits 1.
 */
export function runCommand<T>(
  argv: string[],
  usage: string,
  read: (argv: string[]) => T,
  start: (options: T) => Promise<unknown>,
): void {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage);
    return;
  }
  let options: T;
  try {
    options = read(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${usage}`);
    process.exitCode = 2;
    return;
  }
  start(options).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
