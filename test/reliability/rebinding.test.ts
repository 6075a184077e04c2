// DNS rebinding: a web page whose name resolves to 127.0.0.1 reaches the local service with a foreign
// Host, and a browser sends a foreign Origin. Over HTTP and WebSocket, without keys (the default local
// mode) and with them, such requests are refused with FORBIDDEN and write nothing; the service's own
// names and origin, and clients that send no Origin, are served.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestService, uniqueId, type TestService } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';
import { SINGLE_TENANT } from '../../src/config.js';

const KEY = uniqueId('rebinding-key');
let local: TestService;
let keyed: TestService;
beforeAll(async () => {
  // A service on a developer's machine, without keys: what a rebound name reaches.
  local = await startTestService({}, { tenant: SINGLE_TENANT });
  keyed = await startTestService({
    THREADLINE_API_KEYS: `${KEY}=${fileTenant()}`,
    THREADLINE_PUBLIC_HOSTS: 'threadline.example.test',
  });
});
afterAll(async () => {
  await local?.close();
  await keyed?.close();
});

/** A createThread POSTed with the given headers (Host included, which fetch does not let one set). */
function post(
  t: TestService,
  headers: Record<string, string>,
  threadId: string,
): Promise<{ status: number; body: any }> {
  const url = new URL(t.service.url);
  const body = JSON.stringify({ query: `mutation { createThread(input: { id: "${threadId}", title: "t" }) { id } }` });
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The HTTP status of a WebSocket upgrade at /graphql with the given headers; 101 when accepted. */
function upgrade(t: TestService, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(t.service.url.replace('http', 'ws'), 'graphql-transport-ws', { headers });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('open', () => (socket.close(), resolve(101)));
    socket.once('error', reject);
  });
}

async function threadExists(t: TestService, id: string, token?: string): Promise<boolean> {
  const data = await t.ok<{ thread: { id: string } | null }>(`{ thread(id: "${id}") { id } }`, {}, token);
  return data.thread !== null;
}

describe('a local service and a web page under a rebound name', () => {
  const own = () => `127.0.0.1:${local.service.port}`;

  it.each([
    ['a foreign Host', () => ({ host: `attacker.example:${local.service.port}` })],
    ['a foreign Origin', () => ({ host: own(), origin: 'http://evil.example' })],
    ['the right Host but an Origin on another port', () => ({ host: own(), origin: 'http://127.0.0.1:1' })],
    ['an opaque Origin', () => ({ host: own(), origin: 'null' })],
  ])('refuses HTTP with %s, and writes nothing', async (_name, headers) => {
    const id = uniqueId('rebound');
    const answer = await post(local, headers(), id);
    expect(answer.status).toBe(403);
    expect(answer.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await threadExists(local, id)).toBe(false);
  });

  it('refuses WebSocket upgrades with a foreign Host or Origin', async () => {
    expect(await upgrade(local, { origin: 'http://evil.example' })).toBe(403);
    expect(await upgrade(local, { host: `attacker.example:${local.service.port}` })).toBe(403);
    expect(await upgrade(local, {})).toBe(101);
    expect(await upgrade(local, { origin: `http://${own()}` })).toBe(101);
  });

  it.each([
    ['its loopback address', () => ({ host: own() })],
    ['localhost', () => ({ host: `localhost:${local.service.port}` })],
    ['its own origin', () => ({ host: own(), origin: `http://${own()}` })],
  ])('serves a request to %s', async (_name, headers) => {
    const id = uniqueId('own');
    expect((await post(local, headers(), id)).status).toBe(200);
    expect(await threadExists(local, id)).toBe(true);
  });

  it('keeps /healthz and /readyz open to probes that ask by any name', async () => {
    const probe = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(local.service.url);
        httpRequest({ host: url.hostname, port: url.port, path, headers: { host: 'pod.internal' } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    expect(await probe('/healthz')).toBe(200);
    expect(await probe('/readyz')).toBe(200);
    expect(await probe('/')).toBe(403);
  });
});

describe('with API keys, the same checks by default', () => {
  const auth = { authorization: `Bearer ${KEY}` };

  it('refuses a foreign Host or Origin even with a valid key, and serves the configured public host', async () => {
    const refused = uniqueId('keyed');
    expect((await post(keyed, { ...auth, host: 'attacker.example' }, refused)).status).toBe(403);
    expect((await post(keyed, { ...auth, origin: 'http://evil.example' }, refused)).status).toBe(403);
    expect(await upgrade(keyed, { ...auth, origin: 'http://evil.example' })).toBe(403);
    expect(await threadExists(keyed, refused, KEY)).toBe(false);

    const served = uniqueId('keyed');
    const answer = await post(keyed, { ...auth, host: 'threadline.example.test' }, served);
    expect(answer).toMatchObject({ status: 200, body: { data: { createThread: { id: served } } } });
    expect(await threadExists(keyed, served, KEY)).toBe(true);
  });
});
