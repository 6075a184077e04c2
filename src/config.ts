import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { DEFAULT_PLANNER_SETTINGS, type PlannerSettings } from './domain/planner.js';
import { BUILT_IN_PROVIDERS, mergeProviders, type ProviderDefinition } from './domain/providers.js';
import { DEFAULT_SUMMARY_POLICY, parseSummaryPolicy, type SummaryPolicy } from './domain/summaryPolicy.js';

/** Every setting comes from an environment variable; see the table in README.md. */
export interface Config {
  port: number;
  host: string;
  production: boolean;
  /** Schema introspection (and "Did you mean" hints in errors): on outside production by default. */
  introspection: boolean;
  logLevel: string;
  /** Time bounds and the connection cap, in milliseconds and connections. */
  limits: ServiceLimits;
  neo4j: {
    /** null: boot the local Neo4j with its store under dataDir. */
    uri: string | null;
    user: string;
    password: string | null;
    database: string;
    heap: string;
    pageCache: string;
  };
  dataDir: string;
  /** Bearer token -> tenant; empty: single-tenant mode, tenant "local". */
  apiKeys: Map<string, string>;
  /**
   * Host names (or host:port) served besides loopback ones; null: any Host (only with API keys).
   * Requests for other hosts, and cross-origin ones, are refused (src/server/hosts.ts).
   */
  publicHosts: string[] | null;
  /** GET /metrics (Prometheus), off by default; with a token, only for `Authorization: Bearer <token>`. */
  metrics: { enabled: boolean; token: string | null };
  /** GraphQL subscriptions over WebSocket (docs/live-updates.md). */
  subscriptions: SubscriptionSettings;
  /** OpenTelemetry traces of GraphQL requests and their Cypher statements; null (the default): off. */
  tracing: TracingSettings | null;
  providers: ProviderDefinition[];
  planner: PlannerSettings;
  summaries: SummaryPolicy;
}

export interface ServiceLimits {
  /** A graph operation that Neo4j has not answered by then is SERVICE_UNAVAILABLE (the transaction is abandoned). */
  graphDeadlineMs: number;
  /** /readyz answers 503 when Neo4j has not answered a ping by then. */
  readinessTimeoutMs: number;
  /** Node's requestTimeout: the whole request, body included, must arrive by then. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  /**
   * The most bytes a GraphQL answer may have, as sent; a larger one is refused whole with
   * RESPONSE_TOO_LARGE. Also the most characters of long text one request may read from the graph.
   */
  maxResponseBytes: number;
}

export interface SubscriptionSettings {
  /** How often an instance with subscribers reads the change feed of their threads. */
  pollIntervalMs: number;
  /** Open WebSocket connections per instance; more are refused with HTTP 503. */
  maxConnections: number;
  /** Subscriptions one connection holds at once; more are refused with BAD_REQUEST. */
  maxPerConnection: number;
  /** The most bytes of one subscriber's event; a larger one is sent without its thread (EVENT_TOO_LARGE). */
  eventMaxBytes: number;
  /** The most bytes of whole events an instance sends for one change, shared by its subscribers (FAN_OUT_BUDGET). */
  changeMaxBytes: number;
}

export interface TracingSettings {
  /** The OTLP/HTTP traces URL, e.g. http://collector:4318/v1/traces. */
  endpoint: string;
  serviceName: string;
}

export const SINGLE_TENANT = 'local';

// Environment values are strings; an empty one is an error, never a silent 0.
const integerString = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().min(min).max(max));
const positiveInt = integerString(1, 1_000_000);
const memorySize = z.string().regex(/^\d+[kmg]$/i, 'must look like 512m or 2g');
const booleanString = z.enum(['true', 'false']).transform((value) => value === 'true');

