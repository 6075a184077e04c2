import { MAX_IMPORTED_RUNS, type ImportedRunInput } from '../../domain/imports.js';
import { importRuns, importSubagentThread, providerThreadsOfNativeRef } from '../../operations/imports.js';
import type { ImportedRunInput as RunInput, Resolvers } from '../generated/graphql.js';
import { LIMITS, dateTime, factsOf, listOf, optionalDateTime, optionalText, requiredText } from '../validation.js';

export const importResolvers: Resolvers = {
  Query: {
    providerThreadsByNativeRef: (_root, { provider, nativeThreadRef }, { operations }) =>
      providerThreadsOfNativeRef(
        operations,
        requiredText('provider', provider, LIMITS.label),
        requiredText('nativeThreadRef', nativeThreadRef, LIMITS.ref),
      ),
  },
  Mutation: {
    importRuns: (_root, { input }, { operations }) =>
      importRuns(operations, {
        threadId: input.threadId,
        provider: requiredText('providerThread.provider', input.providerThread.provider, LIMITS.label),
        nativeThreadRef: requiredText(
          'providerThread.nativeThreadRef',
          input.providerThread.nativeThreadRef,
          LIMITS.ref,
        ),
        model: optionalText('providerThread.model', input.providerThread.model, LIMITS.label),
        runs: listOf('runs', input.runs, MAX_IMPORTED_RUNS).map((run, index) => importedRun(`runs[${index}]`, run)),
      }),
    importSubagentThread: (_root, { input }, { operations }) =>
      importSubagentThread(operations, {
        parentThreadId: input.parentThreadId,
        parentRunOrdinal: input.parentRunOrdinal ?? null,
        parentRunId: input.parentRunId ?? null,
        id: requiredText('id', input.id, LIMITS.id),
        title: optionalText('title', input.title, LIMITS.title),
        task: requiredText('task', input.task, LIMITS.factText),
      }),
  },
};

function importedRun(field: string, run: RunInput): ImportedRunInput {
  return {
    sourceKey: requiredText(`${field}.sourceKey`, run.sourceKey, LIMITS.label),
    sourceId: run.sourceId == null ? null : requiredText(`${field}.sourceId`, run.sourceId, LIMITS.label),
    startedAt: dateTime(`${field}.startedAt`, run.startedAt),
    completedAt: optionalDateTime(`${field}.completedAt`, run.completedAt),
    status: run.status,
    model: optionalText(`${field}.model`, run.model, LIMITS.label),
    userMessage: requiredText(`${field}.userMessage`, run.userMessage, LIMITS.userMessage),
    assistantMessage: optionalText(`${field}.assistantMessage`, run.assistantMessage, LIMITS.assistantMessage),
    error: optionalText(`${field}.error`, run.error, LIMITS.error),
    facts: factsOf(`${field}.facts`, run.facts),
  };
}
