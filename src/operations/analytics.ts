// The analysts' queries of cypher/analytics/, run read-only for one tenant: by name for
// `npm run query`, and mapped to records for the GraphQL analytics fields.
import { z } from 'zod';
import { badInput } from '../domain/errors.js';
import { STALENESS_SIGNALS, type StalenessSignal } from '../domain/records.js';
import { queryName, queryNames } from '../graph/queries.js';
import type { RowSchema } from '../graph/rows.js';
import type { Graph, Params } from '../graph/transactions.js';
import type { OperationContext } from './context.js';

const PREFIX = 'analytics/';

/** The names `npm run query` accepts: the files of cypher/analytics/ without their extension. */
export function analyticsQueryNames(): string[] {
  return queryNames()
    .filter((name) => name.startsWith(PREFIX))
    .map((name) => name.slice(PREFIX.length));
}

/** Runs cypher/analytics/<name>.cypher in a read transaction of the graph's tenant; each row as `row` parses it. */
export function runAnalyticsQuery<S extends RowSchema>(
  graph: Graph,
  name: string,
  params: Params,
  row: S,
): Promise<z.output<S>[]> {
  if (!analyticsQueryNames().includes(name)) throw badInput('name', `unknown analytics query ${JSON.stringify(name)}`);
  return graph.read((tx) => tx.rows(queryName(`${PREFIX}${name}`), params, row));
}

const COVERAGE_KINDS = ['native', 'handoff', 'missing'] as const;
export type CoverageKind = (typeof COVERAGE_KINDS)[number];

export interface CoverageCellRecord {
  providerThreadId: string;
  kind: CoverageKind;
}

export interface CoverageRowRecord {
  ordinal: number;
  runId: string;
  cells: CoverageCellRecord[];
}

export interface CoverageMatrixRecord {
  threadId: string;
  /** The page's columns, in the order of every row's cells. */
  providerThreadIds: string[];
  rows: CoverageRowRecord[];
  hasNextPage: boolean;
  nextFromOrdinal: number | null;
  hasMoreColumns: boolean;
  nextColumnsFrom: number | null;
}

/** Which part of the matrix to read: runs from an ordinal, provider threads from a seq. */
export interface MatrixPage {
  fromOrdinal: number;
  first: number;
  columnsFrom: number;
  columns: number;
}

const matrixRow = z.object({
  ordinal: z.number(),
  runId: z.string(),
  cells: z.array(z.object({ providerThreadId: z.string(), kind: z.enum(COVERAGE_KINDS) })),
});

/** One page of thread `threadId`'s coverage matrix: at most `first` runs by `columns` provider threads. */
export async function coverageMatrix(
  context: OperationContext,
  threadId: string,
  page: MatrixPage,
): Promise<CoverageMatrixRecord> {
  const { fromOrdinal, first, columnsFrom, columns } = page;
  // One more of each than asked: whether a next page of runs, or of columns, exists.
  const rows = await runAnalyticsQuery(
    context.graph,
    'coverage-matrix',
    { threadId, fromOrdinal, limit: first + 1, columnsFrom, columns: columns + 1 },
    matrixRow,
  );
  const pageRows = rows.slice(0, first).map((row) => ({
    ordinal: row.ordinal,
    runId: row.runId,
    cells: row.cells.slice(0, columns).map((cell) => ({ providerThreadId: cell.providerThreadId, kind: cell.kind })),
  }));
  const next = rows[first];
  const moreColumns = (rows[0]?.cells.length ?? 0) > columns;
  return {
    threadId,
    providerThreadIds: pageRows[0]?.cells.map((cell) => cell.providerThreadId) ?? [],
    rows: pageRows,
    hasNextPage: next !== undefined,
    nextFromOrdinal: next?.ordinal ?? null,
    // seq numbers a thread's provider threads 1, 2, ... without gaps.
    hasMoreColumns: moreColumns,
    nextColumnsFrom: moreColumns ? columnsFrom + columns : null,
  };
}

