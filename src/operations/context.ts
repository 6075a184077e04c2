import { randomUUID } from 'node:crypto';
import type { PlannerSettings } from '../domain/planner.js';
import type { ProviderDefinition } from '../domain/providers.js';
import type { Graph } from '../graph/transactions.js';

/** What every domain operation needs: the tenant's graph, the providers, the planner's settings. */
export interface OperationContext {
  graph: Graph;
  providers: ReadonlyMap<string, ProviderDefinition>;
  planner: PlannerSettings;
}

export type IdKind = 'run' | 'pt' | 'ho' | 'tr' | 'cp' | 'th';

/** Ids the service generates: a readable prefix and a random UUID, unique across tenants. */
export function newId(kind: IdKind): string {
  return `${kind}_${randomUUID()}`;
}
