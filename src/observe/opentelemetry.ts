/**
 * OpenTelemetry without setup: when the app runs the OpenTelemetry SDK, the server span
 * of a request an endpoint answers is named by the endpoint's route, as the Express
 * instrumentation names it for Express's own routes, and an error records its exception there.
 *
 * `@opentelemetry/api` is an optional peer dependency: it is loaded once, and only after an SDK
 * has registered itself in the process (its globals exist); without one nothing is loaded and a
 * request pays one property read. The span is not ours to end: `@opentelemetry/instrumentation-http`
 * ends it when the response closes, so a streamed response's span lasts until its body has ended.
 */
import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';

type Api = typeof OtelApi;
export type Span = OtelApi.Span;

/** Where `@opentelemetry/api` 1.x keeps what an SDK registers (its internal/global-utils). */
const API_GLOBALS = Symbol.for('opentelemetry.js.api.1');

/**
 * The key under which `@opentelemetry/core` keeps the RPC metadata of the request being served.
 * `createContextKey` is `Symbol.for(description)`, so every copy of core and of the API shares it:
 * instrumentation-http stores `{ type: 'http', span }` there, framework instrumentations (Express,
 * Connect) write the matched route into it, and instrumentation-http reads it when the response
 * closes to set `http.route` and rename the span `${method} ${route}`.
 */
const RPC_METADATA = 'OpenTelemetry SDK Context Key RPC_METADATA';

interface RpcMetadata {
  type?: string;
  span?: Span;
  route?: string;
}

/** The loaded API, and the RPC metadata's key made with it. */
export interface OpenTelemetry {
  api: Api;
  rpcMetadata: symbol;
}

/** `undefined`: not tried yet; `null`: not installed, or failed to load. */
let loaded: OpenTelemetry | null | undefined;

/** The API, once an SDK has registered; `undefined` when none has, or the API is not installed. */
export function openTelemetry(): OpenTelemetry | undefined {
  if (loaded !== undefined) return loaded ?? undefined;
  // No SDK (yet): asked again on the next request, so an SDK started after mounting is seen.
  if ((globalThis as Record<symbol, unknown>)[API_GLOBALS] === undefined) return undefined;
  loaded = load();
  return loaded ?? undefined;
}

function load(): OpenTelemetry | null {
  try {
    // createRequire: a bundler must not inline the optional peer, and the ES module build can load it too.
    const api = createRequire(__filename)('@opentelemetry/api') as Api;
    return { api, rpcMetadata: api.createContextKey(RPC_METADATA) };
  } catch {
    return null;
  }
}

/**
 * Names the server span of the request being served by the endpoint's route and returns it (or,
 * without HTTP instrumentation, the active span, for errors). `route` is the endpoint's path in
 * Express 5 syntax (`/api/users/:id`): the HTTP semantic conventions want `http.route` "in the
 * format used by the respective server framework", and an Express app's own routes are written
 * that way by the Express instrumentation, so one dashboard shows both alike.
 *
 * `mountPath` is where the host mounted the tree (`undefined` under `.fetch`, which routes the
 * whole path). When the Express instrumentation already wrote the route of the layer the tree is
 * mounted on (`/v1`, or `/:tenant` where the mount path has parameters), that pattern is the prefix.
 */
export function nameServerSpan(
  otel: OpenTelemetry,
  route: string,
  mountPath: string | undefined,
): Span | undefined {
  const active = otel.api.context.active();
  const metadata = active.getValue(otel.rpcMetadata) as RpcMetadata | undefined;
  if (metadata?.type !== 'http') return otel.api.trace.getSpan(active);
  metadata.route = joinRoute(mountPath === undefined ? '' : mountPattern(metadata.route, mountPath), route);
  return metadata.span;
}

/** Records an error of the request on its span (an error answered with 500 shows there). */
export function recordError(otel: OpenTelemetry, span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  span.recordException(error instanceof Error ? error : message);
  span.setStatus({ code: otel.api.SpanStatusCode.ERROR, message });
}

function mountPattern(written: string | undefined, mountPath: string): string {
  return typeof written === 'string' && written.startsWith('/') ? written : mountPath;
}

function joinRoute(prefix: string, route: string): string {
  const base = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (base === '') return route;
  return route === '/' ? base : base + route;
}
