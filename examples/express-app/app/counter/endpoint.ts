/**
 * /counter — a live counter: `POST /counter` raises it, and every socket open on `/counter` hears
 * the new count, whichever process served the POST. The HTTP handler publishes to the `counter`
 * topic; each socket subscribes to it when it opens. The home page shows it, and its "+1" button
 * POSTs. With REDIS_URL set, server.js mounts the tree with the Redis backplane, so the sockets of
 * every process hear every POST (the count itself lives in each process's memory: a real app keeps
 * it in its database).
 */
import type { EndpointContext, WebSocketHandler } from 'express-file-endpoints';

let count = 0;

export const websocket: WebSocketHandler = {
  open(socket) {
    socket.subscribe('counter');
    socket.send(JSON.stringify({ count }));
  },
};

export function GET() {
  return Response.json({ count });
}

export function POST(_request: Request, { publish }: EndpointContext) {
  count += 1;
  publish?.('counter', { count });
  return Response.json({ count });
}
