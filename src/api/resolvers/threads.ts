import { Kind, type GraphQLResolveInfo } from 'graphql';
import { badInput, present } from '../../domain/errors.js';
import type { ListedRunRecord, ThreadRecord } from '../../domain/records.js';
import {
  createThread,
  deleteThread,
  historyPage,
  listThreads,
  recordFact,
  renameThread,
} from '../../operations/threads.js';
import { handoffWindow, transferWindow } from '../../graph/repositories/handoffs.js';
import { providerThreadPage } from '../../graph/repositories/providerThreads.js';
import { runPage, runPageBackward } from '../../graph/repositories/runs.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import type { Loaders } from '../loaders.js';
import type { Resolvers } from '../generated/graphql.js';
import { LIMITS, clamp, factsOf, optionalText, ordinalWindow, requiredText } from '../validation.js';

/** What an agent or a person may record on a thread after the fact: what it knows, not what a run did. */
const RECORDABLE_FACTS = new Set<string>(['note', 'decision', 'constraint', 'goal']);

interface ThreadCursor {
  createdAt: string;
  id: string;
}
// The time goes to Cypher's datetime(): anything but a real UTC instant (as the service writes them)
// is a bad cursor, not a database error. The round trip through Date rejects days like 02-30.
const isUtcInstant = (text: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/.test(text) &&
  new Date(text).toISOString().slice(0, 19) === text.slice(0, 19);
const isThreadCursor = (value: unknown): value is ThreadCursor =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ThreadCursor).createdAt === 'string' &&
  isUtcInstant((value as ThreadCursor).createdAt) &&
  typeof (value as ThreadCursor).id === 'string';
// Ordinals are safe integers; a larger number would reach Neo4j as a float, so it makes a bad cursor.
const isOrdinalCursor = (value: unknown): value is { ordinal: number } =>
  typeof value === 'object' && value !== null && Number.isSafeInteger((value as { ordinal: unknown }).ordinal);

const threadCursor = (thread: ThreadRecord) => encodeCursor({ createdAt: thread.createdAt, id: thread.id });

/** The most rows that Thread.handoffs and Thread.transfers answer at once. */
const WINDOW_ROWS = 2000;
/** Provider threads per page of Thread.providerThreads: a long thread has thousands. */
const PROVIDER_THREADS_DEFAULT = 100;
const PROVIDER_THREADS_MAX = 500;

/**
 * Whether the query itself passed this argument: the SDL's default (runs' first: 50) is filled in
 * otherwise, so the resolver's arguments cannot tell "first: 50" from no first at all.
 */
function argumentPassed(info: GraphQLResolveInfo, name: string): boolean {
  const value = info.fieldNodes[0]?.arguments?.find((argument) => argument.name.value === name)?.value;
  if (!value || value.kind === Kind.NULL) return false;
  return value.kind !== Kind.VARIABLE || (info.variableValues[value.name.value] ?? null) !== null;
}

// A thread's own runs are ordinals forkOrdinal + 1 .. lastOrdinal without gaps (ordinals are never
// skipped and rolled-back runs stay), so whether runs lie beyond the far end of a page follows from the
// thread record, without another read.
const ownRunsBelow = (thread: ThreadRecord, ordinal: number) =>
  Math.min(ordinal - 1, thread.lastOrdinal) > thread.forkOrdinal;
const ownRunsAbove = (thread: ThreadRecord, ordinal: number) =>
  Math.max(ordinal + 1, thread.forkOrdinal + 1) <= thread.lastOrdinal;

