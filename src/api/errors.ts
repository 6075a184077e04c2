import type { ErrorCode } from '../domain/errors.js';

/**
 * Codes of refusals made before any resolver runs, all HTTP 4xx (the contract's "Apollo's own
 * parse/validation codes"): GRAPHQL_PARSE_FAILED for a document that does not parse or has more
 * tokens than the limit; GRAPHQL_VALIDATION_FAILED for one that does not fit the schema or exceeds
 * the depth, cost, alias or directive limit (then extensions.limit names it, see
 * src/server/armor.ts); BAD_USER_INPUT for variables that do not fit their types; BAD_REQUEST for an
 * HTTP request that is not a GraphQL request: blocked by CSRF prevention, malformed, or with a body
 * that cannot be read (413 when it is over the size limit), and over WebSocket for a query or mutation
 * (only subscriptions go there) or a subscription over the per-connection cap.
 */
export type RequestErrorCode = 'GRAPHQL_PARSE_FAILED' | 'GRAPHQL_VALIDATION_FAILED' | 'BAD_USER_INPUT' | 'BAD_REQUEST';

/** Every code an error answer can carry. */
export type AnswerErrorCode = ErrorCode | RequestErrorCode | 'INTERNAL_SERVER_ERROR';
