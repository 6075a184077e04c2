// The security promises of the service: API keys compared in constant time; production mode
// (introspection off unless configured, no stack traces, no schema hints, CSRF prevention); and no
// secret, neither an API key nor a summarizer's key, in any log line or any answer. Tenant isolation
// of every query and mutation is in hostile-input.test.ts, where each field's row has its case.
import crypto, { randomUUID } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createDriver } from '../../src/graph/driver.js';
import { startService } from '../../src/server/app.js';
import { createTenantResolver } from '../../src/server/auth.js';
import { createLogger } from '../../src/server/logger.js';
import { startChatCompletionsServer, type ChatCompletionsServer } from '../support/chatCompletionsServer.js';
import { settingsFile, startTestService, uniqueId, type TestService } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

const KEY = uniqueId('security-key');
const KEYS = { THREADLINE_API_KEYS: `${KEY}=${fileTenant()}` };

describe('API keys', () => {
  it('are compared as equal-length SHA-256 digests, against every key, whatever the token', () => {
    const keys = new Map([
      ['first-key-0123456789', 'one'],
      ['second-key-0123456789abcdef', 'two'],
      ['third-key-0123456789abcdefghij', 'three'],
    ]);
    const resolve = createTenantResolver(keys);
    // auth.ts imports timingSafeEqual by name: syncing the builtin's exports makes it see the spy.
    const compare = vi.spyOn(crypto, 'timingSafeEqual');
    syncBuiltinESMExports();
    try {
      const tokens: [string, string | null][] = [
        ['first-key-0123456789', 'one'],
        ['third-key-0123456789abcdefghij', 'three'],
        ['first-key-012345678', null],
        ['first-key-0123456789x', null],
        ['x', null],
        ['y'.repeat(10_000), null],
      ];
      for (const [token, tenant] of tokens) {
        compare.mockClear();
        expect(resolve(`Bearer ${token}`), token.slice(0, 30)).toBe(tenant);
        // No early exit on a match, and never two buffers of different lengths.
        expect(compare).toHaveBeenCalledTimes(keys.size);
        for (const [presented, known] of compare.mock.calls)
          expect([presented.byteLength, known.byteLength]).toEqual([32, 32]);
      }
      for (const header of [
        undefined,
        '',
        'first-key-0123456789',
        'Basic first-key-0123456789',
        'bearer first-key-0123456789',
      ])
        expect(resolve(header)).toBeNull();
    } finally {
      compare.mockRestore();
      syncBuiltinESMExports();
    }
  });
});

// ---------------------------------------------------------------------------------------------

async function request(service: TestService, path: string, init: RequestInit = {}) {
  const url = new URL(path, service.service.url);
  const response = await fetch(url, { ...init, headers: { authorization: `Bearer ${KEY}`, ...init.headers } });
  const text = await response.text();
  return {
    status: response.status,
    text,
    body: JSON.parse(text) as { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] },
  };
}
const postJson = (service: TestService, query: string, variables: Record<string, unknown> = {}) =>
  request(service, '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });

/** A request of every kind of refusal, from the HTTP layer to a resolver. */
const REFUSALS: [string, (service: TestService) => ReturnType<typeof request>][] = [
  ['a parse error', (s) => postJson(s, '{ thread(')],
  ['an unknown field', (s) => postJson(s, '{ threadz { id } }')],
  [
    'a depth limit',
    (s) =>
      postJson(
        s,
        '{ thread(id: "x") { lineage { root { lineage { root { lineage { root { lineage { root { lineage { root { id } } } } } } } } } } } }',
      ),
  ],
  ['a token limit', (s) => postJson(s, `{ ${'__typename '.repeat(3000)}}`)],
  [
    'variables of the wrong type',
    (s) =>
      postJson(s, 'mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }', {
        input: { titel: 'x' },
      }),
  ],
  [
    'an unknown id',
    (s) =>
      postJson(s, 'mutation($input: CompleteRunInput!) { completeRun(input: $input) { id } }', {
        input: { runId: 'nope' },
      }),
  ],
  [
    'a resolver refusal',
    (s) =>
      postJson(s, 'mutation($input: CreateThreadInput!) { createThread(input: $input) { id } }', {
        input: { title: 'x'.repeat(501) },
      }),
  ],
  ['a blocked CSRF', (s) => request(s, '/graphql?query=%7B__typename%7D')],
  [
    'a body that is not JSON',
    (s) => request(s, '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
  ],
  [
    'a body over the limit',
    (s) =>
      request(s, '/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }', pad: 'x'.repeat(1_100_000) }),
      }),
  ],
  [
    'no bearer token',
    (s) =>
      request(s, '/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: '' },
        body: '{}',
      }),
  ],
];

