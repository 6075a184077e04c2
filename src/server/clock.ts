// The time the service's timed work sees, and when it runs: the system's clock in production, a
// clock of their own in tests, which move it on instead of waiting for it.

export interface Clock {
  now(): Date;
  /** Runs `task` every `intervalMs` until the returned function is called. */
  every(intervalMs: number, task: () => Promise<unknown>): () => void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  every: (intervalMs, task) => {
    const timer = setInterval(() => void task(), intervalMs);
    // Timed work never keeps a process alive on its own.
    timer.unref();
    return () => clearInterval(timer);
  },
};
