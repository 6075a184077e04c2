import {
  analyticsWindow,
  coverageMatrix,
  crossProviderStats,
  provenanceStats,
  stalenessStats,
} from '../../operations/analytics.js';
import type { Resolvers } from '../generated/graphql.js';
import { clamp } from '../validation.js';

const MAX_ROWS = 200;

export const analyticsResolvers: Resolvers = {
  Query: {
    analytics: (_root, { from, to }) => analyticsWindow(from, to),
  },
  Thread: {
    coverageMatrix: (thread, { fromOrdinal, first }, { operations }) =>
      coverageMatrix(operations, thread.id, Math.max(1, Math.trunc(fromOrdinal ?? 1)), clamp(first, 50, 1, MAX_ROWS)),
  },
  CoverageMatrix: {
    providerThreads: (matrix, _args, { loaders }) => loaders.providerThreadsOfThread.load(matrix.threadId),
  },
  CoverageRow: {
    run: async (row, _args, { loaders }) => {
      const run = await loaders.run.load(row.runId);
      if (!run) throw new Error(`Run ${row.runId} of a coverage matrix row was not found`);
      return run;
    },
  },
  Analytics: {
    crossProvider: (window, { first }, { operations }) => crossProviderStats(operations, window, clamp(first, 50, 1, MAX_ROWS)),
    staleness: (window, { first }, { operations }) => stalenessStats(operations, window, clamp(first, 50, 1, MAX_ROWS)),
    summaryProvenance: (window, { first }, { operations }) => provenanceStats(operations, window, clamp(first, 50, 1, MAX_ROWS)),
  },
};
