// The operations a sequence is made of, as plain JSON, so that a failing sequence can be printed,
// saved and replayed (`npm run fuzz -- --replay file.json`). They name things by symbols the model
// gives out (threads t1, t2 ...; runs t1#3 for ordinal 3 of t1; provider threads p1, p2 ...;
// handoffs h1, h2 ...); the runner maps each symbol to the id the service gave it.
import type { SummaryWriter } from './providers.js';

export interface RunOptions {
  model?: string;
  runtimeMode?: string;
  cleanContext?: boolean;
}

/** A fork's source point: the source's latest stable run, or one of the three explicit kinds. */
export type ForkFrom = { latest: true } | { ordinal: number } | { checkpointOf: string } | { providerThread: string };

export type Operation =
  | { op: 'createThread'; thread: string }
  // manualContext: operator-written context, taken instead of what the run would have been given.
  | ({ op: 'startRun'; thread: string; provider: string; manualContext?: string } & RunOptions)
  | ({ op: 'planRun'; thread: string; provider: string } & RunOptions)
  // dispatch: the epoch of the run's dispatch whose fencing token the call echoes (the token's
  // symbol is run@epoch, e.g. t1#3@1); absent, the call carries no token.
  | { op: 'completeRun'; run: string; checkpoint: boolean; dispatch?: number }
  | { op: 'failRun'; run: string; interrupted: boolean; dispatch?: number }
  | { op: 'reportResumeFailure'; run: string; dispatch?: number }
  // nativeRef: the native id the provider reports (native-<providerThread> when absent).
  | { op: 'bindProviderThread'; providerThread: string; nativeRef?: string; dispatch?: { run: string; epoch: number } }
  | { op: 'rollbackThread'; thread: string; toOrdinal: number }
  | { op: 'confirmProviderRollback'; providerThread: string }
  | { op: 'reportProviderRollbackFailure'; providerThread: string }
  | { op: 'forkThread'; source: string; fork: string; from: ForkFrom }
  | { op: 'mergeBack'; fork: string }
  | { op: 'spawnSubagent'; parentRun: string; child: string; provider: string }
  | { op: 'completeSubagent'; child: string }
  // source: who writes it again (see SUMMARY_WRITERS); absent, the summary policy's choice.
  | { op: 'regenerateHandoff'; handoff: string; source?: SummaryWriter }
  // The text the provider asked to write a PENDING handoff sends back.
  | { op: 'submitHandoffSummary'; handoff: string };

/** Orders symbols such as h2 and h10 by their number: the order the model gave them out. */
export const bySymbol = (a: string | null, b: string | null) => symbolNumber(a) - symbolNumber(b);
const symbolNumber = (symbol: string | null) =>
  symbol !== null && /^[a-z]+\d+$/.test(symbol) ? Number(symbol.replace(/^[a-z]+/, '')) : Number.MAX_SAFE_INTEGER;

/** The symbol of the fencing token of a run's dispatch number `epoch`. */
export const tokenSymbol = (run: string, epoch: number) => `${run}@${epoch}`;

/** The native id a bind reports when the operation names none. */
export const nativeRefOf = (operation: { providerThread: string; nativeRef?: string }) =>
  operation.nativeRef ?? `native-${operation.providerThread}`;

/** What an operation returned: an error code, or data in which every id is a symbol. */
export type Outcome = { error: string } | { ok: unknown };

/** One line per operation, e.g. `startRun t1 codex {"cleanContext":true}`. */
export function describeOperation(operation: Operation): string {
  const { op, ...rest } = operation;
  const words = Object.entries(rest).map(([key, value]) =>
    typeof value === 'object' ? `${key}=${JSON.stringify(value)}` : `${key}=${String(value)}`,
  );
  return [op, ...words].join(' ');
}
