/**
 * expressMiddleware(...handlers): Express/Connect middleware (a rate limiter, passport, express-validator,
 * multer, an app's own `(req, res, next)` guards) as a Web middleware, for a folder's `middleware.ts`.
 * It runs them in order with the route's real `req` and `res`, as an Express route runs its handlers:
 *
 * - `req.params` holds the route's params, as Express gives a route's middleware.
 * - `next()`: the next one, then the rest of the tree's chain. What they attached to `req` is the
 *   handler's (`context.node.req.user`), headers they set on `res` go out with its answer, and a body
 *   they read is handed over as one read in front of the tree.
 * - an answer of their own (a 429, a 401, a redirect): the route's answer. The Web middleware outside
 *   get it as a Response with its status and headers, and no body: those bytes are the client's.
 * - `next(err)`, a throw, or (as Express 5 has it) a rejected promise: the request's error, for the
 *   app's error handler.
 */
import { sentAnswer } from '../bridge';
import { methodHasBody } from '../http-methods';
import { renewRequest, requestIfBuilt, WITHOUT_REQUEST } from '../dispatch';
import type { EndpointContext, NodeContext, WebMiddleware } from '../types';
import { describeValue, listWords } from '../words';

/**
 * An Express or Connect middleware, `(req, res, next)`. Typed loosely (`never`) so that any package's
 * own types fit, as `app.use` takes them.
 */
export type ExpressHandler = (req: never, res: never, next: never) => unknown;

/** Middleware, or arrays of them (an express-validator chain), flattened as Express flattens them. */
export type ExpressHandlers = ExpressHandler | readonly ExpressHandlers[];

type NodeHandler = (
  req: NodeContext['req'],
  res: NodeContext['res'],
  next: (error?: unknown) => void,
) => unknown;

/** Set on what `expressMiddleware` returns: the mount refuses it where there is no `req`/`res`. */
const NODE_MIDDLEWARE = Symbol.for('express-file-endpoints.expressMiddleware');

/**
 * @example
 * // app/api/middleware.ts
 * import rateLimit from 'express-rate-limit';
 * export default expressMiddleware(rateLimit({ windowMs: 60_000, limit: 100 }));
 */
export function expressMiddleware(...handlers: ExpressHandlers[]): WebMiddleware {
  const list = flatten(handlers);
  if (list.length === 0) throw new TypeError('expressMiddleware() needs at least one middleware.');
  const middleware: WebMiddleware = (request, next, context) => runHandlers(list, request, next, context);
  Object.defineProperty(middleware, NODE_MIDDLEWARE, { value: true });
  // They run on `req`: the chain builds no Request for them (the costliest part of a request's bridging).
  Object.defineProperty(middleware, WITHOUT_REQUEST, { value: true });
  return middleware;
}

/** Whether `value` came from `expressMiddleware`, and so needs Node's `req` and `res`. */
export function isExpressMiddleware(value: unknown): boolean {
  return typeof value === 'function' && NODE_MIDDLEWARE in value;
}

function flatten(handlers: readonly ExpressHandlers[]): NodeHandler[] {
  const list: NodeHandler[] = [];
  const add = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(add);
    if (typeof value !== 'function') {
      throw new TypeError(
        `expressMiddleware() takes Express middleware, functions (req, res, next), or arrays of them; middleware #${list.length + 1} is ${describeValue(value)}.`,
      );
    }
    // Express tells the kinds apart by their number of parameters, as here.
    if (value.length === 4) {
      throw new TypeError(
        `expressMiddleware(): ${value.name || `middleware #${list.length + 1}`} takes four parameters (err, req, res, next): an error handler, which Express runs only for errors. Keep it in the app, after the endpoints: a folder's errors reach it through next(err).`,
      );
    }
    list.push(value as NodeHandler);
  };
  handlers.forEach(add);
  return list;
}

/** What a middleware did: called `next()`, answered, or failed. */
type Step = 'next' | 'answered' | { error: unknown };

const NEXT = 'next';
const ANSWERED = 'answered';

function runHandlers(
  handlers: readonly NodeHandler[],
  given: Request | undefined,
  next: () => Promise<Response>,
  context: EndpointContext | undefined,
): Promise<Response> {
  const node = context?.node;
  if (context === undefined || node === undefined) return Promise.reject(new Error(NO_NODE));
  const { req, res } = node;
  giveParams(req as { params?: object }, context.params);
  // The chain hands them no Request; one is there when a step outside them needed it. The Node body is
  // theirs to read: that Request's stream lets go of it, and whoever reads it next (a parser, multer)
  // finds it flowing. A body a Web middleware outside has read is gone, for them and the handler, as in
  // any chain.
  const request = given ?? requestIfBuilt(context);
  const body = request !== undefined && methodHasBody(req.method ?? 'GET') && !request.bodyUsed;
  const stopResuming = body ? letGoOfBody(request, req) : undefined;
  const finish = (done: Step): Promise<Response> => {
    stopResuming?.();
    if (done === ANSWERED) return Promise.resolve(sentAnswer(res));
    if (done !== NEXT) return Promise.reject(done.error);
    // The steps inside get a Request of their own, whose body is what the middleware left.
    if (body) renewRequest(context);
    return next();
  };
  // Synchronously while they call next() before returning, as most do: no promise of ours per step.
  const from = (first: number): Promise<Response> => {
    for (let i = first; i < handlers.length; i++) {
      const step = runOne(handlers[i]!, req, res);
      if (step instanceof Promise) return step.then((done) => (done === NEXT ? from(i + 1) : finish(done)));
      if (step !== NEXT) return finish(step);
    }
    return finish(NEXT);
  };
  return from(0);
}

