import type { Logger } from 'pino';
import type { ChangeFeed } from '../operations/changeFeed.js';
import type { OperationContext } from '../operations/context.js';
import type { AnswerBudget } from './answerBudget.js';
import type { Loaders } from './loaders.js';

/** What every resolver receives: the caller's tenant, its scoped operations and batched readers, and the answer's size budget. */
export interface RequestContext {
  tenant: string;
  operations: OperationContext;
  loaders: Loaders;
  logger: Logger;
  budget: AnswerBudget;
  /** This instance's feed of thread changes, for subscriptions. */
  changes: ChangeFeed;
}
