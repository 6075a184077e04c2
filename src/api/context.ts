import type { Logger } from 'pino';
import type { OperationContext } from '../operations/context.js';
import type { Loaders } from './loaders.js';

/** What every resolver receives: the caller's tenant, its scoped operations and batched readers. */
export interface RequestContext {
  tenant: string;
  operations: OperationContext;
  loaders: Loaders;
  logger: Logger;
}
