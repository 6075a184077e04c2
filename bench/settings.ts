// The benchmark's fixed settings: bench/run.ts runs with them and docs/benchmarks.md quotes them.

export const HEAP = '2g';
/** Room for every seeded thread of a full run, so that no size's reads wait on evictions another size caused. */
export const PAGE_CACHE = '3g';
export const SUMMARY_BUDGET = 32000;
export const DEFAULT_ITERATIONS = 100;
/** Many threads (bench/manyThreads.ts): this many threads of CROWD_THREAD_RUNS runs beside the measured one. */
export const CROWD_THREADS = 10_000;
export const CROWD_THREAD_RUNS = 100;
/** Each of its two stores: smaller than the main one, which is stopped by then. */
export const CROWD_HEAP = '1g';
export const CROWD_PAGE_CACHE = '2g';
