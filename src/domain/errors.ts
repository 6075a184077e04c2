// Refusals the caller can act on, with the extensions.code values of the public contract. They are
// domain facts (a thread not found, a run in progress), so every layer may throw them; the API edge
// turns them into GraphQL errors with the same code.
/** The extensions.code values of the public contract. */
export type ErrorCode =
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'RUN_IN_PROGRESS'
  | 'THREAD_DELETED'
  | 'HANDOFF_UNSUPPORTED'
  | 'CONFLICT'
  | 'STALE_DISPATCH'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'SERVICE_UNAVAILABLE'
  | 'RESPONSE_TOO_LARGE';

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

/** Ids are echoed in messages and extensions, but never more than this much of one: an answer does not grow with hostile input. */
const ECHOED_ID_CHARS = 200;

/** `id` as an answer may echo it: whole, or its first ECHOED_ID_CHARS characters and its length. */
export const echoedId = (id: string) =>
  id.length > ECHOED_ID_CHARS ? `${id.slice(0, ECHOED_ID_CHARS)}… (${id.length} characters)` : id;

export const notFound = (what: string, id: string) => {
  const shown = echoedId(id);
  return new ThreadlineError('NOT_FOUND', `${what} ${JSON.stringify(shown)} not found.`, { id: shown });
};

/**
 * One run at a time per thread: starting, importing, rolling back, deleting and reporting a subagent
 * back all wait until the running run has ended, since each would change what that run ends into.
 */
export function assertNoRunningRun(thread: { id: string; runningRunId: string | null }): void {
  if (thread.runningRunId !== null)
    throw new ThreadlineError(
      'RUN_IN_PROGRESS',
      `Thread ${JSON.stringify(echoedId(thread.id))} has a running run; complete or fail it first.`,
      { runId: thread.runningRunId },
    );
}

/** Every operation that would change a deleted thread, or plan a run on it, is refused with this. */
export const threadDeleted = (id: string) =>
  new ThreadlineError(
    'THREAD_DELETED',
    `Thread ${JSON.stringify(id.slice(0, ECHOED_ID_CHARS))} was deleted; it can be read, not changed.`,
    { id: id.slice(0, ECHOED_ID_CHARS) },
  );

export const badInput = (field: string, message: string) =>
  new ThreadlineError('BAD_USER_INPUT', `${field}: ${message}`, { field });

/** An answer that would pass the service's size limit: refused whole, before or while it is built. */
export const responseTooLarge = (limitBytes: number) =>
  new ThreadlineError(
    'RESPONSE_TOO_LARGE',
    `The answer would be larger than the service's limit of ${limitBytes} bytes: ask for fewer items (first, last), shorter texts (maxChars) or fewer fields.`,
    { limitBytes },
  );

/**
 * Something the code holds to exist was not there: a statement that always answers one row answered
 * none, or a record read back under the lock that wrote it is gone. Not the caller's to act on (no
 * extensions.code): a bug, or a change no lock covers, reported as an internal error that names it.
 */
export class MissingRecordError extends Error {
  constructor(readonly what: string) {
    super(`Missing ${what}`);
    this.name = 'MissingRecordError';
  }
}

/** `value`, which the caller holds to exist; MissingRecordError naming `what` when it does not. */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new MissingRecordError(what);
  return value;
}
