// GraphQL subscriptions over WebSocket (graphql-ws's graphql-transport-ws protocol) at /graphql, on
// the HTTP server that serves the rest: authenticated like every request, bounded in connections
// and in subscriptions per connection, and checked by the same document limits as HTTP requests.
// Only subscriptions go over the socket; queries and mutations stay on HTTP, with its limits.
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  OperationTypeNode,
  createSourceEventStream,
  execute,
  getOperationAST,
  getVariableValues,
  parse,
  print,
  specifiedRules,
  validate,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { RequestContext } from '../api/context.js';
import type { AnswerErrorCode } from '../api/errors.js';
import type { ThreadChangeEvent } from '../operations/changeFeed.js';
import { parseOptions, queryLimitRules } from './armor.js';
import { FanOutBudget, type FanOutLimits } from './fanOutBudget.js';
import { present } from '../domain/errors.js';

export interface SubscriptionLimits extends FanOutLimits {
  /** Open WebSocket connections this instance accepts; the next upgrade is answered 503. */
  maxConnections: number;
  /** Subscriptions one connection may hold at once; the next is refused with BAD_REQUEST. */
  maxPerConnection: number;
}

export interface SubscriptionServerOptions {
  httpServer: Server;
  schema: GraphQLSchema;
  limits: SubscriptionLimits;
  introspection: boolean;
  resolveTenant(authorization: string | undefined): string | null;
  /**
   * A fresh context: one per subscription, and one per event, so no event reads another's cached data;
   * an event's reads stop at `limitBytes` of long text.
   */
  contextFor(tenant: string, limitBytes?: number): RequestContext;
  /** This instance's subscribers of one thread of one tenant, among whom a change's budget is shared. */
  subscribersOf(tenant: string, threadId: string): number;
  formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError;
  /** The connection authenticated its connection_init: its socket is no stranger. */
  authenticated(socket: Socket): void;
  /** Why an upgrade is refused before any protocol (the HTTP status and its text); null admits it. */
  admit(request: IncomingMessage): { status: number; reason: string } | null;
  logger: Logger;
}

export interface SubscriptionServer {
  /** Open WebSocket connections. */
  connections(): number;
  /** Closes every socket with 1001 (Going away), waits briefly for them, and stops accepting more. */
  close(): Promise<void>;
}

/** How long close() waits for clients to answer the close handshake before it cuts their sockets. */
const CLOSE_GRACE_MS = 1_000;
const MAX_MESSAGE_BYTES = 64 * 1024;
/** How long a change's result is shared with subscribers that ask for the same selection. */
const SHARED_RESULT_MS = 1_000;
/** WebSocket's own close code for a server that goes down. */
const GOING_AWAY = 1001;

