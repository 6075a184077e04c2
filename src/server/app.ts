// The HTTP service: GraphQL at /graphql (subscriptions over WebSocket there too), MCP at /mcp, /healthz and /readyz,
// on one Node http server.
import { createMetrics, type Metrics } from './metrics.js';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, type BaseContext } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import { makeExecutableSchema } from '@graphql-tools/schema';
import express, { type ErrorRequestHandler, type NextFunction, type Request, type Response } from 'express';
import type { GraphQLFormattedError } from 'graphql';
import type { Driver } from 'neo4j-driver';
import type { Logger } from 'pino';
import type { AnswerErrorCode } from '../api/errors.js';
import { present, ThreadlineError } from '../domain/errors.js';
import type { RequestContext } from '../api/context.js';
import { bookmarkAnswers, bookmarkHeaderLimit, bookmarksOf } from './bookmarks.js';
import { AnswerBudget } from '../api/answerBudget.js';
import { lowercaseEnumResolvers } from '../api/enums.js';
import { createLoaders } from '../api/loaders.js';
import { mergedResolvers } from '../api/resolvers/index.js';
import { loadTypeDefs } from '../api/schema.js';
import { SINGLE_TENANT, type Config } from '../config.js';
import { applyMigrations } from '../graph/migrations.js';
import { Graph, type BackgroundRunner, type StatementObserver } from '../graph/transactions.js';
import { ChangeFeed } from '../operations/changeFeed.js';
import type { OperationContext } from '../operations/context.js';
import { sweepExpiredHandoffs } from '../operations/handoffSources.js';
import { createChatCompletionsSummarizer } from '../summarizers/chatCompletions.js';
import { answerSizeLimit } from './answerLimit.js';
import { systemClock, type Clock } from './clock.js';
import { parseOptions, queryLimitRules, withoutSuggestions } from './armor.js';
import { createTenantResolver } from './auth.js';
import { guardConnectionSlots } from './connectionSlots.js';
import { hostGuard } from './hosts.js';
import { Readiness } from './readiness.js';
import { startSubscriptionServer, type SubscriptionServer } from './subscriptions.js';
import { createTracing, type Tracing } from './tracing.js';
import { mcpHandler, mcpMethodNotAllowed } from './mcp.js';
import { viewerRouter } from './viewer.js';

export interface RunningService {
  url: string;
  port: number;
  readiness: Readiness;
  close(): Promise<void>;
}

const BODY_LIMIT = '1mb';
const MAX_ERROR_MESSAGE = 1_000;
const NOT_MIGRATED = 'The service is starting: its database schema is not in place yet; retry later.';

