import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createChatCompletionsSummarizer,
  SummarizerError,
  type ChatCompletionsConfig,
  type SummaryRequest,
} from '../../src/summarizers/chatCompletions.js';
import { startChatCompletionsServer, type ChatCompletionsServer } from '../support/chatCompletionsServer.js';

const KEY_ENV = 'THREADLINE_TEST_SUMMARIZER_KEY';
const API_KEY = 'sk-test-0123456789abcdef-SECRET';
const ENV: NodeJS.ProcessEnv = { [KEY_ENV]: API_KEY };

const REQUEST: SummaryRequest = {
  document: '## Facts\n- goal: ship the parser\n## Checkpoint\nsrc/parser.ts changed; `npm test` failed once',
  budgetChars: 1234,
  targetProvider: 'provider-zeta',
  strategy: 'delta_since_target_last_seen',
};

let server: ChatCompletionsServer;

function config(overrides: Partial<ChatCompletionsConfig> = {}): ChatCompletionsConfig {
  return {
    name: 'remote-test',
    baseUrl: server.url,
    model: 'summary-model-x',
    apiKeyEnv: KEY_ENV,
    timeoutMs: 5_000,
    ...overrides,
  };
}

async function summarizeError(cfg: ChatCompletionsConfig, env: NodeJS.ProcessEnv = ENV): Promise<SummarizerError> {
  const outcome = await createChatCompletionsSummarizer(cfg, env)
    .summarize(REQUEST)
    .then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  if (outcome.ok) throw new Error(`expected summarize to fail, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(SummarizerError);
  const error = outcome.error as SummarizerError;
  expect(error.summarizer).toBe('remote-test');
  expectNoKey(error);
  return error;
}

function expectNoKey(error: SummarizerError): void {
  for (const text of [
    error.message,
    String(error),
    error.stack ?? '',
    JSON.stringify(error),
    String(error.cause ?? ''),
  ]) {
    expect(text).not.toContain(API_KEY);
  }
}

beforeAll(async () => {
  server = await startChatCompletionsServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.setMode({ kind: 'reply', content: 'canned summary' });
});

describe('chat-completions summarizer: request', () => {
  it('POSTs the OpenAI wire format to {baseUrl}/chat/completions', async () => {
    await createChatCompletionsSummarizer(config(), ENV).summarize(REQUEST);

    expect(server.requests).toHaveLength(1);
    const recorded = server.requests[0]!;
    expect(recorded.method).toBe('POST');
    expect(recorded.path).toBe('/v1/chat/completions');
    expect(recorded.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(recorded.headers['content-type']).toMatch(/^application\/json/);

    const body = recorded.body as {
      model: unknown;
      messages: Array<{ role: unknown; content: unknown }>;
      temperature: unknown;
    };
    expect(body.model).toBe('summary-model-x');
    expect(body.temperature).toBe(0);
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    const [system, user] = body.messages;
    expect(user!.content).toBe(REQUEST.document);
    expect(typeof system!.content).toBe('string');
    const instructions = system!.content as string;
    expect(instructions).toContain('1234');
    expect(instructions).toContain('provider-zeta');
    expect(instructions).not.toContain(REQUEST.document);
  });

  it('accepts a baseUrl with a trailing slash', async () => {
    await createChatCompletionsSummarizer(config({ baseUrl: `${server.url}/` }), ENV).summarize(REQUEST);
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions']);
  });

  it('sends no Authorization header when apiKeyEnv is null', async () => {
    await createChatCompletionsSummarizer(config({ apiKeyEnv: null }), ENV).summarize(REQUEST);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('reads the key from the environment at call time', async () => {
    const env: NodeJS.ProcessEnv = {};
    const summarizer = createChatCompletionsSummarizer(config(), env);
    env[KEY_ENV] = 'sk-later-key';
    await summarizer.summarize(REQUEST);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-later-key');
  });
});

describe('chat-completions summarizer: answers', () => {
  it('returns the canned answer', async () => {
    const summary = await createChatCompletionsSummarizer(config(), ENV).summarize(REQUEST);
    expect(summary).toBe('canned summary');
  });

  it('trims the answer but does not cut it to the budget', async () => {
    const long = 'x'.repeat(REQUEST.budgetChars! + 100);
    server.setMode({ kind: 'reply', content: `\n  ${long}  \n` });
    const summary = await createChatCompletionsSummarizer(config(), ENV).summarize(REQUEST);
    expect(summary).toBe(long);
  });

  it('exposes the configured name', () => {
    expect(createChatCompletionsSummarizer(config(), ENV).name).toBe('remote-test');
  });
});

describe('chat-completions summarizer: failures', () => {
  it('times out on a slow server within bounded time', async () => {
    server.setMode({ kind: 'slow', delayMs: 10_000, content: 'too late' });
    const started = Date.now();
    const error = await summarizeError(config({ timeoutMs: 150 }));
    const elapsed = Date.now() - started;
    expect(error.reason).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(100);
    expect(elapsed).toBeLessThan(3_000);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a non-2xx answer as http, with the status and a body excerpt', async () => {
    server.setMode({ kind: 'fail', status: 503 });
    const error = await summarizeError(config());
    expect(error.reason).toBe('http');
    expect(error.status).toBe(503);
    expect(error.message).toContain('503');
    expect(error.message).toContain('simulated failure');
  });

  it('keeps the key out of an http error even when the server echoes it, and cuts long bodies', async () => {
    server.setMode({ kind: 'fail', status: 401, body: `invalid key Bearer ${API_KEY} ${'y'.repeat(5_000)}` });
    const error = await summarizeError(config());
    expect(error.reason).toBe('http');
    expect(error.message).toContain('401');
    expect(error.message).toContain('invalid key');
    expect(error.message.length).toBeLessThan(1_000);
  });

  it('reports a body that is not JSON as invalid_response', async () => {
    server.setMode({ kind: 'garbage' });
    const error = await summarizeError(config());
    expect(error.reason).toBe('invalid_response');
  });

  it('reports empty content as invalid_response', async () => {
    server.setMode({ kind: 'reply', content: '   ' });
    const error = await summarizeError(config());
    expect(error.reason).toBe('invalid_response');
  });

  it('reports a missing key without contacting the server', async () => {
    const error = await summarizeError(config(), {});
    expect(error.reason).toBe('missing_api_key');
    expect(error.message).toContain(KEY_ENV);
    expect(server.requests).toHaveLength(0);
  });

  it('reports an empty key as missing_api_key', async () => {
    const error = await summarizeError(config(), { [KEY_ENV]: '' });
    expect(error.reason).toBe('missing_api_key');
    expect(server.requests).toHaveLength(0);
  });

  it('reports a closed server as network', async () => {
    const closed = await startChatCompletionsServer();
    const url = closed.url;
    await closed.close();
    const error = await summarizeError(config({ baseUrl: url }));
    expect(error.reason).toBe('network');
    expect(closed.requests).toHaveLength(0);
  });
});
