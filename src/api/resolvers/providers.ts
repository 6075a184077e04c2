import { bindProviderThread, reportResumeFailure } from '../../operations/switching.js';
import type { BindProviderThreadInput, Resolvers } from '../generated/graphql.js';
import { count, firstOrdinals } from '../../domain/ranges.js';
import { LIMITS, clamp, fencingTokenOf, ordinalWindow, requiredText } from '../validation.js';
import { notFound } from '../../domain/errors.js';

// The ordinal lists are a convenience beside the ranges: bounded, so an answer never grows with the thread.
const ORDINALS_DEFAULT = 1000;
const ORDINALS_MAX = 10_000;

function bindInput(input: BindProviderThreadInput) {
  return {
    providerThreadId: input.providerThreadId,
    nativeThreadRef: requiredText('nativeThreadRef', input.nativeThreadRef, LIMITS.ref),
    fencingToken: fencingTokenOf(input),
  };
}

export const providerResolvers: Resolvers = {
  Query: {
    providers: (_root, _args, { operations }) => [...operations.providers.values()],
    providerThread: (_root, { id }, { loaders }) => loaders.providerThread.load(id),
  },
  Mutation: {
    bindProviderThread: async (_root, { input }, { operations }) =>
      (await bindProviderThread(operations, bindInput(input))).providerThread,
    bindNativeThread: async (_root, { input }, { operations }) => {
      const { providerThread, replanned } = await bindProviderThread(operations, bindInput(input));
      return { providerThread, resumedBlank: replanned !== null, replanned };
    },
    reportResumeFailure: (_root, { input }, { operations }) =>
      reportResumeFailure(
        operations,
        input.runId,
        requiredText('error', input.error, LIMITS.error),
        fencingTokenOf(input),
      ),
  },
  ProviderThread: {
    handoffIds: async (providerThread, _args, { loaders }) =>
      (await loaders.coverage.load({ providerThreadId: providerThread.id, window: null }))?.handoffIds ?? [],
    coverage: async (providerThread, { fromOrdinal, toOrdinal }, { loaders }) => {
      const window = ordinalWindow(fromOrdinal, toOrdinal);
      const coverage = await loaders.coverage.load({ providerThreadId: providerThread.id, window });
      if (!coverage) throw notFound('ProviderThread', providerThread.id);
      return coverage;
    },
  },
  ProviderThreadCoverage: {
    nativeRunCount: (coverage) => count(coverage.nativeRanges),
    missingRunCount: (coverage) => count(coverage.missingRanges),
    nativeRunOrdinals: (coverage, { first }) =>
      firstOrdinals(coverage.nativeRanges, clamp(first, ORDINALS_DEFAULT, 0, ORDINALS_MAX)),
    missingRunOrdinals: (coverage, { first }) =>
      firstOrdinals(coverage.missingRanges, clamp(first, ORDINALS_DEFAULT, 0, ORDINALS_MAX)),
    handoffs: async (coverage, _args, { loaders }) => {
      const handoffs = await Promise.all(coverage.handoffIds.map((id) => loaders.handoff.load(id)));
      return handoffs.filter((handoff) => handoff !== null);
    },
  },
};
