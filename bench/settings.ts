// The benchmark's fixed settings: bench/run.ts runs with them and docs/benchmarks.md quotes them.

export const HEAP = '2g';
/** Room for every seeded thread of a full run, so that no size's reads wait on evictions another size caused. */
export const PAGE_CACHE = '3g';
export const SUMMARY_BUDGET = 32000;
export const DEFAULT_ITERATIONS = 100;
