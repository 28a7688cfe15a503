/**
 * One upgrade request for a route that serves WebSockets, served as any request of the route is
 * (`serveRoute`, traced when something observes requests): the tree's and the folders' middleware,
 * then the route's `websocket.upgrade` hook in the handler's place, so a guard covers sockets too.
 * What comes out is an acceptance (with headers for the 101 answer: a middleware's Set-Cookie) or a
 * refusal, written to the raw socket as a plain HTTP answer.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { toWebRequest } from '../bridge';
import {
  answerForError,
  answerResponse,
  emptyLocals,
  Failure,
  INTERNAL_ERROR,
  type Outcome,
  type OwnAnswer,
  type RouteFront,
  serveRoute,
  type SocketRoute,
  traceRoute,
} from '../dispatch';
import type { CompiledRoute, HandlerEntry } from '../route';
import { isResponse } from '../is-response';
import type { RequestTrace } from '../observe';
import type { Params, WebSocketContext } from '../types';

export type UpgradeDecision = { accepted: true; headers: Headers } | { accepted: false; response: Response };

/**
 * Runs the route's middleware and `upgrade` hook on the request, as the route runs any request of
 * its own; never throws. `refusal` is why the front will not let it run (an origin it does not
 * allow), seen by the trace. `handshakeOver` settles, with the status written (`101`, or the
 * refusal's), once the handshake's answer is written: `after()` callbacks run then, and the trace ends.
 */
export function decideUpgrade(
  route: SocketRoute,
  context: WebSocketContext,
  socket: Duplex,
  handshakeOver: Promise<number>,
  refusal: Error | undefined,
): Promise<UpgradeDecision> {
  const upgrade = new UpgradeFront(route, context, socket, handshakeOver, refusal);
  const decision = { kind: 'handler', entry: upgrade.hook } as const;
  const trace = traceRoute(route, 'GET', decision, context.mountPath);
  return Promise.resolve(serveRoute(upgrade, route, context.params, decision, trace));
}

/** The upgrade request as a Web Request: a GET with the client's headers and no body. */
export function upgradeWebRequest(req: IncomingMessage, url: string): Request {
  return toWebRequest(req, undefined, url, { bodyLimit: false });
}

/**
 * An upgrade request the route answers: what the endpoint's call knows of it (no Node response exists
 * for it, and it is not one of the mount's requests in flight), and what its answer decides.
 */
class UpgradeFront implements RouteFront<Promise<UpgradeDecision>> {
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
    private readonly handshakeOver: Promise<number>,
    private readonly refused: Error | undefined,
  ) {}

  refusal(): Error | undefined {
    return this.refused;
  }

  /** Only a refusal comes here: the hook stands for the handler, so the route has one for GET. */
  async writeOwnAnswer(why: OwnAnswer | Error): Promise<UpgradeDecision> {
    const answer = why instanceof Error ? answerForError(why) : undefined;
    return { accepted: false, response: answerResponse(answer ?? INTERNAL_ERROR) };
  }

  /** Once the handshake is over: with the status written, or none when the client left first. */
  endTrace(trace: RequestTrace, failed: boolean): void {
    if (failed) return trace.finish(undefined, true);
    void this.#over().then((status) => trace.finish(status, status === undefined));
  }

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
    void this.#over().then(() => run());
  }

  /** Settles once the handshake's answer is written (its status), or the client has gone (`undefined`). */
  #over(): Promise<number | undefined> {
    const socket = this.socket;
    if (socket.destroyed) return new Promise((resolve) => setImmediate(resolve, undefined));
    return new Promise((resolve) => {
      const gone = () => resolve(undefined);
      socket.once('close', gone);
      void this.handshakeOver.then((status) => {
        socket.off('close', gone);
        resolve(status);
      });
    });
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