export function startSubscriptionServer(options: SubscriptionServerOptions): SubscriptionServer {
  const { httpServer, schema, limits, logger } = options;
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  // Connections not yet authenticated, oldest first: the first to go when the cap is reached.
  const uninitialised = new Set<WebSocket>();
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://upgrade').pathname !== '/graphql')
      return refuseUpgrade(socket, 404, 'Not Found');
    const refusal = options.admit(request);
    if (refusal) return refuseUpgrade(socket, refusal.status, refusal.reason);
    if (sockets.clients.size >= limits.maxConnections) {
      // The oldest connection that has not authenticated its connection_init makes room, if any.
      const oldest = uninitialised.keys().next();
      if (oldest.done) {
        logger.warn({ limit: limits.maxConnections }, 'refused a WebSocket connection over the limit');
        return refuseUpgrade(socket, 503, 'Service Unavailable');
      }
      uninitialised.delete(oldest.value);
      oldest.value.terminate();
    }
    sockets.handleUpgrade(request, socket, head, (client) => {
      uninitialised.add(client);
      client.once('close', () => uninitialised.delete(client));
      sockets.emit('connection', client, request);
    });
  };
  httpServer.on('upgrade', onUpgrade);
  const rules = [
    ...specifiedRules,
    ...queryLimitRules(),
    ...(options.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
  ];
  // A change is resolved once per tenant and selection: subscribers that asked the same, get the same.
  const resolving = new Map<string, Promise<Resolved>>();
  const resolvedOnce = (key: string, run: () => Promise<Resolved>) => {
    let result = resolving.get(key);
    if (result === undefined) {
      result = run();
      resolving.set(key, result);
      // Subscribers of one change get it within one poll; later ones resolve it anew.
      const forget = () => setTimeout(() => resolving.delete(key), SHARED_RESULT_MS).unref();
      result.then(forget, forget);
    }
    return result;
  };
  const fanOut = new FanOutBudget(limits);
  const formatted = (errors: readonly GraphQLError[]) =>
    errors.map((error) => options.formatError(error.toJSON(), error));

  useServer<Record<string, unknown> | undefined, { tenant: string }>(
    {
      onConnect(ctx) {
        const fromPayload = ctx.connectionParams?.authorization;
        const authorization = typeof fromPayload === 'string' ? fromPayload : ctx.extra.request.headers.authorization;
        const tenant = options.resolveTenant(authorization);
        if (tenant === null) {
          // Who knocked, never with what: the presented token stays out of the log.
          logger.warn(
            { ip: ctx.extra.request.socket.remoteAddress, hasAuthorization: authorization !== undefined },
            'refused a WebSocket connection without a valid bearer token',
          );
          return false;
        }
        ctx.extra.tenant = tenant;
        uninitialised.delete(ctx.extra.socket);
        options.authenticated(ctx.extra.request.socket);
        return true;
      },
      onSubscribe(ctx, _id, payload): ExecutionArgs | readonly GraphQLError[] {
        // The subscription being asked for is already counted.
        if (Object.keys(ctx.subscriptions).length > limits.maxPerConnection) {
          return [
            refusal(
              'BAD_REQUEST',
              `A connection holds at most ${limits.maxPerConnection} subscriptions; complete one first.`,
              { limit: limits.maxPerConnection },
            ),
          ];
        }
        // The codes Apollo gives the same refusals over HTTP.
        let document;
        try {
          document = parse(payload.query, parseOptions);
        } catch (error) {
          return [
            coded(
              error instanceof GraphQLError ? error : new GraphQLError('The document cannot be parsed.'),
              'GRAPHQL_PARSE_FAILED',
            ),
          ];
        }
        const invalid = validate(schema, document, rules);
        if (invalid.length > 0) return invalid.map((error) => coded(error, 'GRAPHQL_VALIDATION_FAILED'));
        const operation = getOperationAST(document, payload.operationName);
        if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) {
          return [
            refusal(
              'BAD_REQUEST',
              'Only subscriptions go over WebSocket; send queries and mutations to POST /graphql.',
            ),
          ];
        }
        const variables = getVariableValues(schema, operation.variableDefinitions ?? [], payload.variables ?? {});
        if (variables.errors) return variables.errors.map((error) => coded(error, 'BAD_USER_INPUT'));
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: options.contextFor(present(ctx.extra.tenant, 'tenant of the connection')),
        };
      },
      subscribe: async (args) => {
        const events = await createSourceEventStream(args);
        if (!(Symbol.asyncIterator in events)) return events;
        const tenant = (args.contextValue as RequestContext).tenant;
        const selection = JSON.stringify([print(args.document), args.operationName ?? null, args.variableValues ?? {}]);
        // The answer and its bytes; reading stops past the subscriber's share of the change's budget.
        const resolve = (event: ThreadChangeEvent, subscribers: number) =>
          resolvedOnce(`${tenant}\n${JSON.stringify(event)}\n${selection}`, async () => {
            const contextValue = options.contextFor(tenant, fanOut.share(subscribers));
            const result = await execute({ ...args, rootValue: event, contextValue });
            if (contextValue.budget.exceeded) return { result, bytes: null };
            return { result, bytes: Buffer.byteLength(JSON.stringify(result)) };
          });
        // Subscription.threadChanged, the one subscription field, yields the feed's change events.
        const changes = events[Symbol.asyncIterator]() as AsyncIterator<ThreadChangeEvent>;
        return mapEvents(changes, async (event) => {
          const subscribers = options.subscribersOf(tenant, event.threadId);
          const whole = await resolve(event, subscribers);
          const withheld =
            whole.bytes === null
              ? fanOut.overShare(subscribers)
              : fanOut.admit(`${tenant}\n${event.threadId}\n${event.sequence}`, whole.bytes, subscribers);
          if (withheld === null) return whole.result;
          return (await resolve({ ...event, resync: true, withheld }, subscribers)).result;
        });
      },
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: formatted(result.errors) } : undefined,
      onError: (_ctx, _id, _payload, errors) => formatted(errors),
    },
    sockets,
  );

  return {
    connections: () => sockets.clients.size,
    async close() {
      httpServer.off('upgrade', onUpgrade);
      const clients = [...sockets.clients];
      const closed = Promise.all(
        clients.map(
          (client) =>
            new Promise((resolve) =>
              client.readyState === client.CLOSED ? resolve(null) : client.once('close', resolve),
            ),
        ),
      );
      for (const client of clients) client.close(GOING_AWAY, 'The service is stopping');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
      clearTimeout(timer);
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}

/** One event's answer, and its bytes as JSON; null when reading it passed its budget. */
interface Resolved {
  result: ExecutionResult;
  bytes: number | null;
}

function refusal(code: AnswerErrorCode, message: string, details: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...details } });
}

function coded(error: GraphQLError, code: AnswerErrorCode): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { ...error.extensions, code },
  });
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * Each source event executed on its own; returning ends the source at once, even while it waits for
 * its next event (an async generator would wait for that event first).
 */
function mapEvents<T>(
  source: AsyncIterator<T>,
  map: (event: T) => Promise<ExecutionResult>,
): AsyncIterableIterator<ExecutionResult> {
  const end = async (): Promise<IteratorResult<ExecutionResult>> => {
    await source.return?.();
    return { value: undefined, done: true };
  };
  return {
    async next() {
      const event = await source.next();
      return event.done ? { value: undefined, done: true } : { value: await map(event.value), done: false };
    },
    return: end,
    async throw(error: unknown) {
      await end();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
