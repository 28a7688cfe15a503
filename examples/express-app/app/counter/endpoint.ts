/**
 * /counter — a live counter over a WebSocket: every open page sees the count, and "+1" from any
 * of them raises it for all. The home page connects with `new WebSocket('ws://…/counter')`;
 * server.js serves it with `endpoints.attach(server)`.
 */
import type { EndpointWebSocket, WebSocketHandler } from 'express-file-endpoints';

let count = 0;
const sockets = new Set<EndpointWebSocket>();

function broadcast(): void {
  for (const socket of sockets) socket.send(JSON.stringify({ count }));
}

export const websocket: WebSocketHandler = {
  open(socket) {
    sockets.add(socket);
    socket.send(JSON.stringify({ count }));
  },
  message(_socket, message) {
    if (message === 'increment') {
      count += 1;
      broadcast();
    }
  },
  close(socket) {
    sockets.delete(socket);
  },
};
