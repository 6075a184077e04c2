/**
 * A tiny OpenAI-compatible chat-completions server for tests, listening on 127.0.0.1 with an ephemeral port.
 * It answers POST {url}/chat/completions (url ends in /v1) according to the current mode and records
 * every request it receives, whatever its path.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or null when the body was empty or not JSON (see rawBody). */
  body: unknown;
  rawBody: string;
}

export type ChatCompletionsServerMode =
  | { kind: 'reply'; content: string }
  | { kind: 'slow'; delayMs: number; content: string }
  /** Answers `content` once `until` settles: the test acts while a request is known to be in flight. */
  | { kind: 'gated'; until: Promise<void>; content: string }
  /** Answers `status` with an OpenAI-style error body, or with `body` verbatim when given. */
  | { kind: 'fail'; status: number; body?: string }
  /** Answers 200 with a body that is not JSON. */
  | { kind: 'garbage' };

export interface ChatCompletionsServer {
  /** Base URL, e.g. http://127.0.0.1:PORT/v1 (no trailing slash). */
  url: string;
  requests: RecordedRequest[];
  setMode(mode: ChatCompletionsServerMode): void;
  close(): Promise<void>;
}

const DEFAULT_CANNED_SUMMARY = 'canned summary';
const BASE_PATH = '/v1';

function completion(model: unknown, content: string): string {
  return JSON.stringify({
    id: `chatcmpl-test-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: typeof model === 'string' ? model : 'unknown',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  });
}

function send(res: ServerResponse, status: number, body: string, contentType = 'application/json'): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startChatCompletionsServer(): Promise<ChatCompletionsServer> {
  let mode: ChatCompletionsServerMode = { kind: 'reply', content: DEFAULT_CANNED_SUMMARY };
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let closing: Promise<void> | null = null;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = rawBody === '' ? null : JSON.parse(rawBody);
      } catch {
        body = null;
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, rawBody });

      if (req.method !== 'POST' || req.url !== `${BASE_PATH}/chat/completions`) {
        send(res, 404, JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: 'not_found' } }));
        return;
      }
      const model = (body as { model?: unknown } | null)?.model;
      const current = mode;
      switch (current.kind) {
        case 'reply':
          send(res, 200, completion(model, current.content));
          return;
        case 'slow': {
          const timer = setTimeout(() => {
            timers.delete(timer);
            send(res, 200, completion(model, current.content));
          }, current.delayMs);
          timers.add(timer);
          res.on('close', () => {
            clearTimeout(timer);
            timers.delete(timer);
          });
          return;
        }
        case 'gated':
          void current.until.then(() => send(res, 200, completion(model, current.content)));
          return;
        case 'fail':
          send(
            res,
            current.status,
            current.body ??
              JSON.stringify({ error: { message: `simulated failure ${current.status}`, type: 'server_error' } }),
          );
          return;
        case 'garbage':
          send(res, 200, '<html>this is not a chat completion', 'application/json');
          return;
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${BASE_PATH}`,
    requests,
    setMode(next) {
      mode = next;
    },
    close() {
      if (closing) return closing;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      closing = new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
