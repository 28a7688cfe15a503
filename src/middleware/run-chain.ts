/**
 * Runs Web middleware around a final handler, in order, entirely in Request/Response terms:
 * each middleware gets `next()`, which runs the rest of the chain and resolves to its Response.
 */
import type { WebMiddleware } from '../types';

export function runChain(
  chain: readonly WebMiddleware[],
  request: Request,
  last: () => Promise<Response>,
): Promise<Response> {
  let called = -1;
  const step = (index: number): Promise<Response> => {
    if (index <= called) return Promise.reject(new Error('next() was called more than once by a middleware'));
    called = index;
    const middleware = chain[index];
    if (!middleware) return last();
    try {
      return Promise.resolve(middleware(request, () => step(index + 1)));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return step(0);
}
