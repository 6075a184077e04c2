// Timing helpers for the benchmark: interleaved rounds, medians and percentiles.
import { readFileSync } from 'node:fs';

export interface Stats {
  n: number;
  medianMs: number;
  p95Ms: number;
  p99Ms: number;
  minMs: number;
  /** Iterations that threw, by error code (or message), when any did. */
  errors?: Record<string, number>;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return { n: sorted.length, medianMs: round(percentile(sorted, 50)), p95Ms: round(percentile(sorted, 95)), p99Ms: round(percentile(sorted, 99)), minMs: round(sorted[0] ?? NaN) };
}

export interface Case {
  name: string;
  run: () => Promise<void>;
}

/**
 * Runs every case once per iteration, round-robin, with the order rotated each iteration so that no
 * case always follows the same neighbour; warm-up iterations are not recorded.
 */
export async function interleaved(cases: Case[], iterations: number, warmup: number): Promise<Record<string, Stats>> {
  const samples = new Map(cases.map((c) => [c.name, [] as number[]]));
  const errors: Record<string, Record<string, number>> = {};
  for (let i = 0; i < warmup + iterations; i++) {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(i + k) % cases.length]!;
      // A case that failed three times is not retried: each failure can cost the driver's retry time.
      if (Object.values(errors[c.name] ?? {}).reduce((a, b) => a + b, 0) >= 3) continue;
      const start = performance.now();
      try {
        await c.run();
      } catch (error) {
        // A failing case is reported with its errors, not allowed to end the benchmark.
        const code = String((error as { code?: unknown }).code ?? (error as Error).message ?? error);
        const counts = (errors[c.name] ??= {});
        counts[code] = (counts[code] ?? 0) + 1;
        continue;
      }
      const elapsed = performance.now() - start;
      if (i >= warmup) samples.get(c.name)!.push(elapsed);
    }
  }
  return Object.fromEntries([...samples].map(([name, values]) => [name, errors[name] ? { ...stats(values), errors: errors[name] } : stats(values)]));
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
