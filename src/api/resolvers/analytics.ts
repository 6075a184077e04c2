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
const MAX_COLUMNS = 100;

export const analyticsResolvers: Resolvers = {
  Query: {
    analytics: (_root, { from, to }) => analyticsWindow(from, to),
  },
  Thread: {
    coverageMatrix: (thread, { fromOrdinal, first, columnsFrom, columns }, { operations }) =>
      coverageMatrix(operations, thread.id, {
        fromOrdinal: Math.max(1, Math.trunc(fromOrdinal ?? 1)),
        first: clamp(first, 50, 1, MAX_ROWS),
        columnsFrom: Math.max(1, Math.trunc(columnsFrom ?? 1)),
        columns: clamp(columns, 50, 1, MAX_COLUMNS),
      }),
  },
  CoverageMatrix: {
    providerThreads: async (matrix, _args, { loaders }) => {
      const providerThreads = await loaders.providerThread.loadMany(matrix.providerThreadIds);
      return providerThreads.map((providerThread, index) => {
        if (!providerThread || providerThread instanceof Error)
          throw new Error(
            `Provider thread ${matrix.providerThreadIds[index]} of a coverage matrix column was not found`,
          );
        return providerThread;
      });
    },
  },
  CoverageRow: {
    run: async (row, _args, { loaders }) => {
      const run = await loaders.run.load(row.runId);
      if (!run) throw new Error(`Run ${row.runId} of a coverage matrix row was not found`);
      return run;
    },
  },
  Analytics: {
    crossProvider: (window, { first }, { operations }) =>
      crossProviderStats(operations, window, clamp(first, 50, 1, MAX_ROWS)),
    staleness: (window, { first }, { operations }) => stalenessStats(operations, window, clamp(first, 50, 1, MAX_ROWS)),
    summaryProvenance: (window, { first }, { operations }) =>
      provenanceStats(operations, window, clamp(first, 50, 1, MAX_ROWS)),
  },
};
