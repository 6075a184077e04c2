import type { Logger } from 'pino';
import type { Graph } from '../graph/transactions.js';

export interface ReadinessState {
  ready: boolean;
  reason?: string;
}

/**
 * Ready means Neo4j answers and the schema migrations are applied. Migrations are retried on each
 * check until they succeed, so a service started while Neo4j was down becomes ready by itself. A
 * check never waits longer than its timeout: a stalled Neo4j (or migrations still running) makes a
 * probe see 503 within it, not hang with every other request.
 */
export class Readiness {
  private migrated = false;
  private migrating: Promise<void> | null = null;

  constructor(
    private readonly graph: Graph,
    private readonly migrate: () => Promise<string[]>,
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  /** Waits for the migrations and one ping, however long they take: for start-up. */
  async settle(): Promise<ReadinessState> {
    return this.probe();
  }

  /** The probe of /readyz: 503 once the timeout passes. */
  async check(): Promise<ReadinessState> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ReadinessState>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ready: false,
            reason: `Neo4j did not answer within ${this.timeoutMs} ms${this.migrated ? '' : ' (migrations pending)'}`,
          }),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([this.probe(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async probe(): Promise<ReadinessState> {
    try {
      if (!this.migrated) await this.migrateOnce();
      await this.graph.read((tx) => tx.rows('admin/ping'));
      return { ready: true };
    } catch (error) {
      return { ready: false, reason: `Neo4j is not reachable: ${(error as Error).message}` };
    }
  }

  /** One migration run at a time, shared by every probe that comes while it runs. */
  private migrateOnce(): Promise<void> {
    this.migrating ??= this.migrate()
      .then((applied) => {
        this.migrated = true;
        if (applied.length > 0) this.logger.info({ applied }, 'schema migrations applied');
      })
      .finally(() => {
        this.migrating = null;
      });
    return this.migrating;
  }
}
