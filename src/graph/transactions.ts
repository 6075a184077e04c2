import neo4j, { type Driver, type ManagedTransaction, Neo4jError } from 'neo4j-driver';
import { ThreadlineError } from '../domain/errors.js';
import { LINEAGE_RULE_PARAMETERS } from '../domain/standing.js';
import { cypher } from './queries.js';
import { plain, toParameters } from './values.js';

export type Row = Record<string, unknown>;
export type Params = Record<string, unknown>;

/** One transaction, scoped to one tenant: every statement receives $tenant and the lineage rule parameters. */
export interface Tx {
  rows<T = Row>(query: string, params?: Params): Promise<T[]>;
  one<T = Row>(query: string, params?: Params): Promise<T | null>;
}

const UNAVAILABLE_CODES = new Set(['ServiceUnavailable', 'SessionExpired', 'Neo.TransientError.General.DatabaseUnavailable']);

export function isUnavailable(error: unknown): boolean {
  return error instanceof Neo4jError && (UNAVAILABLE_CODES.has(error.code) || error.retriable);
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
  ) {}

  forTenant(tenant: string): Graph {
    return new Graph(this.driver, this.database, tenant, this.deadlineMs);
  }

  /** The same graph with no deadline: for migrations, which may rightly take long on a large store. */
  withoutDeadline(): Graph {
    return new Graph(this.driver, this.database, this.tenant, null);
  }

  read<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.session('READ', (session) => session.executeRead((tx) => work(this.wrap(tx))));
  }

  write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.session('WRITE', (session) => session.executeWrite((tx) => work(this.wrap(tx))));
  }

  /** An auto-commit statement, for schema commands that cannot share a transaction with writes. */
  async autoCommit(text: string, params: Params = {}): Promise<void> {
    await this.session('WRITE', async (session) => {
      await session.run(text, params);
    });
  }

  private async session<T>(mode: 'READ' | 'WRITE', use: (session: neo4j.Session) => Promise<T>): Promise<T> {
    const session = this.driver.session({ database: this.database, defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE });
    try {
      return await this.withinDeadline(use(session));
    } catch (error) {
      if (isUnavailable(error)) {
        throw new ThreadlineError('SERVICE_UNAVAILABLE', 'The graph database is unavailable; retry later.');
      }
      // A uniqueness constraint is the backstop of checks made under a lock; tripping it means a
      // concurrent request won the race the check could not see.
      if (error instanceof Neo4jError && error.code === 'Neo.ClientError.Schema.ConstraintValidationFailed') {
        throw new ThreadlineError('CONFLICT', 'A concurrent request wrote the same thing first; read the current state and retry if still needed.');
      }
      throw error;
    } finally {
      await session.close().catch(() => undefined);
    }
  }

  private async withinDeadline<T>(work: Promise<T>): Promise<T> {
    if (this.deadlineMs === null) return work;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new ThreadlineError('SERVICE_UNAVAILABLE', `The graph database did not answer within ${this.deadlineMs} ms; retry later.`)), this.deadlineMs!);
    });
    // The abandoned work settles later; its outcome is nobody's to handle.
    work.catch(() => undefined);
    try {
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  private wrap(tx: ManagedTransaction): Tx {
    const rows = async <T>(query: string, params: Params = {}): Promise<T[]> => {
      const result = await tx.run(cypher(query), toParameters({ ...LINEAGE_RULE_PARAMETERS, ...params, tenant: this.tenant }));
      return result.records.map((record) => plain(record.toObject()) as T);
    };
    return {
      rows,
      one: async <T>(query: string, params?: Params) => (await rows<T>(query, params))[0] ?? null,
    };
  }
}
