import type { ThreadRecord } from '../../domain/records.js';
import { listThreads, createThread } from '../../operations/threads.js';
import { runPage } from '../../graph/repositories/runs.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import type { Resolvers } from '../generated/graphql.js';
import { LIMITS, clamp, optionalText } from '../validation.js';

interface ThreadCursor {
  createdAt: string;
  id: string;
}
// The time goes to Cypher's datetime(): anything but a real UTC instant (as the service writes them)
// is a bad cursor, not a database error. The round trip through Date rejects days like 02-30.
const isUtcInstant = (text: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/.test(text) && new Date(text).toISOString().slice(0, 19) === text.slice(0, 19);
const isThreadCursor = (value: unknown): value is ThreadCursor =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ThreadCursor).createdAt === 'string' &&
  isUtcInstant((value as ThreadCursor).createdAt) &&
  typeof (value as ThreadCursor).id === 'string';
const isOrdinalCursor = (value: unknown): value is { ordinal: number } =>
  typeof value === 'object' && value !== null && Number.isInteger((value as { ordinal: unknown }).ordinal);

const threadCursor = (thread: ThreadRecord) => encodeCursor({ createdAt: thread.createdAt, id: thread.id });

export const threadResolvers: Resolvers = {
  Query: {
    thread: (_root, { id }, { loaders }) => loaders.thread.load(id),
    threads: async (_root, { first, after }, { operations }) => {
      const page = await listThreads(operations, decodeCursor('after', after, isThreadCursor), clamp(first, 20, 1, 100));
      const edges = page.threads.map((thread) => ({ cursor: threadCursor(thread), node: thread }));
      return { edges, pageInfo: { hasNextPage: page.hasNextPage, endCursor: edges.at(-1)?.cursor ?? null } };
    },
  },
  Mutation: {
    createThread: (_root, { input }, { operations }) =>
      createThread(operations, optionalText('id', input.id, LIMITS.id), optionalText('title', input.title, LIMITS.title)),
  },
  Thread: {
    runs: async (thread, { first, after }, { operations, loaders }) => {
      const limit = clamp(first, 50, 1, 500);
      const afterOrdinal = decodeCursor('after', after, isOrdinalCursor)?.ordinal ?? 0;
      const rows = await operations.graph.read((tx) => runPage(tx, thread.id, afterOrdinal, limit + 1));
      const runs = rows.slice(0, limit);
      for (const run of runs) loaders.run.prime(run.id, run);
      const edges = runs.map((run) => ({ cursor: encodeCursor({ ordinal: run.ordinal }), node: run }));
      return { edges, pageInfo: { hasNextPage: rows.length > limit, endCursor: edges.at(-1)?.cursor ?? null } };
    },
    providerThreads: (thread, _args, { loaders }) => loaders.providerThreadsOfThread.load(thread.id),
    handoffs: (thread, _args, { loaders }) => loaders.handoffsOfThread.load(thread.id),
    transfers: (thread, _args, { loaders }) => loaders.transfersOfThread.load(thread.id),
    latestCheckpoint: (thread, _args, { loaders }) => loaders.latestCheckpointOfThread.load(thread),
  },
};