/** A validated time window: both ends ISO date-times, from before to. */
export interface AnalyticsWindow {
  from: string;
  to: string;
}

export function analyticsWindow(from: string, to: string): AnalyticsWindow {
  // The DateTime scalar passes any JSON value through: a list nested without bound must not be turned into text.
  const parse = (field: string, value: unknown) => {
    const time = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
    if (Number.isNaN(time))
      throw badInput(
        field,
        `must be an ISO-8601 date-time such as 2026-01-31T00:00:00Z (got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 100)) : `a value of type ${Array.isArray(value) ? 'list' : typeof value}`})`,
      );
    return new Date(time).toISOString();
  };
  const window = { from: parse('from', from), to: parse('to', to) };
  if (window.from >= window.to) throw badInput('to', 'must be after from');
  return window;
}

export interface ProviderPairStatsRecord {
  fromProvider: string;
  toProvider: string;
  switches: number;
  handoffs: number;
  deltaShare: number;
  fullShare: number;
  checkpointShare: number;
  manualShare: number;
  meanRunsCovered: number;
  returns: number;
  resumed: number;
  recreated: number;
  medianLength: number | null;
  medianBudgetChars: number | null;
  medianBudgetUse: number | null;
}

export interface StalenessStatsRecord {
  provider: string;
  signal: StalenessSignal;
  runs: number;
  threads: number;
  providerRuns: number;
  rate: number;
}

export interface ProvenanceStatsRecord {
  source: string;
  createdByProvider: string | null;
  handoffs: number;
  superseded: number;
  supersededRate: number;
  withdrawnByRollback: number;
  failed: number;
  failedRate: number;
  pending: number;
  meanOmissions: number;
  totalOmissions: number;
}

const count = z.number();
const share = z.number();

const providerPairRow = z.object({
  fromProvider: z.string(),
  toProvider: z.string(),
  switches: count,
  handoffs: count,
  deltaShare: share,
  fullShare: share,
  checkpointShare: share,
  manualShare: share,
  // Null when no switch of the pair carried a handoff: none covered any run.
  meanRunsCovered: z
    .number()
    .nullable()
    .transform((mean) => mean ?? 0),
  returns: count,
  resumed: count,
  recreated: count,
  medianLength: z.number().nullable(),
  medianBudgetChars: z.number().nullable(),
  medianBudgetUse: z.number().nullable(),
}) satisfies z.ZodType<ProviderPairStatsRecord>;

const stalenessRow = z.object({
  provider: z.string(),
  signal: z.enum(STALENESS_SIGNALS),
  runs: count,
  threads: count,
  providerRuns: count,
  rate: share,
}) satisfies z.ZodType<StalenessStatsRecord>;

const provenanceRow = z.object({
  source: z.string(),
  createdByProvider: z.string().nullable(),
  handoffs: count,
  superseded: count,
  supersededRate: share,
  withdrawnByRollback: count,
  failed: count,
  failedRate: share,
  pending: count,
  meanOmissions: z.number(),
  totalOmissions: count,
}) satisfies z.ZodType<ProvenanceStatsRecord>;

export async function crossProviderStats(
  context: OperationContext,
  window: AnalyticsWindow,
  limit: number,
): Promise<ProviderPairStatsRecord[]> {
  return runAnalyticsQuery(context.graph, 'cross-provider', { ...window, limit }, providerPairRow);
}

export async function stalenessStats(
  context: OperationContext,
  window: AnalyticsWindow,
  limit: number,
): Promise<StalenessStatsRecord[]> {
  return runAnalyticsQuery(context.graph, 'staleness', { ...window, limit }, stalenessRow);
}

export async function provenanceStats(
  context: OperationContext,
  window: AnalyticsWindow,
  limit: number,
): Promise<ProvenanceStatsRecord[]> {
  return runAnalyticsQuery(context.graph, 'summary-provenance', { ...window, limit }, provenanceRow);
}