export async function startService(
  config: Config,
  driver: Driver,
  logger: Logger,
  clock: Clock = systemClock,
): Promise<RunningService> {
  const metrics = config.metrics.enabled ? createMetrics() : null;
  const tracing = config.tracing ? createTracing(config.tracing, config.neo4j.database) : null;
  const unobserved = new Graph(driver, config.neo4j.database, '', config.limits.graphDeadlineMs);
  const rootGraph = metrics ? unobserved.observedBy(metrics.transactions) : unobserved;
  const readiness = new Readiness(
    rootGraph,
    () => applyMigrations(rootGraph.withoutDeadline(), (message) => logger.info(message)),
    logger,
    config.limits.readinessTimeoutMs,
  );
  await readiness.start();

  const app = express();
  // Slow or idle clients cannot hold connections for long, nor open without bound (Node's defaults
  // allow a request body to trickle in for 300 s).
  const httpServer = createServer(
    {
      requestTimeout: config.limits.requestTimeoutMs,
      headersTimeout: config.limits.headersTimeoutMs,
      keepAliveTimeout: config.limits.keepAliveTimeoutMs,
    },
    app,
  );
  const slots = guardConnectionSlots(httpServer, config.limits.maxConnections);
  // One schema for HTTP and WebSocket.
  const schema = makeExecutableSchema({
    typeDefs: loadTypeDefs(),
    resolvers: { ...lowercaseEnumResolvers(loadTypeDefs()), ...mergedResolvers() },
  });
  const apollo = new ApolloServer<RequestContext>({
    schema,
    nodeEnv: config.production ? 'production' : 'development',
    introspection: config.introspection,
    includeStacktraceInErrorResponses: !config.production,
    csrfPrevention: true,
    validationRules: queryLimitRules(),
    parseOptions,
    // Apollo's own log lines go through pino too, with its redaction.
    logger,
    // main.ts owns shutdown: it stops the HTTP server, then the driver, then the local Neo4j.
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => formatError(formatted, error, logger, !config.introspection),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      // Before the metrics: their outcome is read from the answer this plugin may replace.
      answerSizeLimit(logger),
      bookmarkAnswers(),
      ...(metrics ? [metrics.graphqlPlugin] : []),
      ...(tracing ? [tracing.plugin] : []),
      // A browser opening /graphql gets Apollo Sandbox, which the browser loads from Apollo's CDN (so it
      // needs the internet; offline the page says so), exactly when introspection is on: Sandbox needs
      // the schema. In production, where introspection is off, there is no landing page at all.
      config.introspection ? ApolloServerPluginLandingPageLocalDefault() : ApolloServerPluginLandingPageDisabled(),
    ],
  });
  await apollo.start();

  const resolveTenant = createTenantResolver(config.apiKeys);
  const guard = hostGuard(config.publicHosts);
  const providers = new Map(config.providers.map((provider) => [provider.id, provider]));
  const summaries = {
    policy: config.summaries,
    summarizers: new Map(
      Object.entries(config.summaries.summarizers).map(([name, settings]) => [
        name,
        createChatCompletionsSummarizer({ name, ...settings }),
      ]),
    ),
  };
  const operationsOn = (graph: Graph): OperationContext => ({ graph, providers, planner: config.planner, summaries });
  const operationsFor = (tenant: string, statements?: StatementObserver, after?: string[]): OperationContext => {
    const tenantGraph = after ? rootGraph.forTenant(tenant).causallyAfter(after) : rootGraph.forTenant(tenant);
    return operationsOn(statements ? tenantGraph.withStatementsObservedBy(statements) : tenantGraph);
  };
  const inBackground: BackgroundRunner = tracing ? tracing.background(rootGraph) : (_name, work) => work(rootGraph);
  const stopSweeper = startPendingHandoffSweeper(
    inBackground,
    operationsOn,
    servedTenants(config),
    config.summaries.pendingTimeoutSeconds,
    clock,
    logger,
    metrics,
  );
  const changes = new ChangeFeed(inBackground, {
    pollIntervalMs: config.subscriptions.pollIntervalMs,
    pollFailed: (error) => logger.warn({ err: error }, 'change feed poll failed; trying again at the next interval'),
  });
  /** `after`: the bookmarks an HTTP request sent back (bookmarks.ts); its mutations answer theirs. */
  const contextFor = (
    tenant: string,
    statements?: StatementObserver,
    after?: string[],
    limitBytes = config.limits.maxResponseBytes,
  ): RequestContext => {
    const operations = operationsFor(tenant, statements, after);
    const budget = new AnswerBudget(limitBytes);
    return { tenant, operations, loaders: createLoaders(operations.graph, budget), logger, budget, changes };
  };
  const subscriptions = startSubscriptionServer({
    httpServer,
    schema,
    limits: config.subscriptions,
    introspection: config.introspection,
    resolveTenant,
    contextFor: (tenant, limitBytes) => contextFor(tenant, undefined, undefined, limitBytes),
    subscribersOf: (tenant, threadId) => changes.subscribersOf(tenant, threadId),
    formatError: (formatted, error) => formatError(formatted, error, logger, !config.introspection),
    authenticated: (socket) => slots.prove(socket),
    admit: (request) =>
      guard(request) !== null
        ? { status: 403, reason: 'Forbidden' }
        : readiness.migrated
          ? null
          : { status: 503, reason: 'Service Unavailable' },
    logger,
  });
  metrics?.observeSubscriptions(() => ({
    connections: subscriptions.connections(),
    subscriptions: changes.subscriberCount(),
  }));

  // Probes ask by address, whatever the names: they read no data.
  app.use((request, response, next) => {
    const refusal = request.path === '/healthz' || request.path === '/readyz' ? null : guard(request);
    if (refusal === null) return next();
    logger.warn({ ip: request.ip }, 'refused a request for a foreign host or from a foreign origin');
    refuse(response, 403, 'FORBIDDEN', refusal);
  });
  app.get('/healthz', (_request, response) => {
    response.json({ status: 'ok' });
  });
  app.use(viewerRouter());
  app.get('/readyz', async (_request, response) => {
    const state = await readiness.check();
    response.status(state.ready ? 200 : 503).json(state);
  });
  // No GraphQL before the schema is in place: a write without its constraints could duplicate a thread.
  app.use('/graphql', (_request, response, next) => {
    if (readiness.migrated) return next();
    refuse(response, 503, 'SERVICE_UNAVAILABLE', NOT_MIGRATED);
  });
  if (metrics) {
    // The metrics token is checked like an API key (for a tenant of its own), and only opens /metrics.
    const reader =
      config.metrics.token === null ? null : createTenantResolver(new Map([[config.metrics.token, 'metrics']]));
    app.get('/metrics', async (request, response) => {
      if (reader !== null && reader(request.headers.authorization) === null) {
        return refuse(response, 401, 'UNAUTHENTICATED', 'The metrics token is required.');
      }
      response.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  }
  const requireTenant = (request: Request, response: Response, next: NextFunction) => {
    if (resolveTenant(request.headers.authorization) !== null) return next();
    // Who knocked, never with what: the presented token stays out of the log.
    logger.warn(
      { ip: request.ip, hasAuthorization: request.headers.authorization !== undefined },
      'refused a request without a valid bearer token',
    );
    refuse(response, 401, 'UNAUTHENTICATED', 'A valid bearer token is required.');
  };
  // The MCP tools answer through /graphql on this very address, with the caller's token.
  let graphqlUrl = '';
  app.post(
    '/mcp',
    requireTenant,
    express.json({ limit: BODY_LIMIT }),
    mcpHandler(() => graphqlUrl),
  );
  app.all('/mcp', mcpMethodNotAllowed);
  app.use(
    '/graphql',
    requireTenant,
    bookmarkHeaderLimit,
    express.json({ limit: BODY_LIMIT }),
    expressMiddleware(apollo, {
      // eslint-disable-next-line @typescript-eslint/require-await -- async so a throw rejects, as Apollo expects
      context: async ({ req }): Promise<RequestContext & BaseContext> => {
        const tenant = present(resolveTenant(req.headers.authorization), 'tenant requireTenant resolved');
        const after = bookmarksOf(req);
        return tracing
          ? tracing.traced((statements) => contextFor(tenant, statements, after))
          : contextFor(tenant, undefined, after);
      },
    }),
  );
  app.use('/graphql', answerHttpError(logger));

  httpServer.listen(config.port, config.host);
  await once(httpServer, 'listening');
  const { port } = httpServer.address() as AddressInfo;
  graphqlUrl = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}/graphql`;
  return {
    url: graphqlUrl,
    port,
    readiness,
    close: () => {
      stopSweeper();
      readiness.stop();
      return closeAll(apollo, httpServer, subscriptions, changes, tracing);
    },
  };
}

function refuse(response: Response, status: number, code: AnswerErrorCode, message: string): void {
  response.status(status).json({ errors: [{ message, extensions: { code } }] });
}

/**
 * Errors before GraphQL (a body express.json cannot read: too large, not JSON, a bad charset) get a
 * GraphQL-shaped answer with their HTTP status, instead of express's HTML page with a stack trace.
 */
function answerHttpError(logger: Logger): ErrorRequestHandler {
  return (error: { status?: number; type?: string }, _request, response, _next) => {
    if (error.status === undefined || error.status < 400 || error.status >= 500) {
      logger.error({ err: error }, 'unexpected error before GraphQL');
      return refuse(response, 500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
    }
    const message =
      error.type === 'entity.too.large'
        ? `The request body is larger than the ${BODY_LIMIT} limit.`
        : error.type === 'entity.parse.failed'
          ? 'The request body is not valid JSON.'
          : 'The request body cannot be read.';
    refuse(response, error.status, 'BAD_REQUEST', message);
  };
}

/** The tenants this instance answers for: its API keys' tenants, or the single tenant without keys. */
function servedTenants(config: Config): string[] {
  return config.apiKeys.size > 0 ? [...new Set(config.apiKeys.values())] : [SINGLE_TENANT];
}

/**
 * PENDING handoffs nobody submitted in time fail and are replaced by local summaries. An instance
 * sweeps the tenants it serves: a database may hold tenants an instance has no key for, and their
 * pending handoffs are theirs to expire.
 */
function startPendingHandoffSweeper(
  inBackground: BackgroundRunner,
  operationsOn: (graph: Graph) => OperationContext,
  tenants: readonly string[],
  timeoutSeconds: number,
  clock: Clock,
  logger: Logger,
  metrics: Metrics | null,
): () => void {
  let sweeping = false;
  return clock.every(Math.min(30_000, (timeoutSeconds * 1000) / 2), async () => {
    if (sweeping) return;
    sweeping = true;
    await inBackground(
      'sweep pending handoffs',
      // Each tenant's work goes through the sweep's graph, so a traced sweep holds its statements.
      (rootGraph) =>
        sweepExpiredHandoffs(rootGraph, (tenant) => operationsOn(rootGraph.forTenant(tenant)), tenants, clock.now()),
      (replaced) => ({ 'threadline.handoffs_replaced': replaced }),
    )
      .then((count) => {
        metrics?.sweepEnded('ok', count);
        if (count > 0) logger.info({ count }, 'expired pending handoffs replaced by local summaries');
      })
      .catch((error: unknown) => {
        metrics?.sweepEnded('failed', 0);
        logger.warn({ err: error }, 'pending handoff sweep failed');
      })
      .finally(() => {
        sweeping = false;
      });
  });
}

/** WebSocket clients first, with a close frame, before the HTTP drain ends every remaining socket. */
async function closeAll(
  apollo: ApolloServer<RequestContext>,
  httpServer: Server,
  subscriptions: SubscriptionServer,
  changes: ChangeFeed,
  tracing: Tracing | null,
): Promise<void> {
  await subscriptions.close();
  await changes.close();
  await apollo.stop();
  // After the last request, so its spans are exported too.
  await tracing?.shutdown();
  if (httpServer.listening) await new Promise<void>((resolve) => httpServer.close(() => resolve()));
}

function bounded(text: string): string {
  return text.length <= MAX_ERROR_MESSAGE ? text : `${text.slice(0, MAX_ERROR_MESSAGE - 1).toWellFormed()}…`;
}

/**
 * Refusals keep their contract code; anything unexpected is logged and shown without internals.
 * With introspection off, "Did you mean ...?" hints go too: they would reveal the hidden schema.
 */
function formatError(
  formatted: GraphQLFormattedError,
  error: unknown,
  logger: Logger,
  hideSuggestions: boolean,
): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  let shown = formatted;
  if (original instanceof ThreadlineError) {
    shown = {
      message: original.message,
      path: formatted.path,
      locations: formatted.locations,
      extensions: { code: original.code, ...original.details },
    };
  } else if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
    logger.error({ err: original, path: formatted.path }, 'unexpected error in a resolver');
    shown = {
      message: 'Internal server error',
      path: formatted.path,
      locations: formatted.locations,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    };
  } else if (hideSuggestions) {
    shown = { ...formatted, message: withoutSuggestions(formatted.message) };
  }
  // Messages may quote the client's text (an unknown operation's name): an answer does not grow with it.
  // Outside production the stack trace repeats the message.
  const stacktrace = shown.extensions?.stacktrace;
  if (shown.message.length > MAX_ERROR_MESSAGE || Array.isArray(stacktrace))
    shown = {
      ...shown,
      message: bounded(shown.message),
      ...(Array.isArray(stacktrace) && {
        extensions: { ...shown.extensions, stacktrace: stacktrace.map((line) => bounded(String(line))) },
      }),
    };
  logger.debug({ error: { message: shown.message, path: shown.path, code: shown.extensions?.code } }, 'GraphQL error');
  return shown;
}
