/**
 * The development inspector: a page at `/__endpoints` (the `inspector` dev option) that shows the route
 * table as users think of it (each URL pattern, its file, its methods, the middleware that wrap it in
 * order, its contract, its WebSocket hooks and topics) and the last requests each route served, with
 * the route they matched and their errors' source locations. It is live: a reload of the tree and every
 * request are pushed to it as server-sent events. Served as generated routes of the tree, in development
 * mode only; the requests are the request tracing channel's, to which it subscribes only then.
 */
import { eventStream } from '../event-stream';
import { escapeHtml } from '../files';
import { requestChannel, type RequestTraceContext } from '../observe';
import { generatedRoute, pagePath, type GeneratedRoute } from '../route';
import type { RouteInfo } from '../describe-routes';
import type { ModuleExports } from '../load';
import { errorLocation } from './locate-error';

/** What the inspector reads of the mount, kept current by it. */
export interface InspectorSource {
  /** `.routes`: updated in place on every reload. */
  routes(): readonly RouteInfo[];
  /** The module of an endpoint as last loaded, by the file `.routes` names: its WebSocket hooks and topics. */
  moduleOf(file: string): ModuleExports | undefined;
  /** How errors name the `middleware` option's functions, which wrap every route first. */
  middlewareOption: readonly string[];
}

export interface Inspector {
  routes: GeneratedRoute[];
  /** The tree was reloaded: the page shows the new table. */
  reloaded(): void;
  /** Stops listening to requests and ends the page's streams. */
  close(): void;
}

/** One request a route served, as the page lists it. */
interface Served {
  method: string;
  status: number | undefined;
  /** When it began, ms since the epoch. */
  at: number;
  /** How long until its answer was over, ms. */
  ms: number;
  aborted: boolean;
  export: string | undefined;
  error?: { message: string; location?: string };
}

const KEPT_PER_ROUTE = 20;
const POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'";
const NAME = 'the development inspector';

export function createInspector(path: string, source: InspectorSource): Inspector {
  const base = pagePath(path, 'dev.inspector', '/__endpoints');
  const served = new Map<string, Served[]>();
  const began = new WeakMap<RequestTraceContext, number>();
  const listeners = new Set<(event: string) => void>();
  const tell = (event: string) => listeners.forEach((listener) => listener(event));
  let closed = false;

  const start = (context: RequestTraceContext) => void began.set(context, Date.now());
  const asyncEnd = (context: RequestTraceContext) => {
    // The page's own requests are no route of the app's.
    if (context.route === base || context.route.startsWith(`${base}/`)) return;
    const at = began.get(context) ?? Date.now();
    const error = context.error;
    const entry: Served = {
      method: context.method,
      status: context.status,
      at,
      ms: Date.now() - at,
      aborted: context.aborted,
      export: context.export,
      ...(error !== undefined && {
        error: {
          message: error instanceof Error ? error.message : String(error),
          location: errorLocation(error),
        },
      }),
    };
    const list = served.get(context.route) ?? [];
    list.unshift(entry);
    if (list.length > KEPT_PER_ROUTE) list.length = KEPT_PER_ROUTE;
    served.set(context.route, list);
    tell('request');
  };
  const subscribers = { start, asyncEnd } as unknown as Parameters<typeof requestChannel.subscribe>[0];
  requestChannel.subscribe(subscribers);

  const table = () => ({
    middlewareOption: source.middlewareOption,
    routes: source.routes().map((row) => {
      const mod = source.moduleOf(row.file);
      const socket = mod?.websocket as Record<string, unknown> | undefined;
      return {
        ...row,
        socketHooks: socket ? Object.keys(socket).filter((hook) => typeof socket[hook] === 'function') : [],
        topics: mod?.topics && typeof mod.topics === 'object' ? Object.keys(mod.topics) : [],
        served: served.get(row.pattern) ?? [],
      };
    }),
  });

  const page = (_request: Request, context: { mountPath?: string }) =>
    new Response(pageHtml(`${context.mountPath ?? ''}${base}`), {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': POLICY,
        'cache-control': 'no-store',
      },
    });
  const script = () =>
    new Response(PAGE_SCRIPT, {
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' },
    });
  const style = () => new Response(PAGE_STYLE, { headers: { 'content-type': 'text/css; charset=utf-8' } });
  const json = () => Response.json(table(), { headers: { 'cache-control': 'no-store' } });
  const events = (request: Request) =>
    eventStream(request, async (stream) => {
      // Told, not sent at once: a burst of requests is one refresh per read of the page.
      let pending: string | undefined;
      let wake: (() => void) | undefined;
      const listener = (event: string) => {
        pending = pending === 'routes' ? pending : event;
        wake?.();
      };
      listeners.add(listener);
      // A client that leaves (or the mount closing the stream) wakes the loop, which then sees the stream closed.
      stream.signal.addEventListener('abort', () => wake?.(), { once: true });
      try {
        while (!stream.closed && !closed) {
          if (pending === undefined) await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          const event = pending;
          pending = undefined;
          if (event !== undefined && !(await stream.send({ event, data: '' }))) break;
        }
      } finally {
        listeners.delete(listener);
      }
    });
  const routes = [
    generatedRoute(base, NAME, () => ({ GET: page })),
    generatedRoute(`${base}/inspector.js`, NAME, () => ({ GET: script })),
    generatedRoute(`${base}/inspector.css`, NAME, () => ({ GET: style })),
    generatedRoute(`${base}/routes.json`, NAME, () => ({ GET: json })),
    generatedRoute(`${base}/events`, NAME, () => ({ GET: events })),
  ];
  return {
    routes,
    reloaded: () => tell('routes'),
    close: () => {
      requestChannel.unsubscribe(subscribers);
      closed = true;
      // Each page's loop wakes, sees the inspector closed, and ends its stream.
      tell('closed');
    },
  };
}

