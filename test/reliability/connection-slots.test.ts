// Strangers cannot hold every connection slot. Sockets that send half a request line, or open a
// WebSocket and never send connection_init, each reopened as soon as it is closed, fill the caps;
// authenticated clients are served all the same: at the cap the oldest stranger is shed for them.
// Bounded floods (twice the caps), loopback only.
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestService, uniqueId, type TestService } from '../support/service.js';
import { fileTenant } from '../support/tenants.js';

const KEY = uniqueId('slots-key');
const MAX_CONNECTIONS = 32;
const MAX_SOCKETS = 16;
let t: TestService;
beforeAll(async () => {
  t = await startTestService({
    THREADLINE_API_KEYS: `${KEY}=${fileTenant()}`,
    THREADLINE_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
    THREADLINE_MAX_SUBSCRIPTION_CONNECTIONS: String(MAX_SOCKETS),
  });
});
afterAll(async () => {
  await t?.close();
});

/** `count` connections that `open` makes, each made again when it closes, until stopped. */
function flood(count: number, open: () => { once(event: 'close', done: () => void): unknown }) {
  let stopped = false;
  const live = new Set<{ once(event: 'close', done: () => void): unknown }>();
  const keep = () => {
    if (stopped) return;
    const connection = open();
    live.add(connection);
    connection.once('close', () => {
      live.delete(connection);
      setTimeout(keep, 5);
    });
  };
  for (let i = 0; i < count; i++) keep();
  return {
    stop: (close: (connection: any) => void) => {
      stopped = true;
      for (const connection of live) close(connection);
    },
  };
}

/** An authenticated request on a connection of its own; the answer's status, or the network error's code. */
function authenticatedRequest(): Promise<number | string> {
  const url = new URL(t.service.url);
  const body = JSON.stringify({ query: '{ __typename }' });
  return new Promise((resolve) => {
    const sent = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'content-length': body.length },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    sent.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    sent.end(body);
  });
}

/** An authenticated WebSocket: whether its connection_init is acknowledged. */
function subscriberAdmitted(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new WebSocket(t.service.url.replace('http', 'ws'), 'graphql-transport-ws');
    socket.once('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${KEY}` } })),
    );
    socket.once('message', (data) => {
      resolve((JSON.parse(String(data)) as { type: string }).type === 'connection_ack');
      socket.close();
    });
    socket.once('unexpected-response', () => resolve(false));
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('connection slots at the cap', () => {
  it('serves authenticated requests while half-sent requests fill every slot', async () => {
    const url = new URL(t.service.url);
    const strangers = flood(MAX_CONNECTIONS * 2, () => {
      const socket = connect(Number(url.port), url.hostname);
      socket.on('error', () => undefined);
      socket.write(`POST /graphql HTTP/1.1\r\nHost: ${url.host}\r\n`);
      return socket;
    });
    await settle();
    const answers: (number | string)[] = [];
    for (let i = 0; i < 20; i++) answers.push(await authenticatedRequest());
    strangers.stop((socket: Socket) => socket.destroy());
    expect(answers).toEqual(Array(20).fill(200));
  });

  it('admits authenticated subscribers while silent WebSockets fill every slot', async () => {
    const strangers = flood(MAX_SOCKETS * 2, () => {
      const socket = new WebSocket(t.service.url.replace('http', 'ws'), 'graphql-transport-ws');
      socket.on('error', () => undefined);
      return socket;
    });
    await settle();
    const admitted: boolean[] = [];
    for (let i = 0; i < 10; i++) admitted.push(await subscriberAdmitted());
    strangers.stop((socket: WebSocket) => socket.terminate());
    expect(admitted).toEqual(Array(10).fill(true));
  });
});
