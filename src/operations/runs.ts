// The rest of a run's life cycle: the provider's native id, completion and failure.
import { ThreadlineError, notFound } from '../domain/errors.js';
import type { ProviderThreadRecord, RunRecord } from '../domain/records.js';
import { bindProviderThread as bindNativeRef } from '../graph/repositories/providerThreads.js';
import { finishRun, lockRunForUpdate, type RunOutcome } from '../graph/repositories/runs.js';
import { newId, type OperationContext } from './context.js';

export async function bindProviderThread(context: OperationContext, providerThreadId: string, nativeThreadRef: string): Promise<ProviderThreadRecord> {
  const bound = await context.graph.write((tx) => bindNativeRef(tx, providerThreadId, nativeThreadRef));
  if (!bound) throw notFound('ProviderThread', providerThreadId);
  return bound;
}

export type CompletionInput = Omit<RunOutcome, 'status' | 'error' | 'checkpoint'> & {
  checkpoint: Omit<NonNullable<RunOutcome['checkpoint']>, 'id'> | null;
};

export async function completeRun(context: OperationContext, runId: string, input: CompletionInput): Promise<RunRecord> {
  const checkpoint = input.checkpoint && { ...input.checkpoint, id: newId('cp') };
  return endRun(context, runId, { ...input, checkpoint, status: 'completed', error: null });
}

export async function failRun(context: OperationContext, runId: string, error: string, interrupted: boolean): Promise<RunRecord> {
  return endRun(context, runId, { status: interrupted ? 'interrupted' : 'failed', error, assistantMessage: null, facts: [], checkpoint: null });
}

async function endRun(context: OperationContext, runId: string, outcome: RunOutcome): Promise<RunRecord> {
  return context.graph.write(async (tx) => {
    const locked = await lockRunForUpdate(tx, runId);
    if (!locked) throw notFound('Run', runId);
    if (locked.run.status !== 'running') {
      throw new ThreadlineError('CONFLICT', `Run ${runId} is ${locked.run.status}, not running.`, { status: locked.run.status });
    }
    return finishRun(tx, runId, outcome);
  });
}
