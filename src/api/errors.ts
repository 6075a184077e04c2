import { GraphQLError } from 'graphql';

/** The extensions.code values of the public contract. */
export type ErrorCode =
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'RUN_IN_PROGRESS'
  | 'HANDOFF_UNSUPPORTED'
  | 'CONFLICT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'SERVICE_UNAVAILABLE';

/**
 * Codes of refusals made before any resolver runs, all HTTP 4xx (the contract's "Apollo's own
 * parse/validation codes"): GRAPHQL_PARSE_FAILED for a document that does not parse or has more
 * tokens than the limit; GRAPHQL_VALIDATION_FAILED for one that does not fit the schema or exceeds
 * the depth, cost, alias or directive limit (then extensions.limit names it, see
 * src/server/armor.ts); BAD_USER_INPUT for variables that do not fit their types; BAD_REQUEST for an
 * HTTP request that is not a GraphQL request: blocked by CSRF prevention, malformed, or with a body
 * that cannot be read (413 when it is over the size limit).
 */
export type RequestErrorCode = 'GRAPHQL_PARSE_FAILED' | 'GRAPHQL_VALIDATION_FAILED' | 'BAD_USER_INPUT' | 'BAD_REQUEST';

/**
 * A refusal the caller can act on. Thrown anywhere below the resolvers (inside a transaction it
 * also rolls the transaction back), turned into a GraphQLError with the same code at the API edge.
 */
export class ThreadlineError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ThreadlineError';
  }
}

export const notFound = (what: string, id: string) => new ThreadlineError('NOT_FOUND', `${what} ${JSON.stringify(id)} not found.`, { id });

export const badInput = (field: string, message: string) => new ThreadlineError('BAD_USER_INPUT', `${field}: ${message}`, { field });

export function toGraphQLError(error: ThreadlineError): GraphQLError {
  return new GraphQLError(error.message, { extensions: { code: error.code, ...error.details } });
}