function pageHtml(at: string): string {
  // The mount path is the client's spelling: it goes into the page as text, never as markup.
  const base = escapeHtml(at);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Endpoints</title>
    <link rel="stylesheet" href="${base}/inspector.css">
  </head>
  <body data-base="${base}">
    <header><h1>Endpoints</h1><p id="status">loading…</p></header>
    <main id="routes"></main>
    <script src="${base}/inspector.js"></script>
  </body>
</html>
`;
}

const PAGE_STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d2125;background:#f6f7f9}
header{padding:12px 20px;background:#1d2125;color:#fff;display:flex;gap:16px;align-items:baseline}
h1{font-size:18px;margin:0}#status{margin:0;color:#b8c0c8}
main{padding:12px 20px}section{background:#fff;border:1px solid #dde1e6;border-radius:6px;margin:0 0 12px;padding:10px 14px}
h2{font:600 15px ui-monospace,monospace;margin:0 0 6px}.method{display:inline-block;font:600 11px ui-monospace,monospace;padding:1px 6px;border-radius:3px;background:#e3ecff;color:#1a4fd6;margin-right:4px}
dl{display:grid;grid-template-columns:110px 1fr;gap:2px 10px;margin:6px 0}dt{color:#5b6570}dd{margin:0;font-family:ui-monospace,monospace}
table{border-collapse:collapse;width:100%;margin-top:6px;font-family:ui-monospace,monospace;font-size:12px}td,th{text-align:left;padding:2px 8px;border-top:1px solid #eef0f2}
.s2{color:#1a7f37}.s3{color:#6f42c1}.s4{color:#b35900}.s5,.error{color:#cf222e}.none{color:#8b949e}
`;

// No framework, no inline script: one file the page's policy lets in. Text goes in as text, never as markup.
const PAGE_SCRIPT = `"use strict";
(function () {
  var base = document.body.dataset.base;
  var main = document.getElementById("routes");
  var status = document.getElementById("status");
  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) { node[key] = props[key]; });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  function row(term, value) { return [el("dt", {}, [term]), el("dd", {}, [value])]; }
  function list(values) { return values.length ? values.join(" → ") : "none"; }
  function contract(route) {
    var methods = Object.keys(route.contracts || {});
    if (!methods.length) return "none";
    return methods.map(function (m) {
      var c = route.contracts[m];
      return m + ": validates " + (c.validates.join(", ") || "nothing") + "; responses " + (c.responses.join(", ") || "none");
    }).join(" | ");
  }
  function requests(route) {
    if (!route.served.length) return el("p", { className: "none" }, ["no requests yet"]);
    return el("table", {}, [el("thead", {}, [el("tr", {}, ["method", "status", "ms", "at", "export", "error"].map(function (h) { return el("th", {}, [h]); }))]),
      el("tbody", {}, route.served.map(function (r) {
        var code = r.status === undefined ? "—" : String(r.status);
        return el("tr", { className: "request" }, [
          el("td", {}, [r.method]),
          el("td", { className: "status s" + code.charAt(0) }, [r.aborted ? code + " (client left)" : code]),
          el("td", {}, [String(r.ms)]),
          el("td", {}, [new Date(r.at).toLocaleTimeString()]),
          el("td", {}, [r.export || ""]),
          el("td", { className: "error" }, [r.error ? r.error.message + (r.error.location ? " at " + r.error.location : "") : ""]),
        ]);
      }))]);
  }
  function render(table) {
    main.replaceChildren.apply(main, table.routes.map(function (route) {
      var methods = route.methods.map(function (m) { return el("span", { className: "method" }, [m]); });
      return el("section", { className: "route" }, [
        el("h2", {}, methods.concat([route.pattern])),
        el("dl", {}, [].concat(
          row("file", route.file),
          row("middleware", list(table.middlewareOption.concat(route.middleware))),
          row("contract", contract(route)),
          row("websocket", route.websocket ? list(route.socketHooks) : "no"),
          row("topics", list(route.topics))
        )),
        requests(route),
      ]);
    }));
    status.textContent = table.routes.length + " routes, updated " + new Date().toLocaleTimeString();
  }
  function refresh() {
    return fetch(base + "/routes.json").then(function (r) { return r.json(); }).then(render);
  }
  refresh();
  var events = new EventSource(base + "/events");
  events.addEventListener("routes", refresh);
  events.addEventListener("request", refresh);
})();
`;
