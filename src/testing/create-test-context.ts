/**
 * createTestContext: the second argument of a handler (and third of a middleware) for a unit test,
 * typed, with a `node` whose `req` and `res` are real Node objects carrying what earlier Express
 * middleware would have attached (`req.session`, passport's `req.user`, `res.locals`), so a
 * handler that reads `context.node` is tested without a cast and without a server.
 */
import { detachedNodeContext } from '../bridge';
import type { EndpointContext, NodeContext, Params } from '../types';

/** Options of {@link createTestContext}. */
export interface TestContextOptions<P extends Params | string = Params> {
  /** The route's params, as the router would give them. */
  params?: EndpointContext<P>['params'];
  /** The route pattern; default `''`. */
  route?: string;
  /** Where the tree is mounted; default `''`. */
  mountPath?: string;
  /** Fields to put on the Node request and response: `{ req: { session: { user } } }`. */
  node?: {
    req?: Record<string, unknown>;
    res?: Record<string, unknown> & { locals?: Record<string, unknown> };
  };
}

/** A context whose `node` is always there. */
export type TestContext<P extends Params | string = Params> = EndpointContext<P> & { node: NodeContext };

/**
 * Builds a handler's context. `after()` callbacks run on the next turn of the event loop, as they
 * would once a response has been sent.
 *
 * @example
 * const res = await GET(createTestRequest('/me'), createTestContext({ node: { req: { user: { id: 1 } } } }));
 */
export function createTestContext<P extends Params | string = Params>(
  options: TestContextOptions<P> = {},
): TestContext<P> {
  const params = Object.assign(Object.create(null) as Params, options.params);
  return {
    params: params as EndpointContext<P>['params'],
    route: options.route ?? '',
    mountPath: options.mountPath ?? '',
    node: detachedNodeContext(options.node?.req, { locals: {}, ...options.node?.res }),
    after: (fn) => void setImmediate(fn),
  };
}
