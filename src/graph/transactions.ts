import type { z } from 'zod';
import neo4j, {
  type BookmarkManager,
  type Driver,
  type ManagedTransaction,
  Neo4jError,
  type QueryResult,
} from 'neo4j-driver';
import { present, ThreadlineError } from '../domain/errors.js';
import { LINEAGE_RULE_PARAMETERS } from '../domain/standing.js';
import { parametersNamed, sentCypher, type QueryName } from './queries.js';
import { parseRow, type Row, type RowSchema } from './rows.js';
import { plain, toParameters } from './values.js';

export type { Row };
export type Params = Record<string, unknown>;

/**
 * One transaction, scoped to one tenant: every statement receives $tenant and the lineage rule
 * parameters. Every row read is parsed by the reader's schema (RowShapeError when it does not fit).
 */
export interface Tx {
  /** A statement whose rows nobody reads: a write that answers nothing the caller needs. */
  run(query: QueryName, params?: Params): Promise<void>;
  rows<S extends RowSchema>(query: QueryName, params: Params, row: S): Promise<z.output<S>[]>;
  one<S extends RowSchema>(query: QueryName, params: Params, row: S): Promise<z.output<S> | null>;
  /** The one row of a statement that always answers one (it creates, or reads what the caller holds); MissingRecordError naming `what` otherwise. */
  single<S extends RowSchema>(query: QueryName, params: Params, row: S, what: string): Promise<z.output<S>>;
}

/** A Tx over a way to run a statement that answers its rows as plain() makes them. */
export function txOf(statement: (query: QueryName, params: Params) => Promise<Row[]>): Tx {
  const one = async <S extends RowSchema>(query: QueryName, params: Params, row: S) => {
    const [first] = await statement(query, params);
    return first === undefined ? null : parseRow(query, row, first);
  };
  return {
    run: async (query, params = {}) => {
      await statement(query, params);
    },
    rows: async (query, params, row) => (await statement(query, params)).map((each) => parseRow(query, row, each)),
    one,
    single: async (query, params, row, what) =>
      present(await one(query, params, row), `${what} (cypher/${query}.cypher answered no row)`),
  };
}

const UNAVAILABLE_CODES = new Set([
  'ServiceUnavailable',
  'SessionExpired',
  'Neo.TransientError.General.DatabaseUnavailable',
]);

// A bookmark the caller sent back that the database cannot read (not one it issued, or mangled).
const INVALID_BOOKMARK_CODES = new Set([
  'Neo.ClientError.Transaction.InvalidBookmark',
  'Neo.ClientError.Transaction.InvalidBookmarkMixture',
]);

// The driver reports a pool with no free connection, or a server that does not finish the handshake,
// with no code of its own: by message.
const UNAVAILABLE_MESSAGES = /^(Connection acquisition timed out|Failed to establish connection)/;

function isUnavailable(error: unknown): boolean {
  return (
    error instanceof Neo4jError &&
    (UNAVAILABLE_CODES.has(error.code) || error.retriable || UNAVAILABLE_MESSAGES.test(error.message))
  );
}

/** How a transaction ended, and how many times the driver ran its work (more than once: retried). */
export interface TransactionObserver {
  transactionEnded(mode: 'read' | 'write', attempts: number, outcome: 'committed' | 'failed' | 'unavailable'): void;
}

const NO_OBSERVER: TransactionObserver = { transactionEnded: () => undefined };

/** Told when each statement starts, by its name (`threads/lock`); what it returns is called when the statement ends, with the error if it failed. */
export interface StatementObserver {
  statementStarted(name: string): (error?: unknown) => void;
}

/**
 * Runs one unit of the service's own background work (a sweep, a poll) on the graph of every tenant,
 * observed as the operator chose (traced under a span named `name`); `describe` says what to record of
 * its result.
 */
export type BackgroundRunner = <T>(
  name: string,
  work: (rootGraph: Graph) => Promise<T>,
  describe?: (result: T) => Record<string, number>,
) => Promise<T>;

