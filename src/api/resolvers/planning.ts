import { buildDispatch, dispatchProviderThreadId } from '../../domain/dispatch.js';
import { planRun, previewRun, startRun } from '../../operations/switching.js';
import type { Resolvers } from '../generated/graphql.js';
import { LIMITS, optionalText, requiredText } from '../validation.js';

function planInput(input: {
  threadId: string;
  provider: string;
  model?: string | null;
  runtimeMode?: string | null;
  cleanContext?: boolean | null;
}) {
  return {
    threadId: input.threadId,
    provider: input.provider,
    model: optionalText('model', input.model, LIMITS.label),
    runtimeMode: optionalText('runtimeMode', input.runtimeMode, LIMITS.label),
    cleanContext: input.cleanContext ?? false,
  };
}

export const planningResolvers: Resolvers = {
  Query: {
    planRun: async (_root, { input }, { operations, loaders }) => {
      const { plan, providerThread } = await planRun(operations, planInput(input));
      if (providerThread) loaders.providerThread.prime(providerThread.id, providerThread);
      return plan;
    },
    previewRun: async (_root, { input }, { operations, loaders }) => {
      const preview = await previewRun(operations, planInput(input));
      if (preview.providerThread) loaders.providerThread.prime(preview.providerThread.id, preview.providerThread);
      return preview;
    },
  },
  Mutation: {
    startRun: async (_root, { input }, { operations, loaders }) => {
      const started = await startRun(operations, {
        ...planInput(input),
        userMessage: requiredText('userMessage', input.userMessage, LIMITS.userMessage),
        idempotencyKey: optionalText('idempotencyKey', input.idempotencyKey, LIMITS.label),
        manualContext:
          input.manualContext === null || input.manualContext === undefined
            ? null
            : requiredText('manualContext', input.manualContext, LIMITS.userMessage),
      });
      // The plan's provider thread is the one the run was written with: its answer needs no read of its own.
      loaders.providerThread.prime(started.providerThread.id, started.providerThread);
      return started;
    },
  },
  RunPlan: {
    providerThread: (plan, _args, { loaders }) =>
      plan.providerThreadId ? loaders.providerThread.load(plan.providerThreadId) : null,
  },
  StartRunPayload: {
    plan: (result) => result.run.plan,
    dispatch: async (result, _args, { loaders }) => {
      const sourceId = dispatchProviderThreadId(result.run);
      const providerThread =
        sourceId === result.providerThread.id ? result.providerThread : await loaders.providerThread.load(sourceId);
      return buildDispatch(result.run, providerThread, result.handoff);
    },
  },
};
