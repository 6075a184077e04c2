import type { Resolvers } from '../generated/graphql.js';

export const handoffResolvers: Resolvers = {
  Query: {
    contextHandoff: (_root, { id }, { loaders }) => loaders.handoff.load(id),
  },
  ContextHandoff: {
    supersedes: (handoff, _args, { loaders }) => (handoff.supersedesId ? loaders.handoff.load(handoff.supersedesId) : null),
    supersededBy: (handoff, _args, { loaders }) => (handoff.supersededById ? loaders.handoff.load(handoff.supersededById) : null),
  },
  ContextTransfer: {
    handoff: (transfer, _args, { loaders }) => (transfer.handoffId ? loaders.handoff.load(transfer.handoffId) : null),
  },
};