/** What a Graph carries besides its driver and database. */
interface GraphSettings {
  tenant: string;
  deadlineMs: number | null;
  scopedToOneRequest: boolean;
  observer: TransactionObserver;
  statements: StatementObserver | null;
  bookmarks: BookmarkManager | null;
}

const rulesByStatement = new Map<QueryName, Params>();

/**
 * The lineage rule parameters statement `query` names, as sent, worked out once per statement: a
 * statement is sent only the rules it reads, which spares packing and sending the others with every
 * run (a statement's text and parameters go out in writes of at most 1,400 bytes each).
 */
function rulesNamedBy(query: QueryName): Params {
  let rules = rulesByStatement.get(query);
  if (rules === undefined) {
    const named = parametersNamed(query);
    rules = toParameters(
      Object.fromEntries(Object.entries(LINEAGE_RULE_PARAMETERS).filter(([name]) => named.has(name))),
    ) as Params;
    rulesByStatement.set(query, rules);
  }
  return rules;
}

/** What named statement `query` receives besides its own parameters: the tenant and the lineage rules it reads. */
export function statementParameters(tenant: string, query: QueryName, params: Params): Params {
  return { ...rulesNamedBy(query), ...(toParameters({ ...params, tenant }) as Params) };
}

/**
 * Access to the graph for one tenant. Transaction functions may run twice (driver retries): keep them
 * pure of side effects outside the transaction. With a deadline, an operation Neo4j has not answered
 * by then fails as SERVICE_UNAVAILABLE: the driver's own limits bound connecting and acquiring a
 * connection, not a server that accepted the query and stalled.
 */
export class Graph {
  constructor(
    private readonly driver: Driver,
    private readonly database: string,
    readonly tenant: string,
    private readonly deadlineMs: number | null = null,
    private readonly scopedToOneRequest = false,
    private readonly observer: TransactionObserver = NO_OBSERVER,
    private readonly statements: StatementObserver | null = null,
    private readonly bookmarkManager: BookmarkManager | null = null,
  ) {}

  /**
   * The graph of one tenant for one request (or one unit of background work): once one of its
   * operations missed the deadline, its later ones fail at once, so a request that reads in several
   * rounds answers within about one deadline, not one per round.
   */
  forTenant(tenant: string): Graph {
    return this.with({ tenant, scopedToOneRequest: true });
  }

  /** The same graph with no deadline: for migrations, which may rightly take long on a large store. */
  withoutDeadline(): Graph {
    return this.with({ deadlineMs: null });
  }

  /** The same graph, telling `observer` how each transaction ended. */
  observedBy(observer: TransactionObserver): Graph {
    return this.with({ observer });
  }

  /** The same graph, telling `statements` when each statement starts and ends. */
  withStatementsObservedBy(statements: StatementObserver): Graph {
    return this.with({ statements });
  }

  /**
   * The same graph, reading at least the state the bookmarks `after` name (what an earlier write
   * returned, on this instance or another), and each of its transactions at least what the ones
   * before it wrote: on a cluster a read may be routed to a member that has not caught up yet, and
   * then waits for it. bookmarks() gives what its writes leave behind.
   */
  causallyAfter(after: readonly string[]): Graph {
    return this.with({ bookmarks: neo4j.bookmarkManager({ initialBookmarks: after }) });
  }

  /** The bookmarks of the state this graph's transactions have seen or written; empty when not causal. */
  async bookmarks(): Promise<string[]> {
    return this.bookmarkManager ? [...(await this.bookmarkManager.getBookmarks())] : [];
  }

  /** This graph with some of its settings changed. */
  private with(changes: Partial<GraphSettings>): Graph {
    const next: GraphSettings = {
      tenant: this.tenant,
      deadlineMs: this.deadlineMs,
      scopedToOneRequest: this.scopedToOneRequest,
      observer: this.observer,
      statements: this.statements,
      bookmarks: this.bookmarkManager,
      ...changes,
    };
    return new Graph(
      this.driver,
      this.database,
      next.tenant,
      next.deadlineMs,
      next.scopedToOneRequest,
      next.observer,
      next.statements,
      next.bookmarks,
    );
  }

