// Timing helpers for the benchmark: interleaved rounds, medians and percentiles.
import { readFileSync } from 'node:fs';
import { randomNumbers, shuffled } from './random.js';

export interface Stats {
  n: number;
  medianMs: number;
  p95Ms: number;
  p99Ms: number;
  minMs: number;
  /** Iterations that threw, by error code (or message), when any did. */
  errors?: Record<string, number>;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    n: sorted.length,
    medianMs: round(percentile(sorted, 50)),
    p95Ms: round(percentile(sorted, 95)),
    p99Ms: round(percentile(sorted, 99)),
    minMs: round(sorted[0] ?? NaN),
  };
}

/** Times `work` under `name`; what a case does outside its steps (setup, restoring state) is not timed. */
/** The same order of cases in every run, so that two runs are measured alike. */
const CASE_ORDER_SEED = 29;

export type StepTimer = <T>(name: string, work: () => Promise<T>) => Promise<T>;

export interface Case {
  name: string;
  /** Timed as a whole under `name`, unless it calls `step`: then only its steps are recorded, each under its own name. */
  run: (step: StepTimer) => Promise<void>;
  /**
   * Run in only this many of the measured iterations, spread evenly, without warm-up: for a case
   * that uses up what it measures (a prepared copy of a thread per round).
   */
  rounds?: number;
}

/**
 * Runs every case once per iteration, in a new shuffled order each iteration; warm-up iterations are
 * not recorded. A case pays for what the case before it left behind (garbage to collect, pages to
 * write): rotating one fixed order kept every case behind the same neighbour, and the stale plan over
 * HTTP on a 100,000-run thread, always behind the naive baseline's read of that whole thread, took
 * 18.7 ms (7.6 at best) where the other plans over HTTP at that size took 7.5 to 10.2 (17.9 ms in a
 * run before). A case that failed and timed no step of its own gets an entry under its name with n
 * 0 and its errors.
 */
export async function interleaved(
  cases: Case[],
  iterations: number,
  warmup: number,
  progress?: (done: number, total: number) => void,
): Promise<Record<string, Stats>> {
  const samples = new Map<string, number[]>();
  const errors: Record<string, Record<string, number>> = {};
  const roundsOf = new Map(
    cases.filter((c) => c.rounds !== undefined).map((c) => [c.name, roundIterations(c.rounds!, iterations, warmup)]),
  );
  const random = randomNumbers(CASE_ORDER_SEED);
  for (let i = 0; i < warmup + iterations; i++) {
    for (const c of shuffled(random, cases)) {
      const only = roundsOf.get(c.name);
      if (only && !only.has(i)) continue;
      // A case that failed three times is not retried: each failure can cost the driver's retry time.
      if (Object.values(errors[c.name] ?? {}).reduce((a, b) => a + b, 0) >= 3) continue;
      const record = (name: string, elapsed: number) => {
        if (i < warmup) return;
        const list = samples.get(name) ?? [];
        list.push(elapsed);
        samples.set(name, list);
      };
      let stepped = false;
      const step: StepTimer = async (name, work) => {
        stepped = true;
        const start = performance.now();
        const result = await work();
        record(name, performance.now() - start);
        return result;
      };
      const start = performance.now();
      try {
        await c.run(step);
      } catch (error) {
        // A failing case is reported with its errors, not allowed to end the benchmark.
        const code = String((error as { code?: unknown }).code ?? (error as Error).message ?? error);
        const counts = (errors[c.name] ??= {});
        counts[code] = (counts[code] ?? 0) + 1;
        continue;
      }
      if (!stepped) record(c.name, performance.now() - start);
    }
    progress?.(i + 1, warmup + iterations);
  }
  for (const name of Object.keys(errors)) if (!samples.has(name)) samples.set(name, []);
  return Object.fromEntries(
    [...samples].map(([name, values]) => [
      name,
      errors[name] ? { ...stats(values), errors: errors[name] } : stats(values),
    ]),
  );
}

/** The measured iterations a case limited to `rounds` runs in, evenly spread over the run. */
function roundIterations(rounds: number, iterations: number, warmup: number): Set<number> {
  const count = Math.min(rounds, iterations);
  return new Set(Array.from({ length: count }, (_, k) => warmup + Math.floor((k * iterations) / count)));
}

/** Peak resident set (VmHWM) of a process in MiB, or null when /proc does not say. */
export function peakRssMiB(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmHWM:\s+(\d+) kB/.exec(status);
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}
