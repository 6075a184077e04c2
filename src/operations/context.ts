import { randomUUID } from 'node:crypto';
import type { PlannerSettings } from '../domain/planner.js';
import type { ProviderDefinition } from '../domain/providers.js';
import type { SummaryPolicy } from '../domain/summaryPolicy.js';
import type { Summarizer } from '../summarizers/chatCompletions.js';
import type { Graph } from '../graph/transactions.js';

/** What every domain operation needs: the tenant's graph, the providers, the planner's settings. */
export interface OperationContext {
  graph: Graph;
  providers: ReadonlyMap<string, ProviderDefinition>;
  planner: PlannerSettings;
  summaries: { policy: SummaryPolicy; summarizers: ReadonlyMap<string, Summarizer> };
}

export type IdKind = 'run' | 'pt' | 'ho' | 'tr' | 'cp' | 'th';

/** Ids the service generates: a readable prefix and a random UUID, unique across tenants. */
export function newId(kind: IdKind): string {
  return `${kind}_${randomUUID()}`;
}