  read<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transaction('READ', work);
  }

  /**
   * A read whose work nearly always needs one statement (a plan: the snapshot statement), run as that
   * statement alone in an auto-commit transaction: one Bolt round trip (RUN and PULL) where a read
   * transaction takes two (BEGIN, RUN and PULL, then COMMIT), 0.6 ms of a plan's 5 here. Should the
   * work ask for a second statement, or the first fail with an error a retry may cure, the work starts
   * over in a read transaction (read()), where every statement sees one state and the driver retries.
   */
  readInOneStatement<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.inOneStatement('READ', work);
  }

  /**
   * A write of one statement, in an auto-commit transaction: one round trip and one flush where a
   * write transaction takes two round trips and three flushes (BEGIN, the statement, COMMIT; see
   * docs/benchmarks.md, the throughput run). Nothing rolls the statement back once it ran: only for
   * work whose checks on its answer refuse nothing it wrote (the statement writes only when they
   * would pass). A failure a retry may cure rolled it back, and the work starts over in a write
   * transaction (write()), where the driver retries; a second statement is a bug.
   */
  writeInOneStatement<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.inOneStatement('WRITE', work);
  }

  /** The work in an auto-commit transaction, or started over in a transaction when it needs one. */
  private async inOneStatement<T>(mode: 'READ' | 'WRITE', work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.autoCommitted(mode, work);
    } catch (error) {
      if (!(error instanceof NeedsTransaction)) throw error;
    }
    return this.transaction(mode, work);
  }

  /** The work's one statement in an auto-commit transaction; NeedsTransaction when it should run in one. */
  private async autoCommitted<T>(mode: 'READ' | 'WRITE', work: (tx: Tx) => Promise<T>): Promise<T> {
    const observed = mode === 'READ' ? 'read' : 'write';
    try {
      const result = await this.session(mode, (session) => {
        const statement = this.statementsOn(async (text, params) => {
          try {
            return await session.run(text, params);
          } catch (error) {
            throw error instanceof Neo4jError && error.retriable ? new NeedsTransaction() : error;
          }
        });
        let statements = 0;
        return work(
          txOf((query, params) => {
            if (++statements === 1) return statement(query, params);
            // The first one's write is committed: running the work again would write it twice.
            if (mode === 'WRITE') throw new Error(`A write in one statement sent a second: cypher/${query}.cypher`);
            throw new NeedsTransaction();
          }),
        );
      });
      this.observer.transactionEnded(observed, 1, 'committed');
      return result;
    } catch (error) {
      if (!(error instanceof NeedsTransaction)) this.observer.transactionEnded(observed, 1, outcomeOf(error));
      throw error;
    }
  }

  write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transaction('WRITE', work);
  }

  private async transaction<T>(mode: 'READ' | 'WRITE', work: (tx: Tx) => Promise<T>): Promise<T> {
    let attempts = 0;
    const attempt = (tx: ManagedTransaction) => {
      attempts++;
      return work(txOf(this.statementsOn((text, params) => tx.run(text, params))));
    };
    const observed = mode === 'READ' ? 'read' : 'write';
    try {
      const result = await this.session(mode, (session) =>
        mode === 'READ' ? session.executeRead(attempt) : session.executeWrite(attempt),
      );
      this.observer.transactionEnded(observed, attempts, 'committed');
      return result;
    } catch (error) {
      this.observer.transactionEnded(observed, attempts, outcomeOf(error));
      throw error;
    }
  }

  /** An auto-commit statement, for schema commands that cannot share a transaction with writes. */
  async autoCommit(text: string, params: Params = {}): Promise<void> {
    await this.session('WRITE', async (session) => {
      await session.run(text, params);
    });
  }

  private async session<T>(mode: 'READ' | 'WRITE', use: (session: neo4j.Session) => Promise<T>): Promise<T> {
    const session = this.driver.session({
      database: this.database,
      defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE,
      bookmarkManager: this.bookmarkManager ?? undefined,
    });
    let abandoned = false;
    try {
      return await this.withinDeadline(() => use(session));
    } catch (error) {
      // Closing waits for the open transaction, which is what did not answer: let it close later.
      abandoned = error instanceof ThreadlineError && error.code === 'SERVICE_UNAVAILABLE';
      if (isUnavailable(error)) {
        throw new ThreadlineError('SERVICE_UNAVAILABLE', 'The graph database is unavailable; retry later.');
      }
      if (error instanceof Neo4jError && INVALID_BOOKMARK_CODES.has(error.code)) {
        throw new ThreadlineError('BAD_USER_INPUT', 'The bookmark sent is not one this graph database issued.', {
          field: 'threadline-bookmark',
        });
      }
      // A uniqueness constraint is the backstop of checks made under a lock; tripping it means a
      // concurrent request won the race the check could not see.
      if (error instanceof Neo4jError && error.code === 'Neo.ClientError.Schema.ConstraintValidationFailed') {
        throw new ThreadlineError(
          'CONFLICT',
          'A concurrent request wrote the same thing first; read the current state and retry if still needed.',
        );
      }
      throw error;
    } finally {
      const closed = session.close().catch(() => undefined);
      if (!abandoned) await closed;
    }
  }

  private missedDeadline: ThreadlineError | null = null;

  private async withinDeadline<T>(start: () => Promise<T>): Promise<T> {
    if (this.missedDeadline) throw this.missedDeadline;
    const work = start();
    const deadlineMs = this.deadlineMs;
    if (deadlineMs === null) return work;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const missed = new ThreadlineError(
          'SERVICE_UNAVAILABLE',
          `The graph database did not answer within ${deadlineMs} ms; retry later.`,
        );
        if (this.scopedToOneRequest) this.missedDeadline = missed;
        reject(missed);
      }, deadlineMs);
    });
    // The abandoned work settles later; its outcome is nobody's to handle.
    work.catch(() => undefined);
    try {
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Named statements that `run` runs, with the tenant and the rule parameters, observed and read back plain. */
  private statementsOn(
    run: (text: string, params: unknown) => Promise<QueryResult>,
  ): (query: QueryName, params: Params) => Promise<Row[]> {
    return async (query, params) => {
      const ended = this.statements?.statementStarted(query);
      try {
        const result = await withoutCallerStack(() =>
          run(sentCypher(query), statementParameters(this.tenant, query, params)),
        );
        ended?.();
        return result.records.map((record) => plain(record.toObject()) as Row);
      } catch (error) {
        ended?.(error);
        throw error;
      }
    };
  }
}

