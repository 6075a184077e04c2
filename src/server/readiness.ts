import type { Logger } from 'pino';
import { MigrationsBusy } from '../graph/migrations.js';
import type { Graph } from '../graph/transactions.js';

export interface ReadinessState {
  ready: boolean;
  /** In the service's own words, for an unauthenticated probe: no driver text, no internals. */
  state: string;
}

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 10_000;
const BUSY_RETRY_MS = 500;

/**
 * Ready means the schema migrations are applied and Neo4j answers. Until the migrations are applied the
 * service serves no GraphQL (see `migrated`): they are tried at start and then again in the background,
 * with a backoff, each try logged, until one succeeds. A check never waits longer than its timeout: a
 * stalled Neo4j makes a probe see 503 within it, not hang with every other request.
 */
export class Readiness {
  private applied = false;
  private tries = 0;
  private waiting = 'the schema migrations have not been tried yet';
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly graph: Graph,
    private readonly migrate: () => Promise<string[]>,
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  /** Whether GraphQL may be served: the schema is in place. */
  get migrated(): boolean {
    return this.applied;
  }

  /** The first try, awaited: a service whose Neo4j is up starts migrated. Later tries run in the background. */
  async start(): Promise<void> {
    await this.tryMigrations();
  }

  stop(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
  }

  /** The probe of /readyz: 503 once the timeout passes. */
  async check(): Promise<ReadinessState> {
    if (!this.applied) return { ready: false, state: `starting: ${this.waiting}` };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ReadinessState>((resolve) => {
      timer = setTimeout(
        () => resolve({ ready: false, state: `the database did not answer within ${this.timeoutMs} ms` }),
        this.timeoutMs,
      );
    });
    const ping = this.graph
      .read((tx) => tx.run('admin/ping'))
      .then(
        (): ReadinessState => ({ ready: true, state: 'ready' }),
        (): ReadinessState => ({ ready: false, state: 'the database is not reachable' }),
      );
    try {
      return await Promise.race([ping, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async tryMigrations(): Promise<void> {
    if (this.stopped) return;
    this.tries++;
    try {
      const applied = await this.migrate();
      this.applied = true;
      if (applied.length > 0) this.logger.info({ applied, try: this.tries }, 'schema migrations applied');
      return;
    } catch (error) {
      const busy = error instanceof MigrationsBusy;
      this.waiting = busy
        ? 'another instance is applying the schema migrations'
        : 'the database is not reachable to apply the schema migrations';
      // The holder of the lease is at work: look again soon. An unreachable database: back off.
      const delay = busy
        ? BUSY_RETRY_MS
        : Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(this.tries - 1, 10));
      this.logger.warn(
        busy ? { try: this.tries, retryInMs: delay } : { try: this.tries, retryInMs: delay, err: error },
        `schema migrations not applied: ${this.waiting}; trying again`,
      );
      if (this.stopped) return;
      this.retry = setTimeout(() => void this.tryMigrations(), delay);
      this.retry.unref();
    }
  }
}