describe('production mode', () => {
  let production: TestService;
  let introspective: TestService;
  let development: TestService;
  beforeAll(async () => {
    production = await startTestService({ ...KEYS, NODE_ENV: 'production' });
    introspective = await startTestService({ ...KEYS, NODE_ENV: 'production', THREADLINE_INTROSPECTION: 'true' });
    development = await startTestService(KEYS);
  });
  afterAll(async () => {
    await Promise.all([production, introspective, development].map((service) => service?.close()));
  });

  it('turns introspection off, unless THREADLINE_INTROSPECTION turns it back on', async () => {
    for (const query of ['{ __schema { types { name } } }', '{ __type(name: "Thread") { name } }']) {
      const refused = await postJson(production, query);
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(refused.body.data).toBeUndefined();
      for (const service of [introspective, development])
        expect((await postJson(service, query)).body.errors).toBeUndefined();
    }
    expect(
      (await postJson(introspective, '{ __schema { types { name } } }')).body.data.__schema.types.map(
        (type: { name: string }) => type.name,
      ),
    ).toContain('Thread');
  });

  it('serves no landing page in production; Apollo Sandbox where introspection is on', async () => {
    const open = (service: TestService) =>
      fetch(new URL('/graphql', service.service.url), {
        headers: { accept: 'text/html', authorization: `Bearer ${KEY}` },
      });
    const none = await open(production);
    expect(none.status).toBe(400);
    expect(none.headers.get('content-type')).not.toMatch(/html/);
    for (const service of [introspective, development]) {
      const page = await open(service);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(await page.text()).toMatch(/Apollo Sandbox/);
    }
  });

  it.each(REFUSALS)('answers %s without a stack trace or a path of the service', async (_name, send) => {
    const answer = await send(production);
    expect(answer.body.errors?.length).toBeGreaterThan(0);
    for (const error of answer.body.errors!) expect(error.extensions).not.toHaveProperty('stacktrace');
    expect(answer.text).not.toMatch(/node_modules|\.[jt]s:\d+:\d+|\/work\//);
  });

  it('keeps stack traces for development, so the check above can fail', async () => {
    expect((await REFUSALS[0]![1](development)).body.errors?.[0]?.extensions).toHaveProperty('stacktrace');
  });

  it('hides "Did you mean" hints, which would reveal the schema introspection hides', async () => {
    const hinted = [
      '{ threadz { id } }',
      'mutation { createThread(input: { titel: "x" }) { id } }',
      'mutation { completeRun(input: { runId: "x", facts: [{ kind: GOLA, text: "t" }] }) { id } }',
    ];
    for (const query of hinted) {
      expect((await postJson(production, query)).text).not.toMatch(/Did you mean/);
      expect((await postJson(development, query)).text).toMatch(/Did you mean/);
    }
  });

  it('refuses requests a browser could send cross-site without a preflight (CSRF)', async () => {
    const body = JSON.stringify({ query: '{ __typename }' });
    const simple: [string, RequestInit][] = [
      ['GET', {}],
      ['text/plain', { method: 'POST', headers: { 'content-type': 'text/plain' }, body }],
      ['a form', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }],
      ['multipart', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body }],
    ];
    for (const [name, init] of simple) {
      const refused = await request(production, '/graphql?query=%7B__typename%7D', init);
      expect(refused.status, name).toBe(400);
      expect(refused.body.errors?.[0]?.extensions?.code, name).toBe('BAD_REQUEST');
      expect(refused.body.errors?.[0]?.message, name).toMatch(/Cross-Site Request Forgery/);
    }
    const preflighted = await request(production, '/graphql?query=%7B__typename%7D', {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(preflighted.body).toEqual({ data: { __typename: 'Query' } });
    expect((await postJson(production, '{ __typename }')).body).toEqual({ data: { __typename: 'Query' } });
  });
});

// ---------------------------------------------------------------------------------------------

describe('secrets', () => {
  const tenantKeys = [`sk-tenant-${randomUUID()}`, `sk-tenant-${randomUUID()}`];
  const summarizerKey = `sk-summarizer-${randomUUID()}`;
  /** Every 12 characters of the secrets' random parts: a leak of a piece of a key counts too. */
  const pieces = [...tenantKeys, summarizerKey].flatMap((secret) => {
    const random = secret.slice(-36);
    return Array.from({ length: random.length - 11 }, (_, index) => random.slice(index, index + 12));
  });
  const logLines: string[] = [];
  const answers: string[] = [];
  let summarizer: ChatCompletionsServer;
  let close: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    summarizer = await startChatCompletionsServer();
    process.env.SECURITY_TEST_SUMMARIZER_KEY = summarizerKey;
    const summaries = settingsFile({
      default: 'local',
      providers: { claude: 'leaky' },
      summarizers: {
        leaky: { baseUrl: summarizer.url, model: 'm', apiKeyEnv: 'SECURITY_TEST_SUMMARIZER_KEY', timeoutMs: 5000 },
      },
    });
    // Built here rather than by startTestService, to capture every log line at trace level.
    const neo4j = inject('neo4j');
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'trace',
      THREADLINE_API_KEYS: tenantKeys.map((key, index) => `${key}=${fileTenant(`secrets-${index}`)}`).join(','),
      THREADLINE_SUMMARIES_FILE: summaries,
    });
    const driver = createDriver(neo4j);
    const logger = createLogger(config.logLevel, { write: (line: string) => void logLines.push(line) });
    const service = await startService(
      { ...config, neo4j: { ...config.neo4j, database: neo4j.database } },
      driver,
      logger,
    );
    url = service.url;
    close = async () => {
      await service.close();
      await driver.close();
    };
  });
  afterAll(async () => {
    await close?.();
    await summarizer?.close();
    delete process.env.SECURITY_TEST_SUMMARIZER_KEY;
  });

  /** Every answer is kept, to be searched for the secrets with the log lines. */
  async function send(authorization: string | undefined, query: string, variables: Record<string, unknown> = {}) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
      body: JSON.stringify({ query, variables }),
    });
    const text = await response.text();
    answers.push(text);
    return { status: response.status, body: JSON.parse(text) };
  }
  const asTenant = (query: string, variables?: Record<string, unknown>) =>
    send(`Bearer ${tenantKeys[0]}`, query, variables);

  it('never appear in a log line or an answer, through auth failures, errors and a failing summarizer', async () => {
    const [key, otherKey] = tenantKeys as [string, string];
    const wrong = [
      undefined,
      '',
      `Bearer ${key.slice(0, -1)}`,
      `Bearer ${key}x`,
      `Bearer ${key.toUpperCase()}`,
      `Bearer ${key},${otherKey}`,
      `Basic ${Buffer.from(`u:${key}`).toString('base64')}`,
      key,
    ];
    for (const authorization of wrong) expect((await send(authorization, '{ __typename }')).status).toBe(401);
    await asTenant('{ thread(');
    await asTenant('{ threadz { id } }');
    await asTenant('mutation { completeRun(input: { runId: "nope" }) { id } }');

    // The summarizer refuses the key and echoes it back, as real ones do, once where the service
    // cuts its excerpt of the answer; then it answers garbage.
    const echo = JSON.stringify({
      error: { message: `Incorrect API key provided: ${summarizerKey}`, type: 'invalid_request_error' },
    });
    const modes = [
      { kind: 'fail' as const, status: 401, body: echo },
      { kind: 'fail' as const, status: 502, body: `${'e'.repeat(170)} ${summarizerKey}` },
      { kind: 'garbage' as const },
    ];
    for (const mode of modes) {
      summarizer.setMode(mode);
      const threadId = (await asTenant('mutation { createThread(input: {}) { id } }')).body.data.createThread.id;
      const first = (
        await asTenant('mutation($input: StartRunInput!) { startRun(input: $input) { run { id } } }', {
          input: { threadId, provider: 'codex', userMessage: 'one' },
        })
      ).body.data.startRun;
      await asTenant('mutation($input: CompleteRunInput!) { completeRun(input: $input) { id } }', {
        input: { runId: first.run.id, assistantMessage: 'done' },
      });
      const second = (
        await asTenant(
          'mutation($input: StartRunInput!) { startRun(input: $input) { run { id plan { reasons } } handoff { id source } } }',
          { input: { threadId, provider: 'claude', userMessage: 'two' } },
        )
      ).body.data.startRun;
      expect(second.handoff.source).toBe('local');
      const read = await asTenant(
        'query($id: ID!) { thread(id: $id) { handoffs { status source failureReason summaryText } } }',
        { id: threadId },
      );
      const failed = read.body.data.thread.handoffs.find((handoff: { status: string }) => handoff.status === 'FAILED');
      expect(failed.source).toBe('configured:leaky');
      expect(failed.failureReason).toMatch(mode.kind === 'fail' ? /HTTP/ : /not JSON/);
    }
    // The key was in play: the summarizer received it.
    expect(summarizer.requests.map((request) => request.headers.authorization)).toContain(`Bearer ${summarizerKey}`);
    // The searches below have something to search: the refusals and errors were logged.
    const logged = logLines.join('');
    expect(logged).toMatch(/refused a request without a valid bearer token/);
    expect(logged).toMatch(/GraphQL error/);

    for (const text of [...logLines, ...answers]) {
      const leaked = pieces.find((piece) => text.includes(piece));
      expect(
        leaked,
        `a secret in: ${text.slice(Math.max(0, text.indexOf(leaked ?? '') - 300), text.indexOf(leaked ?? '') + 50)}`,
      ).toBeUndefined();
    }
  });
});
