import { buildDispatch, dispatchProviderThreadId } from '../../domain/dispatch.js';
import { completeRun, failRun } from '../../operations/runs.js';
import { notFound } from '../../domain/errors.js';
import type { Resolvers } from '../generated/graphql.js';
import { rawEventFacts } from '../rawEvents.js';
import { LIMITS, factsOf, fencingTokenOf, fileChangeOf, listOf, optionalText, requiredText } from '../validation.js';

export const runResolvers: Resolvers = {
  Query: {
    run: (_root, { id }, { loaders }) => loaders.run.load(id),
  },
  Mutation: {
    completeRun: (_root, { input }, { operations }) => {
      // The turn's own records add their facts after the hand-made ones, within what a run may record.
      const facts = [...factsOf('facts', input.facts), ...rawEventFacts(input.rawEvents)].slice(0, LIMITS.facts);
      const checkpoint = input.checkpoint && {
        ref: requiredText('checkpoint.ref', input.checkpoint.ref, LIMITS.ref),
        diffSummary: optionalText('checkpoint.diffSummary', input.checkpoint.diffSummary, LIMITS.diffSummary),
        files: listOf('checkpoint.files', input.checkpoint.files, LIMITS.files).map((file, index) => fileChangeOf(`checkpoint.files[${index}]`, file)),
      };
      return completeRun(operations, input.runId, {
        assistantMessage: optionalText('assistantMessage', input.assistantMessage, LIMITS.assistantMessage),
        facts,
        checkpoint: checkpoint ?? null,
      }, fencingTokenOf(input));
    },
    failRun: (_root, { input }, { operations }) =>
      failRun(operations, input.runId, requiredText('error', input.error, LIMITS.error), input.interrupted ?? false, fencingTokenOf(input)),
  },
  Run: {
    providerThread: async (run, _args, { loaders }) => {
      const providerThread = await loaders.providerThread.load(run.providerThreadId);
      if (!providerThread) throw notFound('ProviderThread', run.providerThreadId);
      return providerThread;
    },
    contextHandoff: (run, _args, { loaders }) => (run.contextHandoffId ? loaders.handoff.load(run.contextHandoffId) : null),
    checkpoint: (run, _args, { loaders }) => loaders.checkpointOfRun.load(run.id),
    facts: (run, _args, { loaders }) => loaders.factsOfRun.load(run.id),
    dispatch: async (run, _args, { loaders }) => {
      const [providerThread, handoff] = await Promise.all([
        loaders.providerThread.load(dispatchProviderThreadId(run)),
        run.contextHandoffId ? loaders.handoff.load(run.contextHandoffId) : null,
      ]);
      return buildDispatch(run, providerThread, handoff);
    },
  },
};
