/**
 * One upgrade request for a route that serves WebSockets: the tree's and the folders' middleware,
 * then the route's `websocket.upgrade` hook, run on it as on any request of the route, so a guard
 * covers sockets too. What comes out is an acceptance (with headers for the 101 answer: a
 * middleware's Set-Cookie) or a refusal, written to the raw socket as a plain HTTP answer.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { toWebRequest } from '../bridge';
import {
  type CompiledRoute,
  emptyLocals,
  Failure,
  type HandlerEntry,
  type HandlerHost,
  INTERNAL_ERROR,
  type Outcome,
  serveHandler,
} from '../dispatch';
import { isResponse } from '../is-response';
import type { Params, WebSocketContext, WebSocketHandler } from '../types';

export type UpgradeDecision = { accepted: true; headers: Headers } | { accepted: false; response: Response };

/** A route that serves WebSockets. */
export type SocketRoute = CompiledRoute & { socket: WebSocketHandler };

/**
 * Runs the route's middleware and `upgrade` hook on the request, as the route runs any request of
 * its own; never throws. `handshakeOver` settles once the handshake's answer (the 101, or the refusal) is
 * written: `after()` callbacks run then.
 */
export function decideUpgrade(
  route: SocketRoute,
  context: WebSocketContext,
  socket: Duplex,
  handshakeOver: Promise<void>,
): Promise<UpgradeDecision> {
  const upgrade = new UpgradeHost(route, context, socket, handshakeOver);
  return serveHandler(upgrade, route, context.params, upgrade.hook, undefined);
}

/** The upgrade request as a Web Request: a GET with the client's headers and no body. */
export function upgradeWebRequest(req: IncomingMessage, url: string): Request {
  return toWebRequest(req, undefined, url, { bodyLimit: false });
}

/**
 * An upgrade request the route answers: what the endpoint's call knows of it (no Node response exists
 * for it, and it is not one of the mount's requests in flight), and what its answer decides.
 */
class UpgradeHost implements HandlerHost<Promise<UpgradeDecision>> {
  readonly node = undefined;
  /** The `upgrade` hook, in the handler's place behind the route's middleware. */
  readonly hook: HandlerEntry = {
    exportName: 'websocket.upgrade',
    takesArguments: true,
    handler: (request) => this.#askHook(request),
  };
  /**
   * What `next()` gave the middleware for the hook's yes, set only when it said yes. The socket's
   * answer is a `101 Switching Protocols`, which no Response can carry: a success stands for it,
   * whose headers a middleware may add to (a Set-Cookie) for the 101.
   */
  #acceptance: Response | undefined;

  constructor(
    private readonly route: SocketRoute,
    private readonly context: WebSocketContext,
    private readonly socket: Duplex,
    private readonly handshakeOver: Promise<void>,
  ) {}

  async #askHook(request: Request): Promise<Response> {
    const verdict: unknown = await this.route.socket.upgrade?.(request, this.context);
    if (isResponse(verdict)) return verdict;
    if (verdict === false) return new Response(null, { status: 403 });
    if (verdict !== undefined && verdict !== true) {
      throw new TypeError(
        `${this.route.displayPath}: websocket.upgrade returned ${typeof verdict}; return nothing (or true) to accept, false or a Response to refuse`,
      );
    }
    return (this.#acceptance = new Response(null, { status: 200 }));
  }

  /**
   * Accepted only if the hook said yes and what the middleware made of its acceptance is still a
   * success: a guard that answers on its own, or turns the answer into a 401, refuses.
   */
  async write(outcome: Outcome | Promise<Outcome>): Promise<UpgradeDecision> {
    const settled = await outcome;
    if (settled instanceof Failure) {
      return { accepted: false, response: new Response(INTERNAL_ERROR.message, { status: 500 }) };
    }
    if (this.#acceptance === undefined || !settled.ok) return { accepted: false, response: settled };
    return { accepted: true, headers: settled.headers };
  }

  buildRequest(): Request {
    return this.context.request;
  }
  mountPath(): string {
    return this.context.mountPath;
  }
  errorsGoToNext(): boolean {
    return false;
  }
  isExpected(): boolean {
    return this.socket.destroyed;
  }
  /** The middleware fill the connection's own locals, which every later hook reads. */
  /** Past the route's timeout, the handshake is refused (its decision is the error); nothing else runs. */
  timedOut(): void {}

  initialLocals(): Record<string, unknown> {
    return this.context.locals;
  }

  /**
   * `after()` callbacks run once the handshake is over or the client has gone, whichever comes
   * first: not when an accepted socket closes, hours later.
   */
  whenDone(run: () => PromiseLike<unknown> | undefined): void {
    const socket = this.socket;
    let ran = false;
    const once = () => {
      if (ran) return;
      ran = true;
      socket.off('close', once);
      run();
    };
    if (socket.destroyed) return void setImmediate(once);
    socket.once('close', once);
    void this.handshakeOver.then(once);
  }
}

/** The largest refusal body written out; a longer one is cut (it is read before the head is sent). */
const MAX_REFUSAL_BODY = 64 * 1024;

/** Writes a refusal as an HTTP/1.1 answer on the raw socket, then closes it. */
export async function writeRefusal(socket: Duplex, response: Response): Promise<void> {
  const body = await boundedBody(response);
  if (socket.destroyed) return;
  const lines = [`HTTP/1.1 ${response.status} ${statusText(response)}`];
  response.headers.forEach((value, name) => {
    if (!FRAMING.has(name) && name !== 'set-cookie') lines.push(`${name}: ${value}`);
  });
  for (const cookie of response.headers.getSetCookie()) lines.push(`set-cookie: ${cookie}`);
  lines.push(`content-length: ${body.byteLength}`, 'connection: close', '', '');
  socket.end(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]));
}

/** Parameters of a route whose match is known, with the upgrade request's Web view. */
export function socketContext(
  params: Params,
  route: CompiledRoute,
  request: Request,
  mountPath: string,
): WebSocketContext {
  return { params, request, route: route.pattern, mountPath, locals: emptyLocals() };
}

/** Headers this answer sets itself: its length, and the connection's end. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection']);

function statusText(response: Response): string {
  // One that could break the head is replaced by Node's own.
  const own = response.statusText;
  return own && /^[\t\x20-\x7e]*$/.test(own) ? own : (STATUS_CODES[response.status] ?? '');
}

async function boundedBody(response: Response): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body.getReader();
  try {
    while (size < MAX_REFUSAL_BODY) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
      size += value.byteLength;
    }
  } catch {
    // A body stream that fails leaves what was read.
  } finally {
    reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, MAX_REFUSAL_BODY);
}