const envSchema = z.object({
  PORT: integerString(0, 65_535).default(4000),
  HOST: z.string().min(1).optional(),
  NODE_ENV: z.string().default('development'),
  THREADLINE_INTROSPECTION: booleanString.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NEO4J_URI: z
    .string()
    .regex(/^(bolt|neo4j)(\+s|\+ssc)?:\/\//, 'must be a bolt:// or neo4j:// URI')
    .optional(),
  NEO4J_USER: z.string().min(1).default('neo4j'),
  NEO4J_PASSWORD: z.string().min(1).optional(),
  NEO4J_DATABASE: z.string().min(1).default('neo4j'),
  THREADLINE_NEO4J_HEAP: memorySize.default('512m'),
  THREADLINE_NEO4J_PAGECACHE: memorySize.default('256m'),
  THREADLINE_DATA_DIR: z.string().min(1).default('.threadline'),
  THREADLINE_API_KEYS: z.string().optional(),
  THREADLINE_PROVIDERS_FILE: z.string().min(1).optional(),
  THREADLINE_SUMMARIES_FILE: z.string().min(1).optional(),
  THREADLINE_MAX_DELTA_SOURCE_THREADS: positiveInt.default(DEFAULT_PLANNER_SETTINGS.maxDeltaSourceThreads),
  THREADLINE_MAX_RUNS_ELSEWHERE: positiveInt.default(DEFAULT_PLANNER_SETTINGS.maxRunsElsewhere),
  THREADLINE_MAX_CHAINED_HANDOFFS: positiveInt.default(DEFAULT_PLANNER_SETTINGS.maxChainedHandoffs),
  THREADLINE_ALLOW_UNAUTHENTICATED_NETWORK: booleanString.default(false),
  THREADLINE_PUBLIC_HOSTS: z.string().optional(),
  THREADLINE_HOST_CHECK: z.enum(['on', 'off']).default('on'),
  THREADLINE_GRAPH_DEADLINE_MS: integerString(100, 600_000).default(15_000),
  THREADLINE_READY_TIMEOUT_MS: integerString(100, 60_000).default(2_000),
  THREADLINE_REQUEST_TIMEOUT_MS: integerString(1_000, 600_000).default(30_000),
  THREADLINE_HEADERS_TIMEOUT_MS: integerString(1_000, 600_000).default(10_000),
  THREADLINE_KEEP_ALIVE_TIMEOUT_MS: integerString(100, 600_000).default(5_000),
  THREADLINE_MAX_CONNECTIONS: integerString(1, 100_000).default(256),
  THREADLINE_METRICS: z.enum(['on', 'off']).default('off'),
  THREADLINE_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  THREADLINE_MAX_RESPONSE_BYTES: integerString(1_024, 1_073_741_824).default(16_777_216),
  THREADLINE_SUBSCRIPTION_POLL_MS: integerString(50, 60_000).default(500),
  THREADLINE_MAX_SUBSCRIPTION_CONNECTIONS: integerString(0, 100_000).default(128),
  THREADLINE_MAX_SUBSCRIPTIONS_PER_CONNECTION: integerString(1, 1_000).default(20),
  THREADLINE_SUBSCRIPTION_EVENT_MAX_BYTES: integerString(1_024, 1_073_741_824).default(1_048_576),
  THREADLINE_SUBSCRIPTION_CHANGE_MAX_BYTES: integerString(1_024, 1_073_741_824).default(16_777_216),
  // OpenTelemetry's own variable names, which operators already set for other services.
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('threadline'),
});

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;

export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

export class ConfigError extends Error {}

/** Reads and validates the configuration; a bad value fails with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const vars = parsed.data;
  const apiKeys = parseApiKeys(vars.THREADLINE_API_KEYS);
  const production = vars.NODE_ENV === 'production';
  // Without API keys anyone who can reach the port is the single tenant: keep it on loopback unless
  // the operator says, in so many words, that the network in front of it is trusted.
  const host = vars.HOST ?? (apiKeys.size === 0 ? '127.0.0.1' : '0.0.0.0');
  if (apiKeys.size === 0 && !isLoopback(host) && !vars.THREADLINE_ALLOW_UNAUTHENTICATED_NETWORK) {
    throw new ConfigError(
      `Invalid configuration:\n  HOST: ${host} is not a loopback address and THREADLINE_API_KEYS is empty, so anyone who can reach it would be the single tenant; set THREADLINE_API_KEYS, or THREADLINE_ALLOW_UNAUTHENTICATED_NETWORK=true if the network in front of it is trusted`,
    );
  }
  // A web page the user visits can reach a loopback service under a name of its own (DNS rebinding):
  // only loopback names and the configured public ones are served. Off only where keys guard the data.
  if (vars.THREADLINE_HOST_CHECK === 'off' && apiKeys.size === 0) {
    throw new ConfigError(
      `Invalid configuration:\n  THREADLINE_HOST_CHECK: off needs THREADLINE_API_KEYS; without keys, name the hosts the service is reached by in THREADLINE_PUBLIC_HOSTS`,
    );
  }
  const publicHosts =
    vars.THREADLINE_HOST_CHECK === 'off'
      ? null
      : (vars.THREADLINE_PUBLIC_HOSTS ?? '')
          .split(',')
          .map((name) => name.trim().toLowerCase())
          .filter(Boolean);
  // The same rule for the metrics: they say what the service does, so only a trusted network reads them without a token.
  const metricsToken = vars.THREADLINE_METRICS_TOKEN ?? null;
  if (
    vars.THREADLINE_METRICS === 'on' &&
    metricsToken === null &&
    !isLoopback(host) &&
    !vars.THREADLINE_ALLOW_UNAUTHENTICATED_NETWORK
  ) {
    throw new ConfigError(
      `Invalid configuration:\n  THREADLINE_METRICS: on, with HOST ${host} not a loopback address and no THREADLINE_METRICS_TOKEN; set one, or THREADLINE_ALLOW_UNAUTHENTICATED_NETWORK=true if the network in front of it is trusted`,
    );
  }
  return {
    port: vars.PORT,
    host,
    production,
    introspection: vars.THREADLINE_INTROSPECTION ?? !production,
    logLevel: vars.LOG_LEVEL,
    limits: {
      graphDeadlineMs: vars.THREADLINE_GRAPH_DEADLINE_MS,
      readinessTimeoutMs: vars.THREADLINE_READY_TIMEOUT_MS,
      requestTimeoutMs: vars.THREADLINE_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: vars.THREADLINE_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: vars.THREADLINE_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: vars.THREADLINE_MAX_CONNECTIONS,
      maxResponseBytes: vars.THREADLINE_MAX_RESPONSE_BYTES,
    },
    neo4j: {
      uri: vars.NEO4J_URI ?? null,
      user: vars.NEO4J_USER,
      password: vars.NEO4J_PASSWORD ?? null,
      database: vars.NEO4J_DATABASE,
      heap: vars.THREADLINE_NEO4J_HEAP,
      pageCache: vars.THREADLINE_NEO4J_PAGECACHE,
    },
    dataDir: vars.THREADLINE_DATA_DIR,
    apiKeys,
    publicHosts,
    metrics: { enabled: vars.THREADLINE_METRICS === 'on', token: metricsToken },
    subscriptions: {
      pollIntervalMs: vars.THREADLINE_SUBSCRIPTION_POLL_MS,
      maxConnections: vars.THREADLINE_MAX_SUBSCRIPTION_CONNECTIONS,
      maxPerConnection: vars.THREADLINE_MAX_SUBSCRIPTIONS_PER_CONNECTION,
      eventMaxBytes: vars.THREADLINE_SUBSCRIPTION_EVENT_MAX_BYTES,
      changeMaxBytes: vars.THREADLINE_SUBSCRIPTION_CHANGE_MAX_BYTES,
    },
    tracing: vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
      ? { endpoint: vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, serviceName: vars.OTEL_SERVICE_NAME }
      : null,
    providers: vars.THREADLINE_PROVIDERS_FILE
      ? readJsonFile('THREADLINE_PROVIDERS_FILE', vars.THREADLINE_PROVIDERS_FILE, mergeProviders)
      : [...BUILT_IN_PROVIDERS],
    summaries: vars.THREADLINE_SUMMARIES_FILE
      ? readJsonFile('THREADLINE_SUMMARIES_FILE', vars.THREADLINE_SUMMARIES_FILE, parseSummaryPolicy)
      : DEFAULT_SUMMARY_POLICY,
    planner: {
      maxDeltaSourceThreads: vars.THREADLINE_MAX_DELTA_SOURCE_THREADS,
      maxRunsElsewhere: vars.THREADLINE_MAX_RUNS_ELSEWHERE,
      maxChainedHandoffs: vars.THREADLINE_MAX_CHAINED_HANDOFFS,
    },
  };
}

function parseApiKeys(raw: string | undefined): Map<string, string> {
  const keys = new Map<string, string>();
  for (const pair of (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const separator = pair.indexOf('=');
    const key = pair.slice(0, separator);
    const tenant = pair.slice(separator + 1);
    if (separator < 1 || !/^[A-Za-z0-9_-]{1,64}$/.test(tenant) || key.length < 16) {
      throw new ConfigError(
        'Invalid configuration:\n  THREADLINE_API_KEYS: expected key=tenant pairs separated by commas, keys of 16+ characters, tenants of letters, digits, _ or -',
      );
    }
    keys.set(key, tenant);
  }
  return keys;
}

/** A JSON settings file named by `variable`, validated by `parse`; errors name the variable and the file. */
function readJsonFile<T>(variable: string, path: string, parse: (content: unknown, source: string) => T): T {
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  ${variable}: cannot read ${path} as JSON (${(error as Error).message})`,
    );
  }
  try {
    return parse(content, `${variable} (${path})`);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
}
