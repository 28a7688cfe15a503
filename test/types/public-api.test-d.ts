/**
 * Type-level checks of the public API, compiled by `npm run typecheck` (never run): the ways
 * users wire the library into Express (its types are Express 5's) and Connect, and write handlers, must
 * type-check without casts.
 */
import connect from 'connect';
import express from 'express';
import http from 'node:http';
import {
  bridgeMiddleware,
  defineHandler,
  mountEndpoints,
  type EndpointContext,
  type EndpointErrorInfo,
  type HttpMethod,
  type EndpointHandler,
  type EndpointsManifest,
  type EndpointsMiddleware,
  type ParamsOf,
  type WebMiddleware,
} from '../../src/index';
import { createTestRequest } from '../../src/testing';

export async function wiring(): Promise<void> {
  const app5 = express();
  app5.use(mountEndpoints({ dir: 'app' }));
  app5.use('/v1', mountEndpoints({ dir: new URL('file:///srv/app') }));
  const mounted: EndpointsMiddleware = await mountEndpoints(app5, { dir: 'app', strict: true });
  mounted.routes.map((route) => route.pattern);
  // A build: its folder as `dir`, or the manifest module the app imported (docs/build.md).
  await mountEndpoints(app5, { dir: 'dist/endpoints' });
  const manifest = {} as EndpointsManifest;
  app5.use(mountEndpoints({ manifest, middleware: [], bodyLimit: false }));
  // @ts-expect-error a manifest is the build's module, not any object
  mountEndpoints({ manifest: { modules: [] } });
  // How a moved route answers: ETags as Express's setting values, and methods a file does not serve.
  await mountEndpoints(app5, { etag: 'strong', unservedMethods: '405' });
  app5.use(mountEndpoints({ etag: true, unservedMethods: 'next' }));
  // @ts-expect-error the 405 is written as a string, like the other value
  mountEndpoints({ unservedMethods: 405 });
  // @ts-expect-error a custom ETag function is the Express app's own `etag` setting
  mountEndpoints({ etag: () => '"x"' });

  app5.use(bridgeMiddleware(async (_req, next) => next(), { bodyLimit: 4096 }));

  const app = connect();
  app.use(mountEndpoints());
  await mountEndpoints(app, { bodyLimit: false });

  http.createServer(mountEndpoints());
  const response: Response = await mounted.fetch(createTestRequest('/x'));
  void response;
}

// Handlers: no import needed for the plain form; the helper types narrow params.
export async function GET(req: Request, { params }: { params: { id: string } }) {
  return Response.json({ id: params.id, url: req.url });
}
export const PUT: EndpointHandler<'/users/[id]/[[...rest]]'> = async (_req, { params, node }) => {
  const id: string = params.id;
  const rest: string[] | undefined = params.rest;
  void node?.req.headers;
  return Response.json({ id, rest });
};
export function DELETE(_req: Request, context: EndpointContext<'/files/[...path]'>) {
  const path: string[] = context.params.path;
  return new Response(path.join('/'));
}
export const auth: WebMiddleware = async (req, next) =>
  req.headers.has('authorization') ? next() : new Response(null, { status: 401 });

type Check<T extends true> = T;
export type ParamsAreDerived = Check<
  ParamsOf<'/a/[x]/[...y]/[[...z]]'> extends { x: string; y: string[]; z?: string[] } ? true : false
>;

// The context's extras, the QUERY export and onError.
export const QUERY: EndpointHandler<'/search'> = async (req, { route, mountPath, after }) => {
  after?.(async () => {
    await Promise.resolve(`${req.method} ${route ?? ''}`);
  });
  return Response.json({ link: `${mountPath ?? ''}/search` });
};
export const methods: HttpMethod[] = ['GET', 'QUERY', 'OPTIONS'];
export function withOnError(): void {
  mountEndpoints({
    onError(error: unknown, info: EndpointErrorInfo) {
      // `request` is absent for a module that failed to load at startup.
      const where: string = `${info.file} ${info.export} ${info.route} ${info.request?.url ?? '(startup)'}`;
      if (!info.passedToNext) console.error(where, error);
    },
  });
}

// A handler reads its locals as they are, under strict TypeScript: the library always sets them.
declare module '../../src/index' {
  interface Locals {
    config?: { baseUriPath: string };
  }
}
export function readsLocals(_request: Request, { locals }: EndpointContext): Response {
  const { config } = locals;
  return new Response(config?.baseUriPath ?? '');
}

// A handler made by defineHandler is still called with just `{ params }` in a unit test; a plain one
// typed with EndpointContext gets its locals too.
export async function callsHandlers(): Promise<void> {
  const validated = defineHandler(
    {},
    (_request, { locals }) => new Response(String(Object.keys(locals).length)),
  );
  await validated(createTestRequest('/x'), { params: {} });
  readsLocals(createTestRequest('/x'), { params: {}, locals: {} });
  // @ts-expect-error a plain handler reads locals: a unit test hands them in (or uses createTestContext)
  readsLocals(createTestRequest('/x'), { params: {} });
}
