/**
 * Type-level checks of WebSocket endpoints, compiled by `npm run typecheck` (never run):
 * hooks typed from a route pattern, `attach` on what Express, Connect and node:http give.
 */
import express from 'express';
import http from 'node:http';
import https from 'node:https';
import {
  mountEndpoints,
  type EndpointWebSocket,
  type WebSocketContext,
  type WebSocketHandler,
} from '../../src/index';

export const websocket: WebSocketHandler<'/chat/[room]/[...rest]'> = {
  upgrade(request, { params }) {
    const room: string = params.room;
    const rest: string[] = params.rest;
    if (!request.headers.get('cookie')) return new Response(null, { status: 401 });
    return room !== rest.join('/');
  },
  open(socket: EndpointWebSocket, context: WebSocketContext<'/chat/[room]/[...rest]'>) {
    socket.send(context.params.room);
    socket.send(new Uint8Array([1]));
    socket.send(new ArrayBuffer(1));
  },
  async message(socket, message) {
    if (typeof message === 'string') socket.send(message.toUpperCase());
    else socket.send(message.subarray(1));
  },
  close(_socket, { code, reason }) {
    const closed: [number, string] = [code, reason];
    return closed;
  },
  error(socket, error) {
    socket.close(1011, error.message);
  },
  drain(socket) {
    const ok: boolean = socket.send('more');
    return ok && socket.bufferedAmount === 0 && socket.readyState === 1 && socket.protocol === '';
  },
};

export const noParams: WebSocketHandler = {
  message(_socket, _message, { params, request, route, mountPath }) {
    const id: string | string[] | undefined = params.id;
    return [id, request.url, route, mountPath];
  },
};

export async function attaching(): Promise<void> {
  const app = express();
  const endpoints = await mountEndpoints(app, { dir: 'app' });
  endpoints.attach(app.listen(0), {
    mountPath: '/v1',
    maxMessageSize: 4096,
    pingInterval: false,
    closeTimeout: 1000,
  });
  endpoints.attach(http.createServer(endpoints));
  endpoints.attach(https.createServer({}, app));
  // @ts-expect-error attach takes a server
  endpoints.attach(app);
}

// An upgrade hook accepts with nothing or true, refuses with false or a Response; anything else is a mistake.
export const mistaken: WebSocketHandler = {
  // @ts-expect-error a string neither accepts nor refuses
  upgrade: () => 'yes',
};
