// A clock a test moves on itself, for the service's timed work (the pending-handoff sweep): the test
// says when time passes instead of waiting for it.
import type { Clock } from '../../src/server/clock.js';

export interface ManualClock extends Clock {
  /** Moves the time on by `ms`, then runs every task whose interval has come round, and waits for them. */
  advance(ms: number): Promise<void>;
}

export function manualClock(start = new Date()): ManualClock {
  let elapsedMs = 0;
  const tasks = new Set<{ intervalMs: number; dueMs: number; task: () => Promise<unknown> }>();
  return {
    now: () => new Date(start.getTime() + elapsedMs),
    every: (intervalMs, task) => {
      const entry = { intervalMs, dueMs: elapsedMs + intervalMs, task };
      tasks.add(entry);
      return () => tasks.delete(entry);
    },
    advance: async (ms) => {
      elapsedMs += ms;
      const due = [...tasks].filter((entry) => entry.dueMs <= elapsedMs);
      for (const entry of due) entry.dueMs = elapsedMs + entry.intervalMs;
      await Promise.all(due.map((entry) => entry.task()));
    },
  };
}
