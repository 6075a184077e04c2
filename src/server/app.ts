// The HTTP service: GraphQL at /graphql, /healthz and /readyz, on one Node http server.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, type BaseContext } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import type { GraphQLFormattedError } from 'graphql';
import type { Driver } from 'neo4j-driver';
import type { Logger } from 'pino';
import { ThreadlineError } from '../api/errors.js';
import type { RequestContext } from '../api/context.js';
import { lowercaseEnumResolvers } from '../api/enums.js';
import { createLoaders } from '../api/loaders.js';
import { mergedResolvers } from '../api/resolvers/index.js';
import { loadTypeDefs } from '../api/schema.js';
import type { Config } from '../config.js';
import { applyMigrations } from '../graph/migrations.js';
import { Graph } from '../graph/transactions.js';
import type { OperationContext } from '../operations/context.js';
import { sweepExpiredHandoffs } from '../operations/handoffSources.js';
import { createChatCompletionsSummarizer } from '../summarizers/chatCompletions.js';
import { createTenantResolver } from './auth.js';
import { Readiness } from './readiness.js';
import { viewerRouter } from './viewer.js';

export interface RunningService {
  url: string;
  port: number;
  readiness: Readiness;
  close(): Promise<void>;
}

const BODY_LIMIT = '1mb';

export async function startService(config: Config, driver: Driver, logger: Logger): Promise<RunningService> {
  const rootGraph = new Graph(driver, config.neo4j.database, '');
  const readiness = new Readiness(rootGraph, () => applyMigrations(rootGraph), logger);
  await readiness.check();

  const app = express();
  const httpServer = createServer(app);
  const apollo = new ApolloServer<RequestContext>({
    typeDefs: loadTypeDefs(),
    resolvers: { ...lowercaseEnumResolvers(loadTypeDefs()), ...mergedResolvers() },
    introspection: !config.production,
    includeStacktraceInErrorResponses: !config.production,
    csrfPrevention: true,
    // main.ts owns shutdown: it stops the HTTP server, then the driver, then the local Neo4j.
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => formatError(formatted, error, logger),
    plugins: [ApolloServerPluginDrainHttpServer({ httpServer })],
  });
  await apollo.start();

  const resolveTenant = createTenantResolver(config.apiKeys);
  const providers = new Map(config.providers.map((provider) => [provider.id, provider]));
  const summaries = {
    policy: config.summaries,
    summarizers: new Map(
      Object.entries(config.summaries.summarizers).map(([name, settings]) => [name, createChatCompletionsSummarizer({ name, ...settings })]),
    ),
  };
  const operationsFor = (tenant: string): OperationContext => ({ graph: rootGraph.forTenant(tenant), providers, planner: config.planner, summaries });
  const sweeper = startPendingHandoffSweeper(rootGraph, operationsFor, config.summaries.pendingTimeoutSeconds, logger);

  app.get('/healthz', (_request, response) => {
    response.json({ status: 'ok' });
  });
  app.use(viewerRouter());
  app.get('/readyz', async (_request, response) => {
    const state = await readiness.check();
    response.status(state.ready ? 200 : 503).json(state);
  });
  app.use(
    '/graphql',
    (request, response, next) => {
      if (resolveTenant(request.headers.authorization) !== null) return next();
      response.status(401).json({ errors: [{ message: 'A valid bearer token is required.', extensions: { code: 'UNAUTHENTICATED' } }] });
    },
    express.json({ limit: BODY_LIMIT }),
    expressMiddleware(apollo, {
      context: async ({ req }): Promise<RequestContext & BaseContext> => {
        const tenant = resolveTenant(req.headers.authorization)!;
        const operations = operationsFor(tenant);
        return { tenant, operations, loaders: createLoaders(operations.graph), logger };
      },
    }),
  );

  httpServer.listen(config.port, config.host);
  await once(httpServer, 'listening');
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}/graphql`,
    port,
    readiness,
    close: () => {
      clearInterval(sweeper);
      return closeAll(apollo, httpServer);
    },
  };
}

/** PENDING handoffs nobody submitted in time fail and are replaced by local summaries. */
function startPendingHandoffSweeper(rootGraph: Graph, operationsFor: (tenant: string) => OperationContext, timeoutSeconds: number, logger: Logger) {
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweepExpiredHandoffs(rootGraph, operationsFor)
      .then((count) => count > 0 && logger.info({ count }, 'expired pending handoffs replaced by local summaries'))
      .catch((error: unknown) => logger.warn({ err: error }, 'pending handoff sweep failed'))
      .finally(() => {
        sweeping = false;
      });
  }, Math.min(30_000, (timeoutSeconds * 1000) / 2));
  sweeper.unref();
  return sweeper;
}

async function closeAll(apollo: ApolloServer<RequestContext>, httpServer: Server): Promise<void> {
  await apollo.stop();
  if (httpServer.listening) await new Promise<void>((resolve) => httpServer.close(() => resolve()));
}

/** Refusals keep their contract code; anything unexpected is logged and shown without internals. */
function formatError(formatted: GraphQLFormattedError, error: unknown, logger: Logger): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof ThreadlineError) {
    return { message: original.message, path: formatted.path, locations: formatted.locations, extensions: { code: original.code, ...original.details } };
  }
  if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
    logger.error({ err: original, path: formatted.path }, 'unexpected error in a resolver');
    return { message: 'Internal server error', path: formatted.path, locations: formatted.locations, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  return formatted;
}
