// Deterministic randomness: the bench seed's histories, the session files it imports and the order of
// the timed cases are the same in every run, as are the fault tests' write loads (test/support/writeLoad.ts).

/** Pseudo-random numbers in [0, 1) from a seed (xorshift32). */
export function randomNumbers(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** The items in a shuffled order (Fisher-Yates), drawn from `random`. */
export function shuffled<T>(random: () => number, items: readonly T[]): T[] {
  const order = [...items];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** A whole number from min to max, both included, drawn from `random`. */
export function between(random: () => number, { min, max }: { min: number; max: number }): number {
  return min + Math.floor(random() * (max - min + 1));
}
