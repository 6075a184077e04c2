import { buildDispatch, dispatchProviderThreadId } from '../../domain/dispatch.js';
import { completeRun, failRun } from '../../operations/runs.js';
import { notFound } from '../../domain/errors.js';
import type { RunTextField, RunView } from '../../domain/records.js';
import type { Resolvers } from '../generated/graphql.js';
import type { Loaders } from '../loaders.js';
import { rawEventFacts } from '../rawEvents.js';
import { charLength, firstChars, maxCharsArgument } from '../texts.js';
import { maxCharsSelected } from '../selection.js';
import {
  LIMITS,
  clamp,
  factsOf,
  fencingTokenOf,
  fileChangeOf,
  listOf,
  nonNegativeInt,
  optionalText,
  requiredText,
} from '../validation.js';

/** A long text of the run: at hand when a mutation wrote it, else read from the graph, cut to maxChars. */
async function runText(
  run: RunView,
  field: RunTextField,
  maxChars: number | null,
  loaders: Loaders,
): Promise<string | null> {
  const held = run[field];
  if (held !== undefined) return held === null ? null : firstChars(held, maxChars);
  return loaders.runText.load({ runId: run.id, field, maxChars });
}

async function runTextLength(run: RunView, field: RunTextField, loaders: Loaders): Promise<number | null> {
  const held = run[field];
  if (held !== undefined) return held === null ? null : charLength(held);
  return loaders.runTextLength.load({ runId: run.id, field });
}

export const runResolvers: Resolvers = {
  Query: {
    run: (_root, { id }, { loaders }) => loaders.run.load(id),
  },
  Mutation: {
    completeRun: async (_root, { input }, { operations }) => {
      // The turn's own records add their facts after the hand-made ones, within what a run may record.
      const given = factsOf('facts', input.facts);
      const facts = [...given, ...(await rawEventFacts(input.rawEvents))].slice(0, LIMITS.facts);
      const checkpoint = input.checkpoint && {
        ref: requiredText('checkpoint.ref', input.checkpoint.ref, LIMITS.ref),
        diffSummary: optionalText('checkpoint.diffSummary', input.checkpoint.diffSummary, LIMITS.diffSummary),
        files: listOf('checkpoint.files', input.checkpoint.files, LIMITS.files).map((file, index) =>
          fileChangeOf(`checkpoint.files[${index}]`, file),
        ),
      };
      return completeRun(
        operations,
        input.runId,
        {
          assistantMessage: optionalText('assistantMessage', input.assistantMessage, LIMITS.assistantMessage),
          facts,
          checkpoint: checkpoint ?? null,
        },
        fencingTokenOf(input),
      );
    },
    failRun: (_root, { input }, { operations }) =>
      failRun(
        operations,
        input.runId,
        requiredText('error', input.error, LIMITS.error),
        input.interrupted ?? false,
        fencingTokenOf(input),
      ),
  },
  Run: {
    userMessage: async (run, { maxChars }, { loaders }) =>
      (await runText(run, 'userMessage', maxCharsArgument(maxChars), loaders)) ?? '',
    userMessageLength: async (run, _args, { loaders }) => (await runTextLength(run, 'userMessage', loaders)) ?? 0,
    assistantMessage: (run, { maxChars }, { loaders }) =>
      runText(run, 'assistantMessage', maxCharsArgument(maxChars), loaders),
    assistantMessageLength: (run, _args, { loaders }) => runTextLength(run, 'assistantMessage', loaders),
    error: (run, _args, { loaders }) => runText(run, 'error', null, loaders),
    providerThread: async (run, _args, { loaders }) => {
      const providerThread = await loaders.providerThread.load(run.providerThreadId);
      if (!providerThread) throw notFound('ProviderThread', run.providerThreadId);
      return providerThread;
    },
    contextHandoff: (run, _args, { loaders }) =>
      run.contextHandoffId ? loaders.handoff.load(run.contextHandoffId) : null,
    checkpoint: (run, _args, { loaders }) => loaders.checkpointOfRun.load(run.id),
    facts: (run, { first, offset }, { loaders }, info) =>
      loaders.factsOfRun.load({
        runId: run.id,
        first: clamp(first, LIMITS.facts, 1, LIMITS.facts),
        offset: nonNegativeInt('offset', offset) ?? 0,
        maxChars: maxCharsSelected(info, 'text'),
      }),
    factCount: (run, _args, { loaders }) => loaders.factCountOfRun.load(run.id),
    dispatch: async (run, _args, { loaders }) => {
      const [providerThread, handoff, userMessage] = await Promise.all([
        loaders.providerThread.load(dispatchProviderThreadId(run)),
        run.contextHandoffId ? loaders.handoff.load(run.contextHandoffId) : null,
        runText(run, 'userMessage', null, loaders),
      ]);
      return buildDispatch(
        { id: run.id, plan: run.plan, dispatchEpoch: run.dispatchEpoch, userMessage: userMessage ?? '' },
        providerThread,
        handoff,
      );
    },
  },
  RunFact: {
    text: (fact, { maxChars }) => firstChars(fact.text, maxCharsArgument(maxChars)),
  },
};
