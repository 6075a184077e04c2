import { regenerateHandoff, submitHandoffSummary } from '../../operations/handoffSources.js';
import type { Resolvers } from '../generated/graphql.js';
import { firstChars, maxCharsArgument } from '../texts.js';
import { LIMITS, optionalText, requiredText } from '../validation.js';

export const handoffResolvers: Resolvers = {
  Query: {
    contextHandoff: (_root, { id }, { loaders }) => loaders.handoff.load(id),
  },
  Mutation: {
    submitHandoffSummary: (_root, { input }, { operations }) =>
      submitHandoffSummary(
        operations,
        input.handoffId,
        requiredText('summaryText', input.summaryText, LIMITS.userMessage),
        requiredText('createdByProvider', input.createdByProvider, LIMITS.label),
      ),
    regenerateHandoff: (_root, { input }, { operations }) =>
      regenerateHandoff(operations, input.handoffId, optionalText('source', input.source, LIMITS.label)),
  },
  ContextHandoff: {
    summaryText: (handoff, { maxChars }) => firstChars(handoff.summaryText, maxCharsArgument(maxChars)),
    supersedes: (handoff, _args, { loaders }) =>
      handoff.supersedesId ? loaders.handoff.load(handoff.supersedesId) : null,
    supersededBy: (handoff, _args, { loaders }) =>
      handoff.supersededById ? loaders.handoff.load(handoff.supersededById) : null,
  },
  ContextTransfer: {
    handoff: (transfer, _args, { loaders }) => (transfer.handoffId ? loaders.handoff.load(transfer.handoffId) : null),
  },
};
