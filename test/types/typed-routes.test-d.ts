/**
 * Typed routes, compiled by `npm run typecheck` (never run). `route-registry.d.ts` beside this
 * file is what `express-file-endpoints typegen test/fixtures/typed-routes/app` writes (augmenting
 * `../../src/index` instead of the package name, as this repository imports its source);
 * test/dev/typed-routes.test.ts checks that it is up to date. A wrong pattern or a wrong param
 * name must be a type error, for handlers (`RouteContext`) and for `url()`.
 */
import { url, type RouteContext, type RoutePattern } from '../../src/index';

// Handlers: params typed from the registry.
export function GET(_req: Request, { params }: RouteContext<'/api/users/[id]'>): Response {
  const id: string = params.id;
  // @ts-expect-error -- the folder is [id]: there is no params.userId
  void params.userId;
  return Response.json({ id });
}

export function docs(_req: Request, { params, mountPath }: RouteContext<'/docs/[[...path]]'>): Response {
  // An optional catch-all may be absent.
  const path: string[] = params.path ?? [];
  return new Response(`${mountPath ?? ''}/${path.join('/')}`);
}

// @ts-expect-error -- a typo in the pattern: '/api/user/[id]' is not a route of the tree
export type Typo = RouteContext<'/api/user/[id]'>;

// @ts-expect-error -- a route group is not part of the URL pattern
export type Grouped = RouteContext<'/(admin)/files/[...parts]'>;

export const patterns: RoutePattern[] = [
  '/api/users',
  '/api/users/[id]',
  '/docs/[[...path]]',
  '/files/[...parts]',
];

// url(): params required exactly when the route has them.
export const links: string[] = [
  url('/api/users'),
  url('/api/users/[id]', { id: '42' }),
  url('/docs/[[...path]]'),
  url('/docs/[[...path]]', { path: ['a', 'b'] }),
  url('/files/[...parts]', { parts: ['x'] }),
  // @ts-expect-error -- the params are missing
  url('/api/users/[id]'),
  // @ts-expect-error -- wrong param name
  url('/api/users/[id]', { userId: '42' }),
  // @ts-expect-error -- not a route
  url('/api/nope'),
  // @ts-expect-error -- a catch-all takes an array
  url('/files/[...parts]', { parts: 'x' }),
];

// Locals: typed per route from the `defineMiddleware` of each folder above it.
export function adminFiles(_req: Request, { locals }: RouteContext<'/files/[...parts]'>): Response {
  // Under (admin)/, whose middleware declares `admin`: present and typed.
  const name: string = locals.admin.name;
  // @ts-expect-error -- the middleware adds `admin`, nothing else
  void locals.user;
  return new Response(name);
}

export function users(_req: Request, { locals }: RouteContext<'/api/users'>): Response {
  // @ts-expect-error -- outside (admin)/, no middleware adds `admin`
  void locals?.admin;
  return new Response('users');
}

// A unit test of a route with locals passes them; one without need not.
// @ts-expect-error -- locals are required where the route's middleware add some
export const missingLocals: RouteContext<'/files/[...parts]'> = { params: { parts: [] } };
export const withoutLocals: RouteContext<'/api/users'> = { params: {} };
