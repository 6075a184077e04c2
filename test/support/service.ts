// A real Threadline service on an ephemeral port, talking to the run's Neo4j, and GraphQL clients
// that speak to it over HTTP like any product UI would: the typed client (client/), and raw queries
// for what it does not send (malformed or hostile requests, reads of fields it does not select).
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Driver } from 'neo4j-driver';
import { inject } from 'vitest';
import { createThreadlineClient, type ThreadlineClient } from '../../client/index.js';
import { loadConfig, SINGLE_TENANT, type Config } from '../../src/config.js';
import { createDriver } from '../../src/graph/driver.js';
import { startService, type RunningService } from '../../src/server/app.js';
import type { Clock } from '../../src/server/clock.js';
import { createLogger } from '../../src/server/logger.js';
import { fileTenant, writesUnder } from './tenants.js';

export interface GraphQLResponse<T = Record<string, any>> {
  status: number;
  data: T | null;
  errors: { message: string; extensions?: { code?: string; [key: string]: unknown } }[] | undefined;
}

export interface TestService {
  service: RunningService;
  /** The tenant it writes under, when the test did not key it itself (THREADLINE_API_KEYS). */
  tenant: string | null;
  /** The key its clients send: none when it runs without keys, or the test keyed it itself. */
  apiKey: string | undefined;
  driver: Driver;
  config: Config;
  /** Sessions the service has opened so far: one per transaction or loader batch. */
  sessionsOpened(): number;
  /** The typed client, without an API key. */
  client: ThreadlineClient;
  gql: <T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string,
  ) => Promise<GraphQLResponse<T>>;
  /** Like gql, but fails the test on any GraphQL error and returns data. */
  ok: <T = Record<string, any>>(query: string, variables?: Record<string, unknown>, token?: string) => Promise<T>;
  close(): Promise<void>;
}

/** Faults the service's driver injects; the graph itself stays real. */
export interface DriverFaults {
  /** While true, every write session the service opens fails before it reaches the graph. */
  failWrites: boolean;
}

/** How a test service differs from one started by `npm start`, besides its environment. */
export interface TestServiceOptions {
  faults?: DriverFaults;
  /** The time its timed work sees and when that work runs: the system's clock by default. */
  clock?: Clock;
  /**
   * The tenant it writes under, which its clients (`gql`, `ok`, `client`) are keyed for: by default
   * the file's own (tenants.ts), so that what its sweep expires and what the audit after the file
   * reads are this file's alone, not the other files' on the shared Neo4j. SINGLE_TENANT starts
   * it without API keys, its clients unkeyed. Not used when `env` sets THREADLINE_API_KEYS: the test
   * keys it itself, with tenants from fileTenant(label).
   */
  tenant?: string;
}

export async function startTestService(
  env: Record<string, string> = {},
  { faults = { failWrites: false }, clock, tenant }: TestServiceOptions = {},
): Promise<TestService> {
  const neo4j = inject('neo4j');
  const writesUnderTenant = env.THREADLINE_API_KEYS === undefined ? writesUnder(tenant ?? fileTenant()) : null;
  const apiKey = writesUnderTenant && writesUnderTenant !== SINGLE_TENANT ? `key-${randomUUID()}` : undefined;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ...(apiKey ? { THREADLINE_API_KEYS: `${apiKey}=${writesUnderTenant}` } : {}),
    ...env,
  });
  const driver = createDriver(neo4j);
  // Every graph round trip of the service opens one session: counting them shows batching at work.
  let sessions = 0;
  const countingDriver = new Proxy(driver, {
    get(target, property, receiver) {
      if (property === 'session')
        return (...args: Parameters<Driver['session']>) => {
          if (faults.failWrites && args[0]?.defaultAccessMode === 'WRITE') throw new Error('injected write fault');
          return (sessions++, target.session(...args));
        };
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const service = await startService(
    { ...config, neo4j: { ...config.neo4j, database: neo4j.database } },
    countingDriver,
    createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    clock,
  );
  const gql = async <T>(
    query: string,
    variables: Record<string, unknown> = {},
    token = apiKey,
  ): Promise<GraphQLResponse<T>> => {
    const response = await fetch(service.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: T; errors?: GraphQLResponse['errors'] };
    return { status: response.status, data: body.data ?? null, errors: body.errors };
  };
  return {
    service,
    tenant: writesUnderTenant,
    apiKey,
    driver,
    config,
    sessionsOpened: () => sessions,
    client: createThreadlineClient({ url: service.url, apiKey }),
    gql,
    ok: async <T>(query: string, variables?: Record<string, unknown>, token?: string) => {
      const result = await gql<T>(query, variables, token);
      if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors, null, 2)}`);
      return result.data as T;
    },
    close: async () => {
      await service.close();
      await driver.close();
    },
  };
}

export function uniqueId(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}

/** `content` as a JSON file of its own in the temp directory: for THREADLINE_PROVIDERS_FILE or THREADLINE_SUMMARIES_FILE. */
export function settingsFile(content: unknown): string {
  const path = join(tmpdir(), `${uniqueId('settings')}.json`);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

export function codeOf(result: GraphQLResponse): string | undefined {
  return result.errors?.[0]?.extensions?.code;
}
