import type { ThreadRecord } from '../../domain/records.js';
import {
  completeSubagent,
  confirmProviderRollback,
  forkThread,
  forksOf,
  mergeBack,
  reportProviderRollbackFailure,
  rollbackThread,
  spawnSubagent,
  subagentsOf,
} from '../../operations/lineage.js';
import { notFound } from '../../domain/errors.js';
import type { Resolvers } from '../generated/graphql.js';
import { LIMITS, clamp, optionalText, ordinalWindow, requiredText } from '../validation.js';

export const lineageResolvers: Resolvers = {
  Mutation: {
    rollbackThread: (_root, { input }, { operations }) => rollbackThread(operations, input.threadId, input.toOrdinal),
    confirmProviderRollback: (_root, { input }, { operations }) =>
      confirmProviderRollback(operations, input.providerThreadId),
    reportProviderRollbackFailure: (_root, { input }, { operations }) =>
      reportProviderRollbackFailure(
        operations,
        input.providerThreadId,
        requiredText('error', input.error, LIMITS.error),
      ),
    forkThread: (_root, { input }, { operations }) =>
      forkThread(operations, {
        sourceThreadId: input.sourceThreadId,
        fromOrdinal: input.fromOrdinal ?? null,
        checkpointId: input.checkpointId ?? null,
        providerThreadId: input.providerThreadId ?? null,
        id: optionalText('id', input.id, LIMITS.id),
        title: optionalText('title', input.title, LIMITS.title),
      }),
    mergeBack: (_root, { input }, { operations }) => mergeBack(operations, input.forkThreadId),
    spawnSubagent: (_root, { input }, { operations }) =>
      spawnSubagent(operations, {
        parentRunId: input.parentRunId,
        provider: input.provider,
        task: requiredText('task', input.task, LIMITS.factText),
        id: optionalText('id', input.id, LIMITS.id),
        title: optionalText('title', input.title, LIMITS.title),
      }),
    completeSubagent: (_root, { input }, { operations }) =>
      completeSubagent(operations, input.childThreadId, requiredText('result', input.result, LIMITS.factText)),
  },
  Thread: {
    lineage: async (thread, _args, { loaders }) => {
      const [parent, root] = await Promise.all([
        thread.parentThreadId ? loaders.thread.load(thread.parentThreadId) : null,
        thread.rootThreadId === thread.id ? thread : loaders.thread.load(thread.rootThreadId),
      ]);
      if (!root) throw notFound('Thread', thread.rootThreadId);
      return { parent, relationshipToParent: thread.relationshipToParent, root, sourcePoint: thread.sourcePoint };
    },
    forks: async (thread, { first, fromOrdinal, toOrdinal }, { operations }) =>
      (await forksOf(operations, [thread.id], clamp(first, 20, 1, 100), ordinalWindow(fromOrdinal, toOrdinal))).get(
        thread.id,
      ) ?? [],
    subagents: async (thread, { first, fromOrdinal, toOrdinal }, { operations }) =>
      (await subagentsOf(operations, [thread.id], clamp(first, 20, 1, 100), ordinalWindow(fromOrdinal, toOrdinal))).get(
        thread.id,
      ) ?? [],
    ancestors: async (thread, { depth }, { loaders }) => {
      const ancestors: ThreadRecord[] = [];
      let parentId = thread.parentThreadId;
      for (let level = 0; parentId !== null && level < clamp(depth, 10, 1, 50); level++) {
        const parent = await loaders.thread.load(parentId);
        if (!parent) break;
        ancestors.push(parent);
        parentId = parent.parentThreadId;
      }
      return ancestors;
    },
  },
  ProviderThread: {
    forkedFrom: (providerThread, _args, { loaders }) =>
      providerThread.forkedFromId ? loaders.providerThread.load(providerThread.forkedFromId) : null,
  },
};
