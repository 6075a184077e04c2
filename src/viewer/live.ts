// Following a thread while the page is open: Subscription.threadChanged over a WebSocket at the same
// /graphql address, speaking the graphql-transport-ws protocol (the service's graphql-ws server) in
// the few messages a single subscription needs, so the page loads no client library. A lost socket
// is opened again after a pause, asking for the changes after the last one seen, so none is missed.
import type { FollowThreadSubscription } from './generated/graphql.js';
import { FOLLOW_SUBSCRIPTION } from './queries.js';

const PROTOCOL = 'graphql-transport-ws';
const SUBSCRIPTION_ID = 'follow';
const RECONNECT_MS = { first: 1_000, most: 15_000 };
// Closed by the service for a refused key (4403) or a bad request (4400): opening again cannot help.
const FINAL_CLOSE_CODES = new Set([4400, 4403]);

/** What the service sends on the socket, as far as one subscription reads it. */
type ServerMessage =
  | { type: 'connection_ack' | 'ping' | 'pong' }
  | { type: 'next'; payload: { data?: FollowThreadSubscription | null } }
  | { type: 'error'; payload: { message: string }[] }
  | { type: 'complete' };

export interface Following {
  stop(): void;
}

export interface FollowHandlers {
  /** A change after `afterSequence` was committed (several in a burst may come as one call). */
  changed: () => void;
  /** Whether the page is following, in words for its status line; null when all is well. */
  trouble: (message: string | null) => void;
}

/** Follows thread `threadId` from the change after `afterSequence` until stop(). */
export function followThread(
  graphqlUrl: string,
  token: string | null,
  threadId: string,
  afterSequence: number,
  handlers: FollowHandlers,
): Following {
  const url = new URL(graphqlUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  let last = afterSequence;
  let pause = RECONNECT_MS.first;
  let socket: WebSocket | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const send = (message: object) => socket?.send(JSON.stringify(message));
  const connect = () => {
    socket = new WebSocket(url.href, PROTOCOL);
    socket.addEventListener('open', () =>
      send({ type: 'connection_init', payload: token ? { authorization: `Bearer ${token}` } : {} }),
    );
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as ServerMessage;
      switch (message.type) {
        case 'connection_ack':
          pause = RECONNECT_MS.first;
          handlers.trouble(null);
          send({
            id: SUBSCRIPTION_ID,
            type: 'subscribe',
            payload: { query: FOLLOW_SUBSCRIPTION, variables: { id: threadId, after: last } },
          });
          break;
        case 'ping':
          send({ type: 'pong' });
          break;
        case 'next': {
          // The page reads the thread over HTTP on every change, so an event the service withheld
          // (over its fan-out budget: no thread, resync) is followed like any other.
          const change = message.payload.data?.threadChanged;
          if (change) {
            last = Math.max(last, change.sequence);
            handlers.changed();
          }
          break;
        }
        case 'error':
          stopped = true;
          handlers.trouble(`Live updates stopped: ${message.payload[0]?.message ?? 'the service refused them'}.`);
          socket?.close();
          break;
      }
    });
    socket.addEventListener('close', (event) => {
      if (stopped) return;
      if (FINAL_CLOSE_CODES.has(event.code)) {
        stopped = true;
        handlers.trouble(`Live updates stopped: ${event.reason || `the service closed them (${event.code})`}.`);
        return;
      }
      handlers.trouble('Live updates lost: reconnecting…');
      timer = setTimeout(connect, pause);
      pause = Math.min(pause * 2, RECONNECT_MS.most);
    });
  };
  connect();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      socket?.close();
    },
  };
}
