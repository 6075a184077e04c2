import { bindProviderThread } from '../../operations/runs.js';
import { reportResumeFailure } from '../../operations/switching.js';
import type { Resolvers } from '../generated/graphql.js';
import { LIMITS, requiredText } from '../validation.js';
import { notFound } from '../errors.js';

export const providerResolvers: Resolvers = {
  Query: {
    providers: (_root, _args, { operations }) => [...operations.providers.values()],
    providerThread: (_root, { id }, { loaders }) => loaders.providerThread.load(id),
  },
  Mutation: {
    bindProviderThread: (_root, { input }, { operations }) =>
      bindProviderThread(operations, input.providerThreadId, requiredText('nativeThreadRef', input.nativeThreadRef, LIMITS.ref)),
    reportResumeFailure: (_root, { input }, { operations }) =>
      reportResumeFailure(operations, input.runId, requiredText('error', input.error, LIMITS.error)),
  },
  ProviderThread: {
    handoffIds: async (providerThread, _args, { loaders }) => (await loaders.coverage.load(providerThread.id))?.handoffIds ?? [],
    coverage: async (providerThread, _args, { loaders }) => {
      const coverage = await loaders.coverage.load(providerThread.id);
      if (!coverage) throw notFound('ProviderThread', providerThread.id);
      return coverage;
    },
  },
  ProviderThreadCoverage: {
    handoffs: async (coverage, _args, { loaders }) => {
      const handoffs = await Promise.all(coverage.handoffIds.map((id) => loaders.handoff.load(id)));
      return handoffs.filter((handoff) => handoff !== null);
    },
  },
};
