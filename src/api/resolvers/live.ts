import type { ThreadChangeEvent } from '../../operations/changeFeed.js';
import type { Resolvers } from '../generated/graphql.js';
import { nonNegativeInt } from '../validation.js';
import { present } from '../../domain/errors.js';

export const liveResolvers: Resolvers = {
  Subscription: {
    threadChanged: {
      subscribe: (_root, { threadId, afterSequence }, { changes, operations }) =>
        changes.subscribe(operations.graph, threadId, nonNegativeInt('afterSequence', afterSequence)),
      resolve: (event: ThreadChangeEvent) => event,
    },
  },
  ThreadChange: {
    // Threads are never deleted, and the event is the caller's tenant's: the thread is there.
    thread: async (event, _args, { loaders }) =>
      event.withheld
        ? null
        : present(await loaders.thread.load(event.threadId), `thread ${event.threadId} that changed`),
  },
};
