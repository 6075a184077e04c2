// A typed client of Threadline's GraphQL API over HTTP. It depends on nothing but `fetch`, so a
// product UI, an orchestrator or this project's own tools can use it as it is.
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';

export interface ThreadlineClientOptions {
  /** The service's base URL (`http://127.0.0.1:4000`) or its endpoint (`.../graphql`): both mean the same. */
  url: string;
  /** Sent as `Authorization: Bearer <apiKey>`, when the service runs with THREADLINE_API_KEYS. */
  apiKey?: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /**
   * Read at least the state this bookmark names (a mutation's `extensions.bookmark`, e.g. another
   * client's bookmark()), on whichever instance answers: sent as the `threadline-bookmark` header.
   */
  bookmark?: string;
  /** Send back the newest bookmark this client was answered, so it reads its own writes on any instance. */
  causal?: boolean;
}

/** The header a request sends a bookmark back in (docs/instances.md). */
export const BOOKMARK_HEADER = 'threadline-bookmark';

/** One error of a GraphQL answer, as the service sends it. */
export interface GraphQLErrorBody {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

/** A GraphQL answer as it came: data and errors side by side, and the HTTP status. */
export interface ExecutionResult<TResult> {
  status: number;
  data: TResult | null;
  errors: GraphQLErrorBody[];
}

/** A generated document (`client/generated/operations.ts`): its text, typed with its answer and variables. */
export type TypedDocument<TResult, TVariables> = DocumentTypeDecoration<TResult, TVariables> & { toString(): string };

type VariablesArgument<TVariables> =
  Record<string, never> extends TVariables ? [variables?: TVariables] : [variables: TVariables];

/**
 * Any refusal: the service's GraphQL errors (code is the first one's `extensions.code`, e.g.
 * STALE_DISPATCH, NOT_FOUND, UNAUTHENTICATED), an answer that is not GraphQL at all (code
 * BAD_RESPONSE: a proxy's error page, a wrong URL), or no answer (status 0, code the network's:
 * ECONNREFUSED when nothing listens, ECONNRESET, ENOTFOUND..., else NETWORK_ERROR; the cause kept).
 */
export class ThreadlineClientError extends Error {
  readonly code: string;
  /** The first error's extensions (details such as `limit` or `limitBytes`); empty for BAD_RESPONSE. */
  readonly extensions: Readonly<Record<string, unknown>>;

  constructor(
    readonly errors: readonly GraphQLErrorBody[],
    readonly status: number,
    options?: ErrorOptions,
  ) {
    const [first] = errors;
    const code = first?.extensions?.code ?? 'BAD_RESPONSE';
    super(`${code}: ${errors.map((error) => error.message).join('; ')}`, options);
    this.name = 'ThreadlineClientError';
    this.code = code;
    this.extensions = first?.extensions ?? {};
  }
}

export interface ThreadlineClient {
  /** The GraphQL endpoint requests go to. */
  readonly endpoint: string;
  /** Runs one operation and returns its data; any error rejects with ThreadlineClientError. */
  request<TResult, TVariables>(
    document: TypedDocument<TResult, TVariables>,
    ...variables: VariablesArgument<TVariables>
  ): Promise<TResult>;
  /**
   * Runs one document and answers what came back, errors included, without throwing on them: for
   * callers that compare refusals (the model-based tests). Only an answer that is not GraphQL rejects.
   */
  execute<TResult = unknown, TVariables = Record<string, unknown>>(
    document: TypedDocument<TResult, TVariables> | string,
    variables?: TVariables,
  ): Promise<ExecutionResult<TResult>>;
  /** The bookmark this client sends: the one it was given, or with `causal` the newest it was answered; null before any. */
  bookmark(): string | null;
}

/** The GraphQL endpoint of a service URL: its base URL, or the endpoint itself (ending in /graphql). */
export function graphqlEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return trimmed.endsWith('/graphql') ? trimmed : `${trimmed}/graphql`;
}

export function createThreadlineClient(options: ThreadlineClientOptions): ThreadlineClient {
  const endpoint = graphqlEndpoint(options.url);
  const send = options.fetch ?? fetch;
  const headers = {
    'content-type': 'application/json',
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
  };
  let bookmark = options.bookmark ?? null;

  async function execute<TResult>(
    document: { toString(): string },
    variables: unknown = {},
  ): Promise<ExecutionResult<TResult>> {
    let response: Response;
    let text: string;
    try {
      response = await send(endpoint, {
        method: 'POST',
        headers: bookmark === null ? headers : { ...headers, [BOOKMARK_HEADER]: bookmark },
        body: JSON.stringify({ query: document.toString(), variables }),
      });
      text = await response.text();
    } catch (error) {
      throw unreachable(endpoint, error);
    }
    let body: { data?: TResult | null; errors?: GraphQLErrorBody[]; extensions?: { bookmark?: unknown } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new ThreadlineClientError(
        [
          {
            message: `${endpoint} answered HTTP ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
          },
        ],
        response.status,
      );
    }
    if (typeof body !== 'object' || body === null || (body.data === undefined && !Array.isArray(body.errors))) {
      throw new ThreadlineClientError(
        [
          {
            message: `${endpoint} answered HTTP ${response.status} with JSON that is not a GraphQL answer: ${text.slice(0, 200)}`,
          },
        ],
        response.status,
      );
    }
    if (options.causal && typeof body.extensions?.bookmark === 'string') bookmark = body.extensions.bookmark;
    return { status: response.status, data: body.data ?? null, errors: body.errors ?? [] };
  }

  return {
    endpoint,
    execute,
    bookmark: () => bookmark,
    async request<TResult, TVariables>(
      document: TypedDocument<TResult, TVariables>,
      ...[variables]: VariablesArgument<TVariables>
    ): Promise<TResult> {
      const result = await execute<TResult>(document, variables);
      if (result.errors.length) throw new ThreadlineClientError(result.errors, result.status);
      if (result.data === null)
        throw new ThreadlineClientError(
          [{ message: `${endpoint} answered HTTP ${result.status} without data` }],
          result.status,
        );
      return result.data;
    },
  };
}

/** A request that got no answer: the network's own code (fetch puts it on the cause), as a client error. */
function unreachable(endpoint: string, error: unknown): ThreadlineClientError {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : 'NETWORK_ERROR';
  const reason = typeof cause?.message === 'string' ? cause.message : (error as Error).message;
  return new ThreadlineClientError([{ message: `${endpoint} did not answer: ${reason}`, extensions: { code } }], 0, {
    cause: error,
  });
}
