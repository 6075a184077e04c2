// Reading a session is done in slices (a line read, a fact built), so that a caller serving others can
// let them run between slices (completeRun's raw events, src/api/rawEvents.ts); tools and tests take
// the result at once.

/** Work that pauses after each bounded slice and returns a T once done. */
export type Sliced<T> = Generator<void, T, void>;

/** The result of sliced work, done without a pause. */
export function completed<T>(work: Sliced<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}