/** Why readInOneStatement() or writeInOneStatement() starts its work over in a transaction. */
class NeedsTransaction extends Error {}

function outcomeOf(error: unknown): 'failed' | 'unavailable' {
  return error instanceof ThreadlineError && error.code === 'SERVICE_UNAVAILABLE' ? 'unavailable' : 'failed';
}

/**
 * Starts a statement without the caller's stack trace the driver captures for every result (to put
 * on its error if it fails): formatting it was a few per cent of the service's CPU under load (see
 * docs/benchmarks.md), and a failed statement's error is mapped or logged with its code and message.
 * The driver captures it synchronously, so the limit is back before anything else runs.
 */
function withoutCallerStack<T>(start: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return start();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * The rows of a read over a thread's whole history, or over a window of its ordinals: the windowed
 * statement takes the same parameters and $fromOrdinal, $toOrdinal, and reads only what the window holds.
 */
export function rowsOverWindow<S extends RowSchema>(
  tx: Tx,
  statements: { whole: QueryName; window: QueryName },
  params: Params,
  window: { from: number; to: number } | null,
  row: S,
): Promise<z.output<S>[]> {
  return window
    ? tx.rows(statements.window, { ...params, fromOrdinal: window.from, toOrdinal: window.to }, row)
    : tx.rows(statements.whole, params, row);
}
