// The graph edge: every row a statement answers is parsed by the schema of the code that reads it,
// so a statement answering the wrong shape (a renamed column, a property of the wrong type, an enum
// value the domain does not know) fails where it is read, naming the statement and the field, not
// later where a record is used.
import { z } from 'zod';
import type { QueryName } from './queries.js';

/** A row as plain() returns it: column names to plain values. */
export type Row = Record<string, unknown>;

/** What a reader holds a statement's row to be, and what it makes of it. */
export type RowSchema = z.ZodType;

/** A row of a statement that is passed on as data (audit violations, analysts' queries), not read. */
export const anyRow = z.record(z.string(), z.unknown());

/** A statement answered a row its reader's schema refuses: a bug in the statement, the schema or the stored data. */
export class RowShapeError extends Error {
  constructor(
    readonly statement: QueryName,
    /** The paths of the refused fields within the row, dotted: `run.status`, `facts.0.kind`. */
    readonly fields: string[],
    detail: string,
  ) {
    super(`cypher/${statement}.cypher answered a row of the wrong shape: ${detail}`);
    this.name = 'RowShapeError';
  }
}

/** `row` as `schema` makes it; RowShapeError naming `statement` and the refused fields otherwise. */
export function parseRow<S extends RowSchema>(statement: QueryName, schema: S, row: unknown): z.output<S> {
  const parsed = schema.safeParse(row);
  if (parsed.success) return parsed.data;
  throw new RowShapeError(
    statement,
    parsed.error.issues.map((issue) => issue.path.join('.')),
    z.prettifyError(parsed.error),
  );
}

/** A property older nodes may lack, or a column a statement may answer null: null or absent. */
export const absent = <T extends z.ZodType>(type: T) => type.nullish();
