/** WebSocket hooks beside HTTP handlers: what an endpoint exports, and what its hooks get. */
import type { Params, ParamsOf } from './handlers';
import type { Topic, TopicDataOf } from './topics';

/**
 * An endpoint's `export const websocket = { … }`: the hooks of a WebSocket served on the
 * endpoint's route, in the shape Bun and crossws (Nitro, h3) use. Every hook is optional. The same
 * `context` object goes to every hook of one connection, from `upgrade` to `close`.
 */
export interface WebSocketHandler<P extends Params | string = Params> {
  /**
   * Runs on the upgrade request, after the tree's and the folders' middleware. Return nothing (or `true`)
   * to accept; return (or throw) a `Response`, e.g. `new Response(null, { status: 401 })`, or `false`
   * (a `403`) to refuse. Any other value is an error, answered `500`.
   */
  upgrade?: (
    request: Request,
    context: WebSocketContext<P>,
  ) => void | boolean | Response | Promise<void | boolean | Response>;
  open?: (socket: EndpointWebSocket, context: WebSocketContext<P>) => unknown;
  /** A text frame arrives as a string, a binary frame as a `Uint8Array` (a Node `Buffer`). */
  message?: (
    socket: EndpointWebSocket,
    message: string | Uint8Array,
    context: WebSocketContext<P>,
  ) => unknown;
  close?: (
    socket: EndpointWebSocket,
    details: WebSocketCloseDetails,
    context: WebSocketContext<P>,
  ) => unknown;
  /** A protocol error (a message over the size limit, a malformed frame); the socket closes after it. */
  error?: (socket: EndpointWebSocket, error: Error, context: WebSocketContext<P>) => unknown;
  /** What `send()` queued has been written out: `send()` returned `false`, and may be called again. */
  drain?: (socket: EndpointWebSocket, context: WebSocketContext<P>) => unknown;
}

/** What WebSocket hooks get beside the socket: the route's params and the upgrade request. */
export interface WebSocketContext<P extends Params | string = Params> {
  params: P extends string ? ParamsOf<P> : P;
  /** The upgrade request: its URL, headers and cookies. */
  request: Request;
  /** The route pattern that matched: `/chat/[room]`. */
  route: string;
  /**
   * Where the tree is mounted: as given to `attach(server, { mountPath })`, or else the mount path
   * the socket's path is under among those the tree's middleware was reached at; `''` at the root.
   */
  mountPath: string;
  /**
   * What the tree's and the folders' middleware put on `context.locals` while the upgrade went through
   * them (the user a guard found), the same object for every hook of the connection.
   */
  locals: Record<string, unknown>;
}

/** The server's end of one WebSocket connection. */
export interface EndpointWebSocket {
  /**
   * Queues a message: a string is sent as text, bytes as binary. Returns `false` when more is
   * queued than the socket's buffer holds: wait for the handler's `drain` hook before sending more.
   */
  send(data: string | ArrayBuffer | ArrayBufferView): boolean;
  /** Starts the closing handshake; `code` 1000 by default. */
  close(code?: number, reason?: string): void;
  /** 0 connecting, 1 open, 2 closing, 3 closed (the `WebSocket` constants). */
  readonly readyState: number;
  /** Bytes queued and not yet written to the network. */
  readonly bufferedAmount: number;
  /** The subprotocol agreed on, `''` when none. */
  readonly protocol: string;
  /**
   * From now on, this socket gets every message published to `topic`, here or in another process
   * of the mount, until it unsubscribes or closes (it is unsubscribed from every topic then).
   */
  subscribe(topic: Topic): void;
  unsubscribe(topic: Topic): void;
  isSubscribed(topic: Topic): boolean;
  /** Sends `data` to every subscriber of `topic` but this socket, in every process. */
  publish<T extends Topic>(topic: T, data: TopicDataOf<T>): void;
  /** The topics this socket is subscribed to. */
  readonly subscriptions: string[];
}

export interface WebSocketCloseDetails {
  /** The close code: 1000 normal, 1001 going away, 1005 none given, 1006 the connection dropped. */
  code: number;
  reason: string;
}
