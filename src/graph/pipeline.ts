/**
 * The results of statements of one transaction sent one after the other without waiting in between,
 * awaited in the order sent. The driver pipelines them: Neo4j runs them in that order and the
 * service waits for one round trip instead of one per statement (docs/benchmarks.md, the throughput
 * run). The first to fail is the error, as if each had been awaited before the next; the ones after
 * it fail too (the transaction is failed) and are handled here. Send together only statements whose
 * inputs do not depend on each other's results, and whose work is harmless when a check on an
 * earlier result then refuses the operation: the refusal rolls the transaction back.
 */
export async function inOrder<T extends readonly unknown[]>(pending: {
  [K in keyof T]: Promise<T[K]> | T[K];
}): Promise<T> {
  for (const result of pending) if (result instanceof Promise) result.catch(() => undefined);
  const settled: unknown[] = [];
  for (const result of pending) settled.push(await result);
  return settled as unknown as T;
}
