// Connection slots go to clients that use them. A socket is a stranger until it has sent a whole
// request head (HTTP) or authenticated its connection_init (WebSocket); a stranger gets a short
// deadline to do so, and at the cap the oldest stranger is shed to admit a new connection, so
// sockets that open and say nothing cannot hold every slot. Only when every slot is held by a proven
// client is a new connection refused.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a new connection has to prove itself. */
const STRANGER_DEADLINE_MS = 5_000;

export interface ConnectionSlots {
  /** The socket authenticated (WebSocket): it keeps its slot. */
  prove(socket: Socket): void;
}

export function guardConnectionSlots(server: Server, maxConnections: number): ConnectionSlots {
  const open = new Set<Socket>();
  // Insertion order is age: the first is the oldest stranger.
  const strangers = new Map<Socket, NodeJS.Timeout>();
  const prove = (socket: Socket) => {
    clearTimeout(strangers.get(socket));
    strangers.delete(socket);
  };
  const drop = (socket: Socket) => {
    prove(socket);
    open.delete(socket);
    socket.destroy();
  };
  server.on('connection', (socket: Socket) => {
    if (open.size >= maxConnections) {
      const oldest = strangers.keys().next();
      if (oldest.done) return socket.destroy();
      drop(oldest.value);
    }
    open.add(socket);
    socket.once('close', () => {
      prove(socket);
      open.delete(socket);
    });
    const deadline = setTimeout(() => drop(socket), STRANGER_DEADLINE_MS);
    deadline.unref();
    strangers.set(socket, deadline);
  });
  // A WebSocket's upgrade request proves nothing yet: its connection_init does (see prove).
  server.on('request', (request: { socket: Socket }) => prove(request.socket));
  return { prove };
}
