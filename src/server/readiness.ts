import type { Logger } from 'pino';
import type { Graph } from '../graph/transactions.js';

export interface ReadinessState {
  ready: boolean;
  reason?: string;
}

/**
 * Ready means Neo4j answers and the schema migrations are applied. Migrations are retried on each
 * check until they succeed, so a service started while Neo4j was down becomes ready by itself.
 */
export class Readiness {
  private migrated = false;

  constructor(
    private readonly graph: Graph,
    private readonly migrate: () => Promise<string[]>,
    private readonly logger: Logger,
  ) {}

  async check(): Promise<ReadinessState> {
    try {
      if (!this.migrated) {
        const applied = await this.migrate();
        this.migrated = true;
        if (applied.length > 0) this.logger.info({ applied }, 'schema migrations applied');
      }
      await this.graph.read((tx) => tx.rows('admin/ping'));
      return { ready: true };
    } catch (error) {
      return { ready: false, reason: `Neo4j is not reachable: ${(error as Error).message}` };
    }
  }
}
