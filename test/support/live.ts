// A graphql-ws client over a real WebSocket to a test service, as a product UI would hold one.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestService } from './service.js';

export interface ClientOptions {
  /** Sent in connection_init as { authorization: "Bearer <key>" }; the service's own key (apiKey) by default. */
  token?: string;
  /** Sent as the upgrade request's Authorization header instead. */
  headerToken?: string;
}

export interface Closed {
  code: number;
  reason: string;
}

export interface LiveClient {
  client: Client;
  /** Resolves when the server acknowledged the connection. */
  connected: Promise<void>;
  /** Resolves with the first close of the socket. */
  closed: Promise<Closed>;
  /** Bytes of the messages the server sent on the socket so far. */
  bytesReceived(): number;
  dispose(): Promise<void>;
}

export function liveClient(t: TestService, options: ClientOptions = {}): LiveClient {
  const headers = options.headerToken ? { authorization: `Bearer ${options.headerToken}` } : undefined;
  const token = 'token' in options || options.headerToken ? options.token : t.apiKey;
  let received = 0;
  class Socket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers });
      this.on('message', (data: Buffer) => (received += data.length));
    }
  }
  let onClosed: (closed: Closed) => void = () => undefined;
  const closed = new Promise<Closed>((resolve) => (onClosed = resolve));
  let onConnected: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (onConnected = resolve));
  const client = createClient({
    url: t.service.url.replace(/^http/, 'ws'),
    webSocketImpl: Socket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : undefined,
    retryAttempts: 0,
    on: {
      connected: () => onConnected(),
      closed: (event) =>
        onClosed({ code: (event as { code: number }).code, reason: String((event as { reason: unknown }).reason) }),
    },
  });
  return { client, connected, closed, bytesReceived: () => received, dispose: () => client.dispose() as Promise<void> };
}

/** One subscription's results as they arrive, and how it ended. */
export interface Subscription {
  results: any[];
  /** The `error` sink's argument: GraphQL errors, or the socket's close event. */
  failure: unknown;
  completed: boolean;
  /** Waits until `count` results arrived (or the subscription ended) and returns the results so far. */
  take(count: number): Promise<any[]>;
  /** Waits until it failed or completed. */
  ended(): Promise<void>;
  unsubscribe(): void;
}

export function subscribe(live: LiveClient, query: string, variables: Record<string, unknown> = {}): Subscription {
  const waiters = new Set<() => void>();
  const wake = () => {
    const woken = [...waiters];
    waiters.clear();
    woken.forEach((waiter) => waiter());
  };
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise<void>((resolve) => waiters.add(resolve));
  };
  const subscription: Subscription = {
    results: [],
    failure: null,
    completed: false,
    take: async (count) => {
      await until(
        () => subscription.results.length >= count || subscription.failure !== null || subscription.completed,
      );
      return subscription.results.slice(0, count);
    },
    ended: () => until(() => subscription.failure !== null || subscription.completed),
    unsubscribe: () => undefined,
  };
  subscription.unsubscribe = live.client.subscribe(
    { query, variables },
    {
      next: (result) => (subscription.results.push(result), wake()),
      error: (error) => ((subscription.failure = error), wake()),
      complete: () => ((subscription.completed = true), wake()),
    },
  );
  return subscription;
}
