/**
 * defineMiddleware: a Web middleware that says what it adds to `context.locals`, so that the
 * handlers behind it are typed with it. At run time it is the middleware itself; the declaration
 * lives only in its type, where `typegen` reads it for every route under the folder of a
 * `middleware.ts` that exports it (`RouteContext<'/admin/users'>['locals']`).
 */
import type { EndpointContext, Locals, Params } from '../types';

/** A middleware that declares, in its type alone, the locals it adds. */
export type MiddlewareWithLocals<Adds extends object> = ((
  request: Request,
  next: () => Promise<Response>,
  context?: EndpointContext,
) => Response | Promise<Response>) & {
  /** Never set: the type of what the middleware adds, read by `LocalsOf`. */
  readonly '~locals'?: Adds;
};

/** The context a middleware made by `defineMiddleware` gets: its locals typed with what it adds. */
export type MiddlewareContext<Adds extends object> = Omit<EndpointContext<Params>, 'locals'> & {
  locals: Locals & Adds;
};

/**
 * @example
 * // app/(auth)/middleware.ts
 * export default defineMiddleware<{ user: User }>(async (request, next, { locals }) => {
 *   const user = await userFrom(request);
 *   if (!user) return new Response(null, { status: 401 });
 *   locals.user = user;
 *   return next();
 * });
 */
export function defineMiddleware<Adds extends object = Record<never, never>>(
  middleware: (
    request: Request,
    next: () => Promise<Response>,
    context: MiddlewareContext<Adds>,
  ) => Response | Promise<Response>,
): MiddlewareWithLocals<Adds> {
  // The library always passes the context; only a unit test could leave it out, and it then gets
  // the error of reading its locals, as it would for any middleware.
  return middleware as MiddlewareWithLocals<Adds>;
}

/** What a middleware module's default export adds to `locals`; nothing for one that does not say. */
export type LocalsOf<Module> = Module extends { default: infer Middleware }
  ? Middleware extends { readonly '~locals'?: infer Adds }
    ? unknown extends Adds
      ? unknown
      : NonNullable<Adds>
    : unknown
  : unknown;
