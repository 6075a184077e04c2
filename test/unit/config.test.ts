import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SINGLE_TENANT } from '../../src/config.js';
import { BUILT_IN_PROVIDERS } from '../../src/domain/providers.js';

const KEY_A = 'aaaaaaaaaaaaaaaa'; // 16 characters
const KEY_B = 'bbbbbbbbbbbbbbbbbbbbbbbb';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected loadConfig(${JSON.stringify(env)}) to fail`);
}

describe('loadConfig defaults', () => {
  const config = loadConfig({});

  it('listens on port 4000, on loopback without API keys', () => {
    expect(config.port).toBe(4000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.apiKeys.size).toBe(0);
  });

  it('uses the neo4j database and the local Neo4j', () => {
    expect(config.neo4j).toEqual({
      uri: null,
      user: 'neo4j',
      password: null,
      database: 'neo4j',
      heap: '512m',
      pageCache: '256m',
    });
  });

  it('uses the planner defaults 2/20/3', () => {
    expect(config.planner).toEqual({ maxDeltaSourceThreads: 2, maxRunsElsewhere: 20, maxChainedHandoffs: 3 });
  });

  it('uses the built-in providers, development mode, info logging and .threadline', () => {
    expect(config.providers).toEqual(BUILT_IN_PROVIDERS);
    expect(config.production).toBe(false);
    expect(config.logLevel).toBe('info');
    expect(config.dataDir).toBe('.threadline');
  });

  it('names the single tenant "local"', () => {
    expect(SINGLE_TENANT).toBe('local');
  });

  it('ignores unrelated variables', () => {
    expect(loadConfig({ PATH: '/usr/bin', HOME: '/root' }).port).toBe(4000);
  });
});

describe('loadConfig values', () => {
  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '10.0.0.5',
      THREADLINE_ALLOW_UNAUTHENTICATED_NETWORK: 'true',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      NEO4J_URI: 'neo4j+s://db.example.com:7687',
      NEO4J_USER: 'svc',
      NEO4J_PASSWORD: 'secret',
      NEO4J_DATABASE: 'lineage',
      THREADLINE_NEO4J_HEAP: '2g',
      THREADLINE_NEO4J_PAGECACHE: '1G',
      THREADLINE_DATA_DIR: '/var/lib/threadline',
      THREADLINE_MAX_DELTA_SOURCE_THREADS: '4',
      THREADLINE_MAX_RUNS_ELSEWHERE: '50',
      THREADLINE_MAX_CHAINED_HANDOFFS: '7',
    });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('10.0.0.5');
    expect(config.production).toBe(true);
    expect(config.logLevel).toBe('warn');
    expect(config.neo4j).toEqual({
      uri: 'neo4j+s://db.example.com:7687',
      user: 'svc',
      password: 'secret',
      database: 'lineage',
      heap: '2g',
      pageCache: '1G',
    });
    expect(config.dataDir).toBe('/var/lib/threadline');
    expect(config.planner).toEqual({ maxDeltaSourceThreads: 4, maxRunsElsewhere: 50, maxChainedHandoffs: 7 });
  });

  it('accepts PORT 0 (any free port) and 65535', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65_535);
  });

  it.each(['bolt://localhost:7687', 'neo4j://localhost', 'bolt+s://h:7687', 'neo4j+ssc://h'])(
    'accepts NEO4J_URI %s',
    (uri) => {
      expect(loadConfig({ NEO4J_URI: uri }).neo4j.uri).toBe(uri);
    },
  );
});

describe('loadConfig production mode', () => {
  it('turns introspection off in production only, unless THREADLINE_INTROSPECTION says otherwise', () => {
    expect(loadConfig({}).introspection).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).introspection).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', THREADLINE_INTROSPECTION: 'true' }).introspection).toBe(true);
    expect(loadConfig({ THREADLINE_INTROSPECTION: 'false' }).introspection).toBe(false);
  });

  it.each(['yes', '1', 'TRUE', ''])('rejects THREADLINE_INTROSPECTION=%j, naming it', (value) => {
    expect(configError({ THREADLINE_INTROSPECTION: value }).message).toContain('THREADLINE_INTROSPECTION');
  });
});

describe('loadConfig API keys', () => {
  it('binds to all interfaces when API keys are configured', () => {
    const config = loadConfig({ THREADLINE_API_KEYS: `${KEY_A}=acme` });
    expect(config.host).toBe('0.0.0.0');
    expect(config.apiKeys).toEqual(new Map([[KEY_A, 'acme']]));
  });

  it('refuses a non-loopback HOST without API keys unless the operator allows it explicitly', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.5']) {
      expect(configError({ HOST: host }).message).toMatch(
        /\bHOST: .*not a loopback address.*THREADLINE_ALLOW_UNAUTHENTICATED_NETWORK=true/,
      );
      expect(loadConfig({ HOST: host, THREADLINE_ALLOW_UNAUTHENTICATED_NETWORK: 'true' }).host).toBe(host);
      expect(loadConfig({ HOST: host, THREADLINE_API_KEYS: `${KEY_A}=acme` }).host).toBe(host);
    }
    for (const host of ['127.0.0.1', '127.0.0.5', '::1', 'localhost'])
      expect(loadConfig({ HOST: host }).host).toBe(host);
    expect(configError({ HOST: '0.0.0.0', THREADLINE_ALLOW_UNAUTHENTICATED_NETWORK: 'yes' }).message).toMatch(
      /\bTHREADLINE_ALLOW_UNAUTHENTICATED_NETWORK: /,
    );
  });

  it('serves metrics only when asked, and beyond loopback only with a token or an explicit trust', () => {
    expect(loadConfig({}).metrics).toEqual({ enabled: false, token: null });
    expect(loadConfig({ THREADLINE_METRICS: 'on' }).metrics).toEqual({ enabled: true, token: null });
    const network = { HOST: '0.0.0.0', THREADLINE_API_KEYS: `${KEY_A}=acme`, THREADLINE_METRICS: 'on' };
    expect(configError(network).message).toMatch(
      /THREADLINE_METRICS: on, with HOST 0\.0\.0\.0 .*THREADLINE_METRICS_TOKEN/,
    );
    expect(loadConfig({ ...network, THREADLINE_METRICS_TOKEN: 'a-token-of-16-chars' }).metrics).toEqual({
      enabled: true,
      token: 'a-token-of-16-chars',
    });
    expect(loadConfig({ ...network, THREADLINE_ALLOW_UNAUTHENTICATED_NETWORK: 'true' }).metrics.enabled).toBe(true);
    expect(configError({ THREADLINE_METRICS: 'on', THREADLINE_METRICS_TOKEN: 'short' }).message).toMatch(
      /THREADLINE_METRICS_TOKEN: must be at least 16/,
    );
    expect(configError({ THREADLINE_METRICS: 'yes' }).message).toMatch(/THREADLINE_METRICS: /);
  });

  it('keeps an explicit HOST even with API keys', () => {
    expect(loadConfig({ THREADLINE_API_KEYS: `${KEY_A}=acme`, HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
  });

  it('reads several key=tenant pairs, tolerating spaces and empty entries', () => {
    const config = loadConfig({ THREADLINE_API_KEYS: ` ${KEY_A}=acme , ${KEY_B}=globex_2,, ` });
    expect(config.apiKeys).toEqual(
      new Map([
        [KEY_A, 'acme'],
        [KEY_B, 'globex_2'],
      ]),
    );
  });

  it('treats an empty THREADLINE_API_KEYS as no keys', () => {
    const config = loadConfig({ THREADLINE_API_KEYS: '' });
    expect(config.apiKeys.size).toBe(0);
    expect(config.host).toBe('127.0.0.1');
  });

  it.each([
    ['a key of 15 characters', `${'k'.repeat(15)}=acme`],
    ['a pair without =', KEY_A],
    ['an empty key', '=acme'],
    ['an empty tenant', `${KEY_A}=`],
    ['a tenant with bad characters', `${KEY_A}=acme corp`],
    ['a tenant longer than 64 characters', `${KEY_A}=${'t'.repeat(65)}`],
    ['one bad pair among good ones', `${KEY_A}=acme,short=globex`],
  ])('rejects %s, naming THREADLINE_API_KEYS', (_case, value) => {
    const error = configError({ THREADLINE_API_KEYS: value });
    expect(error.message).toContain('THREADLINE_API_KEYS');
    // The message must not echo the secret back.
    expect(error.message).not.toContain(KEY_A);
  });
});

describe('loadConfig time bounds and the connection cap', () => {
  it('has defaults that answer within seconds', () => {
    expect(loadConfig({}).limits).toEqual({
      graphDeadlineMs: 15_000,
      readinessTimeoutMs: 2_000,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 256,
      maxResponseBytes: 16_777_216,
    });
  });

  it('reads each one, and refuses values out of range', () => {
    const limits = loadConfig({
      THREADLINE_GRAPH_DEADLINE_MS: '4000',
      THREADLINE_READY_TIMEOUT_MS: '500',
      THREADLINE_REQUEST_TIMEOUT_MS: '60000',
      THREADLINE_HEADERS_TIMEOUT_MS: '5000',
      THREADLINE_KEEP_ALIVE_TIMEOUT_MS: '1000',
      THREADLINE_MAX_CONNECTIONS: '64',
      THREADLINE_MAX_RESPONSE_BYTES: '1048576',
    }).limits;
    expect(limits).toEqual({
      graphDeadlineMs: 4000,
      readinessTimeoutMs: 500,
      requestTimeoutMs: 60000,
      headersTimeoutMs: 5000,
      keepAliveTimeoutMs: 1000,
      maxConnections: 64,
      maxResponseBytes: 1_048_576,
    });
    expect(configError({ THREADLINE_GRAPH_DEADLINE_MS: '10' }).message).toMatch(/\bTHREADLINE_GRAPH_DEADLINE_MS: /);
    expect(configError({ THREADLINE_MAX_CONNECTIONS: '0' }).message).toMatch(/\bTHREADLINE_MAX_CONNECTIONS: /);
    expect(configError({ THREADLINE_READY_TIMEOUT_MS: '' }).message).toMatch(/\bTHREADLINE_READY_TIMEOUT_MS: /);
    expect(configError({ THREADLINE_MAX_RESPONSE_BYTES: '1023' }).message).toMatch(/\bTHREADLINE_MAX_RESPONSE_BYTES: /);
    expect(configError({ THREADLINE_MAX_RESPONSE_BYTES: '16mb' }).message).toMatch(/\bTHREADLINE_MAX_RESPONSE_BYTES: /);
  });
});

describe('subscription settings', () => {
  it('default to a 500 ms poll, 128 connections, 20 subscriptions per connection, 1 MiB per event, 16 MiB per change', () => {
    expect(loadConfig({}).subscriptions).toEqual({
      pollIntervalMs: 500,
      maxConnections: 128,
      maxPerConnection: 20,
      eventMaxBytes: 1_048_576,
      changeMaxBytes: 16_777_216,
    });
  });

  it('read each one, 0 connections turning subscriptions away, and refuse values out of range', () => {
    const settings = loadConfig({
      THREADLINE_SUBSCRIPTION_POLL_MS: '2000',
      THREADLINE_MAX_SUBSCRIPTION_CONNECTIONS: '0',
      THREADLINE_MAX_SUBSCRIPTIONS_PER_CONNECTION: '5',
      THREADLINE_SUBSCRIPTION_EVENT_MAX_BYTES: '65536',
      THREADLINE_SUBSCRIPTION_CHANGE_MAX_BYTES: '4194304',
    }).subscriptions;
    expect(settings).toEqual({
      pollIntervalMs: 2000,
      maxConnections: 0,
      maxPerConnection: 5,
      eventMaxBytes: 65_536,
      changeMaxBytes: 4_194_304,
    });
    expect(configError({ THREADLINE_SUBSCRIPTION_POLL_MS: '10' }).message).toMatch(
      /\bTHREADLINE_SUBSCRIPTION_POLL_MS: /,
    );
    expect(configError({ THREADLINE_MAX_SUBSCRIPTIONS_PER_CONNECTION: '0' }).message).toMatch(
      /\bTHREADLINE_MAX_SUBSCRIPTIONS_PER_CONNECTION: /,
    );
    expect(configError({ THREADLINE_MAX_SUBSCRIPTION_CONNECTIONS: '' }).message).toMatch(
      /\bTHREADLINE_MAX_SUBSCRIPTION_CONNECTIONS: /,
    );
    expect(configError({ THREADLINE_SUBSCRIPTION_CHANGE_MAX_BYTES: '100' }).message).toMatch(
      /\bTHREADLINE_SUBSCRIPTION_CHANGE_MAX_BYTES: /,
    );
  });
});

describe('tracing settings', () => {
  it('are off unless an OTLP traces endpoint is set', () => {
    expect(loadConfig({}).tracing).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }).tracing).toEqual({
      endpoint: 'http://collector:4318/v1/traces',
      serviceName: 'threadline',
    });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector/v1/traces',
        OTEL_SERVICE_NAME: 'threadline-eu',
      }).tracing?.serviceName,
    ).toBe('threadline-eu');
  });

  it('refuse an endpoint that is not an http(s) URL', () => {
    for (const endpoint of ['collector:4318', 'grpc://collector:4317', '']) {
      expect(configError({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint }).message).toMatch(
        /\bOTEL_EXPORTER_OTLP_TRACES_ENDPOINT: /,
      );
    }
  });
});

describe('loadConfig errors name the variable', () => {
  it.each(['abc', '70000', '-1', '80.5', '65536'])('rejects PORT %s', (port) => {
    const error = configError({ PORT: port });
    expect(error.message).toMatch(/^Invalid configuration:/);
    expect(error.message).toMatch(/\bPORT: /);
  });

  // Bug: z.coerce.number() turns '' into 0, so `PORT=` silently listens on a random port instead of
  // failing like every other empty variable (HOST, NEO4J_URI, NEO4J_PASSWORD... all reject '').
  it('rejects an empty PORT rather than treating it as port 0', () => {
    expect(configError({ PORT: '' }).message).toMatch(/\bPORT: /);
  });

  it('rejects an empty HOST', () => {
    expect(configError({ HOST: '' }).message).toMatch(/\bHOST: /);
  });

  it.each(['http://localhost:7474', 'localhost:7687', 'bolts://h', 'neo4j:/h', ''])('rejects NEO4J_URI %j', (uri) => {
    const error = configError({ NEO4J_URI: uri });
    expect(error.message).toContain('NEO4J_URI: must be a bolt:// or neo4j:// URI');
  });

  it('rejects a bad LOG_LEVEL', () => {
    expect(configError({ LOG_LEVEL: 'verbose' }).message).toMatch(/\bLOG_LEVEL: /);
  });

  it('rejects a bad memory size', () => {
    expect(configError({ THREADLINE_NEO4J_HEAP: '2 GB' }).message).toMatch(
      /THREADLINE_NEO4J_HEAP: must look like 512m or 2g/,
    );
  });

  it.each(['THREADLINE_MAX_DELTA_SOURCE_THREADS', 'THREADLINE_MAX_RUNS_ELSEWHERE', 'THREADLINE_MAX_CHAINED_HANDOFFS'])(
    'rejects a non-positive or fractional %s',
    (name) => {
      for (const value of ['0', '-3', '1.5', 'many'])
        expect(configError({ [name]: value }).message).toContain(`${name}: `);
    },
  );

  it('lists every bad variable at once', () => {
    const message = configError({ PORT: 'x', NEO4J_URI: 'http://h', LOG_LEVEL: 'loud' }).message;
    expect(message).toMatch(/\bPORT: /);
    expect(message).toContain('NEO4J_URI: ');
    expect(message).toContain('LOG_LEVEL: ');
  });
});

describe('loadConfig THREADLINE_PROVIDERS_FILE', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'threadline-config-test-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function file(name: string, content: string): string {
    const path = join(dir, name);
    writeFileSync(path, content, 'utf8');
    return path;
  }

  it('merges a valid file over the built-ins', () => {
    const path = file(
      'valid.json',
      JSON.stringify({
        providers: [
          { id: 'codex', displayName: 'Codex (local)', capabilities: { maxRecommendedHandoffChars: 16_000 } },
          {
            id: 'gemini',
            displayName: 'Gemini',
            capabilities: {
              acceptsSystemContext: true,
              acceptsDeveloperContext: false,
              acceptsSyntheticUserContext: true,
              canConsumeHandoffSummaries: true,
              canGenerateSummaries: true,
              supportsDeltaHandoff: false,
              supportsFullThreadHandoff: true,
              supportsModelSwitchInThread: false,
              maxRecommendedHandoffChars: null,
              canForkThread: false,
              canForkFromTurn: false,
              canRollbackThread: false,
              nativeThreadIds: 'none',
            },
          },
        ],
      }),
    );
    const config = loadConfig({ THREADLINE_PROVIDERS_FILE: path });
    expect(config.providers.map((provider) => provider.id)).toEqual(['codex', 'claude', 'gemini']);
    const [codex, claude, gemini] = config.providers;
    expect(codex!.displayName).toBe('Codex (local)');
    expect(codex!.capabilities.maxRecommendedHandoffChars).toBe(16_000);
    expect(codex!.capabilities.acceptsDeveloperContext).toBe(true);
    expect(claude).toEqual(BUILT_IN_PROVIDERS[1]);
    expect(gemini!.capabilities.nativeThreadIds).toBe('none');
    expect(gemini!.capabilities.maxRecommendedHandoffChars).toBeNull();
  });

  it('rejects invalid JSON, naming the variable and the path', () => {
    const path = file('broken.json', '{ "providers": [ ');
    const error = configError({ THREADLINE_PROVIDERS_FILE: path });
    expect(error.message).toContain('THREADLINE_PROVIDERS_FILE: cannot read');
    expect(error.message).toContain(path);
  });

  it('rejects a missing file, naming the variable and the path', () => {
    const path = join(dir, 'does-not-exist.json');
    const error = configError({ THREADLINE_PROVIDERS_FILE: path });
    expect(error.message).toContain('THREADLINE_PROVIDERS_FILE');
    expect(error.message).toContain(path);
  });

  it('rejects an invalid capability, naming the variable, the path and the field', () => {
    const path = file(
      'bad-capability.json',
      JSON.stringify({
        providers: [{ id: 'claude', displayName: 'Claude', capabilities: { canForkThread: 'sometimes' } }],
      }),
    );
    const error = configError({ THREADLINE_PROVIDERS_FILE: path });
    expect(error.message).toMatch(/^Invalid configuration:/);
    expect(error.message).toContain(`THREADLINE_PROVIDERS_FILE (${path})`);
    expect(error.message).toContain('providers[0].capabilities.canForkThread');
  });

  it('rejects a new provider missing capabilities, naming the field', () => {
    const path = file(
      'incomplete.json',
      JSON.stringify({
        providers: [{ id: 'gemini', displayName: 'Gemini', capabilities: { acceptsSystemContext: true } }],
      }),
    );
    const error = configError({ THREADLINE_PROVIDERS_FILE: path });
    expect(error.message).toContain(`THREADLINE_PROVIDERS_FILE (${path})`);
    expect(error.message).toContain('provider "gemini"');
    expect(error.message).toContain('canConsumeHandoffSummaries');
  });

  it('rejects a file of the wrong shape, naming the variable', () => {
    const path = file('wrong-shape.json', JSON.stringify([{ id: 'codex' }]));
    expect(configError({ THREADLINE_PROVIDERS_FILE: path }).message).toContain(`THREADLINE_PROVIDERS_FILE (${path})`);
  });

  it('rejects an empty THREADLINE_PROVIDERS_FILE', () => {
    expect(configError({ THREADLINE_PROVIDERS_FILE: '' }).message).toContain('THREADLINE_PROVIDERS_FILE: ');
  });
});
