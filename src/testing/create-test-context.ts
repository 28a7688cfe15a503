/**
 * createTestContext: the second argument of a handler (and third of a middleware) for a unit test,
 * typed, with a `node` whose `req` and `res` are real Node objects carrying what earlier Express
 * middleware would have attached (`req.session`, passport's `req.user`, `res.locals`), so a
 * handler that reads `context.node` is tested without a cast and without a server.
 */
import { detachedNodeContext } from '../bridge';
import type { EndpointContext, NodeContext, Params, PublishTopic, SubscribeTopics } from '../types';

/** Options of {@link createTestContext}. */
export interface TestContextOptions<
  P extends Params | string = Params,
  L extends Record<string, unknown> = Record<string, unknown>,
> {
  /** The route's params, as the router would give them. */
  params?: EndpointContext<P>['params'];
  /** The route pattern; default `''`. */
  route?: string;
  /** Where the tree is mounted; default `''`. */
  mountPath?: string;
  /** What the route's middleware would have put on `context.locals`: `{ user }`. Default: empty. */
  locals?: L;
  /** What `context.publish` does: record the publications, `(topic, data) => sent.push({ topic, data })`. Default: none. */
  publish?: PublishTopic;
  /** What `context.subscribe` does: a mount's own, `endpoints.subscribe`. Default: none. */
  subscribe?: SubscribeTopics;
  /** Fields to put on the Node request and response: `{ req: { session: { user } } }`. */
  node?: {
    req?: Record<string, unknown>;
    res?: Record<string, unknown> & { locals?: Record<string, unknown> };
  };
}

/** A context whose `node` and `locals` are always there. */
export type TestContext<
  P extends Params | string = Params,
  L extends Record<string, unknown> = Record<string, unknown>,
> = Omit<EndpointContext<P>, 'locals'> & {
  node: NodeContext;
  locals: L;
};

/**
 * Builds a handler's context. `after()` callbacks run on the next turn of the event loop, as they
 * would once a response has been sent.
 *
 * @example
 * const res = await GET(createTestRequest('/me'), createTestContext({ locals: { user: { id: 1 } } }));
 */
export function createTestContext<
  P extends Params | string = Params,
  L extends Record<string, unknown> = Record<string, unknown>,
>(options: TestContextOptions<P, L> = {}): TestContext<P, L> {
  const params = Object.assign(Object.create(null) as Params, options.params);
  return {
    params: params as EndpointContext<P>['params'],
    route: options.route ?? '',
    mountPath: options.mountPath ?? '',
    locals: Object.assign(Object.create(null) as L, options.locals),
    node: detachedNodeContext(options.node?.req, { locals: {}, ...options.node?.res }),
    after: (fn) => void setImmediate(fn),
    ...(options.publish && { publish: options.publish }),
    ...(options.subscribe && { subscribe: options.subscribe }),
  };
}