function runConnection(runs: ListedRunRecord[], loaders: Loaders, hasPreviousPage: boolean, hasNextPage: boolean) {
  for (const run of runs) loaders.run.prime(run.id, run);
  const edges = runs.map((run) => ({ cursor: encodeCursor({ ordinal: run.ordinal }), node: run }));
  return {
    edges,
    pageInfo: {
      hasPreviousPage,
      hasNextPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

export const threadResolvers: Resolvers = {
  Query: {
    thread: (_root, { id }, { loaders }) => loaders.thread.load(id),
    threads: async (_root, { filter, first, after }, { operations }) => {
      const text =
        filter?.text === null || filter?.text === undefined
          ? null
          : requiredText('filter.text', filter.text, LIMITS.label);
      const page = await listThreads(
        operations,
        {
          project: optionalText('filter.project', filter?.project, LIMITS.project),
          provider: optionalText('filter.provider', filter?.provider, LIMITS.label),
          text: text?.toLowerCase() ?? null,
        },
        decodeCursor('after', after, isThreadCursor),
        clamp(first, 20, 1, 100),
      );
      const edges = page.threads.map((thread) => ({ cursor: threadCursor(thread), node: thread }));
      return {
        edges,
        pageInfo: {
          hasNextPage: page.hasNextPage,
          endCursor: edges.at(-1)?.cursor ?? null,
          hasPreviousPage: false,
          startCursor: edges[0]?.cursor ?? null,
        },
      };
    },
  },
  Mutation: {
    createThread: (_root, { input }, { operations }) =>
      createThread(
        operations,
        optionalText('id', input.id, LIMITS.id),
        optionalText('title', input.title, LIMITS.title),
        optionalText('project', input.project, LIMITS.project),
      ),
    renameThread: (_root, { input }, { operations }) =>
      renameThread(
        operations,
        requiredText('id', input.id, LIMITS.id),
        requiredText('title', input.title, LIMITS.title),
      ),
    deleteThread: (_root, { input }, { operations }) =>
      deleteThread(operations, requiredText('id', input.id, LIMITS.id)),
    recordFact: async (_root, { input }, { operations, loaders }) => {
      if (!RECORDABLE_FACTS.has(input.kind)) throw badInput('kind', 'must be NOTE, DECISION, CONSTRAINT or GOAL');
      const [fact] = factsOf('fact', [input]);
      const recorded = await recordFact(operations, input.threadId, present(fact, 'the fact read'), LIMITS.facts);
      return { run: present(await loaders.run.load(recorded.runId), `run ${recorded.runId}`), fact: recorded.fact };
    },
  },
  Thread: {
    runCount: (thread) => thread.lastOrdinal - thread.forkOrdinal,
    runs: async (thread, { first, after, last, before }, { operations, loaders }, info) => {
      const backwards = argumentPassed(info, 'last') || argumentPassed(info, 'before');
      if (backwards && (argumentPassed(info, 'first') || argumentPassed(info, 'after'))) {
        throw badInput(
          argumentPassed(info, 'first') ? 'first' : 'after',
          'first/after page forwards and last/before backwards: pass one pair',
        );
      }
      if (backwards) {
        const limit = clamp(last, 50, 1, 500);
        const beforeOrdinal = decodeCursor('before', before, isOrdinalCursor)?.ordinal ?? Number.MAX_SAFE_INTEGER;
        const rows = await operations.graph.read((tx) => runPageBackward(tx, thread.id, beforeOrdinal, limit + 1));
        const runs = rows.slice(0, limit).reverse();
        return runConnection(
          runs,
          loaders,
          rows.length > limit,
          ownRunsAbove(thread, runs.at(-1)?.ordinal ?? beforeOrdinal - 1),
        );
      }
      const limit = clamp(first, 50, 1, 500);
      const afterOrdinal = decodeCursor('after', after, isOrdinalCursor)?.ordinal ?? 0;
      const rows = await operations.graph.read((tx) => runPage(tx, thread.id, afterOrdinal, limit + 1));
      const runs = rows.slice(0, limit);
      return runConnection(
        runs,
        loaders,
        ownRunsBelow(thread, runs[0]?.ordinal ?? afterOrdinal + 1),
        rows.length > limit,
      );
    },
    history: async (thread, { first, after, liveOnly, fromOrdinal }, { operations, loaders }) => {
      if (fromOrdinal !== null && fromOrdinal !== undefined) {
        if (after) throw badInput('fromOrdinal', 'fromOrdinal starts a page instead of after: pass one of them');
        if (!Number.isSafeInteger(fromOrdinal) || fromOrdinal < 1) throw badInput('fromOrdinal', 'must be at least 1');
      }
      const afterOrdinal = fromOrdinal
        ? fromOrdinal - 1
        : (decodeCursor('after', after, isOrdinalCursor)?.ordinal ?? 0);
      const page = await historyPage(operations, thread, afterOrdinal, clamp(first, 50, 1, 500), liveOnly ?? false);
      for (const { run } of page.entries) loaders.run.prime(run.id, run);
      const edges = page.entries.map(({ run, inherited, live }) => ({
        cursor: encodeCursor({ ordinal: run.ordinal }),
        node: run,
        inherited,
        live,
      }));
      return {
        edges,
        pageInfo: {
          hasPreviousPage: afterOrdinal > 0,
          hasNextPage: page.hasNextPage,
          startCursor: edges[0]?.cursor ?? null,
          endCursor: edges.at(-1)?.cursor ?? null,
        },
      };
    },
    providerThreads: async (thread, { first, after, fromOrdinal, toOrdinal }, { operations, loaders }) => {
      const window = ordinalWindow(fromOrdinal, toOrdinal);
      let afterSeq = 0;
      if (after !== null && after !== undefined) {
        const last = await loaders.providerThread.load(after);
        if (!last || last.threadId !== thread.id) throw badInput('after', 'not a provider thread of this thread');
        afterSeq = last.seq;
      }
      const page = { afterSeq, first: clamp(first, PROVIDER_THREADS_DEFAULT, 1, PROVIDER_THREADS_MAX), window };
      const providerThreads = await operations.graph.read((tx) => providerThreadPage(tx, thread.id, page));
      for (const providerThread of providerThreads) loaders.providerThread.prime(providerThread.id, providerThread);
      return providerThreads;
    },
    handoffs: async (thread, { fromOrdinal, toOrdinal }, { operations, loaders }) => {
      const window = ordinalWindow(fromOrdinal, toOrdinal);
      if (!window) return loaders.handoffsOfThread.load(thread.id);
      const handoffs = await operations.graph.read((tx) =>
        handoffWindow(tx, thread.id, window.from, window.to, WINDOW_ROWS),
      );
      for (const handoff of handoffs) loaders.handoff.prime(handoff.id, handoff);
      return handoffs;
    },
    transfers: (thread, { fromOrdinal, toOrdinal }, { operations, loaders }) => {
      const window = ordinalWindow(fromOrdinal, toOrdinal);
      if (!window) return loaders.transfersOfThread.load(thread.id);
      return operations.graph.read((tx) => transferWindow(tx, thread.id, window.from, window.to, WINDOW_ROWS));
    },
    latestCheckpoint: (thread, _args, { loaders }) => loaders.latestCheckpointOfThread.load(thread),
  },
};