/**
 * The route's params as Express has them on `req.params` in a route's middleware (a guard reading
 * `req.params.id`, express-validator's `param('id')`), over what the app's own layers put there, as a router
 * with `mergeParams` has them. A catch-all is an array of its segments, as Express 5's `*name` is.
 */
function giveParams(req: { params?: object }, params: EndpointContext['params']): void {
  for (const _ in params) {
    req.params = { ...req.params, ...params };
    return;
  }
}

/**
 * Runs one middleware; synchronous when it calls `next()` (or answers) before returning, as most do.
 * It answered when `res` has ended (sent, or the client left) before it called `next()`.
 */
function runOne(
  handler: NodeHandler,
  req: NodeContext['req'],
  res: NodeContext['res'],
): Step | Promise<Step> {
  let step: Step | undefined;
  let settle: ((step: Step) => void) | undefined;
  const decide = (decided: Step) => {
    if (step !== undefined) return;
    step = decided;
    settle?.(decided);
  };
  const nextFn = (error?: unknown) => {
    if (error === 'route' || error === 'router') decide({ error: new Error(ROUTE_SKIP(error)) });
    // Express reads any falsy value as no error.
    else decide(error ? { error } : NEXT);
  };
  try {
    const returned = handler(req, res, nextFn) as PromiseLike<unknown> | undefined;
    if (typeof returned?.then === 'function') {
      returned.then(undefined, (error: unknown) => decide({ error: error || new Error('Rejected promise') }));
    }
  } catch (error) {
    decide({ error });
  }
  if (step !== undefined) return step;
  if (res.writableEnded || res.destroyed) return ANSWERED;
  return new Promise<Step>((resolve) => {
    const answered = () => decide(ANSWERED);
    settle = (decided) => {
      res.off('finish', answered);
      res.off('close', answered);
      resolve(decided);
    };
    res.once('finish', answered);
    res.once('close', answered);
  });
}

/**
 * Cancels the Request's own reading of the Node body, unless a Web middleware outside is reading it, and
 * has the stream resume when a reader that expects it to flow (body-parser's `on('data')`) attaches:
 * the Request's stream paused it. Returns what stops that.
 */
function letGoOfBody(request: Request, req: NodeContext['req']): () => void {
  const body = request.body;
  if (body !== null && !request.bodyUsed && !body.locked) body.cancel().catch(() => {});
  if (req.readableFlowing !== false) return () => {};
  const resumeOnRead = (event: string | symbol) => {
    if (event !== 'data') return;
    queueMicrotask(() => {
      if (req.readableFlowing === false) req.resume();
    });
  };
  req.on('newListener', resumeOnRead);
  return () => req.off('newListener', resumeOnRead);
}

const NO_NODE =
  "expressMiddleware() runs Express middleware with Node's req and res, and this request has none: it runs on Node hosts (Express, Connect, node:http), not under .fetch, Bun or Deno, nor on a WebSocket upgrade.";

const ROUTE_SKIP = (word: string) =>
  `Express middleware in expressMiddleware() called next('${word}'), which skips to the next Express ${word}; a folder of endpoints has none to skip to. Answer, call next(), or next(err).`;

/**
 * The error of a tree that uses `expressMiddleware` where no request has Node's `req` and `res`: `.fetch`,
 * or a runtime other than Node. `files` name where it is used.
 */
export function expressMiddlewareRefused(files: readonly string[], where: string): Error {
  const error = new Error(
    `express-file-endpoints: ${listWords(files)} ${files.length === 1 ? 'uses' : 'use'} expressMiddleware(), which runs Express middleware with Node's req and res, and ${where} has none. Serve the tree through its Node middleware (app.use(endpoints)) on Node, or write that middleware as a Web middleware (docs/middleware.md).`,
  );
  error.name = 'ExpressMiddlewareError';
  return error;
}

/** The error of an endpoint serving WebSockets under `expressMiddleware`: an upgrade has no `res` to run it with. */
export function expressMiddlewareAroundSocket(endpoint: string, files: readonly string[]): Error {
  const error = new Error(
    `express-file-endpoints: ${endpoint} serves WebSockets, and ${listWords(files)} around it ${files.length === 1 ? 'uses' : 'use'} expressMiddleware(), which runs Express middleware with Node's res: an upgrade has none. Move the endpoint to a folder without it, or guard its upgrade with a Web middleware (docs/middleware.md).`,
  );
  error.name = 'ExpressMiddlewareError';
  return error;
}
