/**
 * A legacy-style Express app (CommonJS, body parsers, old routes, error and 404 handlers) that
 * adopts express-file-endpoints: the new endpoints are TypeScript files under ./app, loaded at startup.
 *
 *   npm start                      # from the repository root: builds the library, then runs this
 *   npm run dev                    # the same in development mode: edit an endpoint, the next request runs it
 *   npm run build:endpoints && node examples/express-app/server.js --build   # from the build: no tsx, no globbing
 *   PORT=8080 API_TOKEN=s3cret node examples/express-app/server.js
 *   TRACING=1 npm start            # prints an OpenTelemetry span per line: GET /api/users/:id …
 *
 * Environment: PORT (default 3000), API_TOKEN (bearer token for writes, default "dev-token"),
 * UPSTREAM_URL (where /proxy/* forwards; default this server's /legacy routes), TRACING (1: trace
 * with OpenTelemetry, spans printed to the console; see tracing.js), REDIS_URL (a Redis or Valkey that
 * carries the topics' publications to every process that runs this app; none by default).
 */
'use strict';

// First of all: OpenTelemetry's instrumentations patch node:http and Express as they are required.
const tracing = process.env.TRACING && require.main === module && require('./tracing').startTracing();

const http = require('node:http');
const path = require('node:path');
const express = require('express');
// Resolves to this repository's built package (package.json "exports"), as it would from npm.
const { mountEndpoints, bridgeMiddleware, redisBackplane } = require('express-file-endpoints');
const { requireTokenForWrites } = require('./auth');

const DEFAULT_TOKEN = 'dev-token';

/**
 * Builds the app. Resolves once every endpoint module is loaded, and rejects when the endpoint
 * tree is invalid (say, a GET beside a page), so a broken tree fails at startup, not per request.
 *
 * @param {object} [options]
 * @param {string} [options.token] bearer token for writes under /api (default: API_TOKEN or "dev-token")
 * @param {{ error(...args: unknown[]): void }} [options.logger] where server errors are logged
 * @param {string} [options.dir] the endpoint tree, or a build of it (default: ./app; `--build`: ./dist/endpoints)
 */
async function createApp({
  token = process.env.API_TOKEN || DEFAULT_TOKEN,
  logger = console,
  dir = path.join(__dirname, process.argv.includes('--build') ? 'dist/endpoints' : 'app'),
} = {}) {
  const app = express();

  // Writes under /api need a token. It runs before the body parsers, so a request without
  // credentials is turned away before its body is read.
  app.use('/api', bridgeMiddleware(requireTokenForWrites(token)));

  // The body parsers the old routes rely on. Endpoints mounted after them still get the body:
  // the library re-encodes `req.body` for `request.json()` / `request.formData()`.
  app.use(express.json());
  app.use(express.urlencoded({ extended: true }));

  // The new endpoints. Requests that no endpoint matches, and GET /contact (a page lives
  // there), fall through to the routes below.
  // `--dev` (npm run dev) or NODE_ENV=development: edited endpoints are reloaded with no restart.
  // GET /openapi.json is the API's OpenAPI document, written from the tree and its contracts.
  // `dir` may name a build (`npm run build:endpoints` writes ./dist/endpoints): the same app, mounted from
  // compiled JavaScript, with no TypeScript loader and no globbing at startup.
  // REDIS_URL: what POST /counter publishes reaches the sockets of every process of the app, not only its own.
  app.locals.endpoints = await mountEndpoints(app, {
    dir,
    dev: process.argv.includes('--dev') || undefined,
    openapi: { path: '/openapi.json', info: { title: 'Example app', version: '1.0.0' } },
    topics: process.env.REDIS_URL ? { backplane: redisBackplane({ url: process.env.REDIS_URL }) } : undefined,
  });

  app.use(legacyRoutes());
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}

/** The routes the app had before endpoints arrived; they keep working untouched. */
function legacyRoutes() {
  const router = express.Router();

  router.get('/', (req, res) => {
    res.type('html').send(homePage());
  });

  router.get('/legacy/health', (req, res) => {
    res.json({ status: 'ok', uptime: Math.round(process.uptime()) });
  });

  // Echoes what it received: lets /proxy/echo show that method, headers and body are forwarded.
  router.all('/legacy/echo', (req, res) => {
    res.json({ method: req.method, url: req.originalUrl, headers: req.headers, body: req.body ?? null });
  });

  // Shows the error handler: a thrown error becomes a JSON 500 without a stack trace.
  router.get('/legacy/error', () => {
    throw new Error('Something broke in a legacy route');
  });

  // The page of app/contact/page.tsx, rendered the old way; the form POSTs to app/contact/endpoint.ts.
  router.get('/contact', (req, res) => {
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Contact</title></head>
<body>
  <h1>Contact us</h1>
  <form method="post" action="/contact">
    <p><label>Name <input name="name" required></label></p>
    <p><label>Message <textarea name="message" rows="4"></textarea></label></p>
    <p><button type="submit">Send</button></p>
  </form>
</body></html>`);
  });

  return router;
}

function homePage() {
  const links = [
    ['/api/users', 'GET /api/users — list users (endpoint)'],
    ['/api/users/1', 'GET /api/users/1 — one user (endpoint, dynamic segment)'],
    ['/proxy/health', 'GET /proxy/health — proxied to /legacy/health (ANY endpoint)'],
    ['/contact', 'GET /contact — legacy form page, POSTs to an endpoint'],
    ['/events', 'GET /events — server-sent events (streaming endpoint)'],
    ['#activity', 'GET /feed — the live activity below (server-sent events, resumed after a reconnection)'],
    ['#counter', 'WebSocket /counter — the live counter below: POST /counter raises it (topics)'],
    ['/legacy/health', 'GET /legacy/health — an old Express route'],
  ];
  const items = links.map(([href, text]) => `<li><a href="${href}">${text}</a></li>`).join('\n    ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>express-file-endpoints example</title></head>
<body>
  <h1>express-file-endpoints example</h1>
  <ul>
    ${items}
  </ul>
  <p>Writes under /api need <code>Authorization: Bearer &lt;API_TOKEN&gt;</code> (default <code>${DEFAULT_TOKEN}</code>).</p>
  <h2 id="counter">Live counter</h2>
  <p>Count: <output id="count">…</output> <button id="increment" type="button">+1</button></p>
  <script>
    // app/counter/endpoint.ts: POST /counter publishes the new count to every socket open on /counter.
    const socket = new WebSocket(location.origin.replace(/^http/, 'ws') + '/counter');
    socket.addEventListener('message', (event) => {
      document.getElementById('count').textContent = JSON.parse(event.data).count;
    });
    document.getElementById('increment').addEventListener('click', () => fetch('/counter', { method: 'POST' }));
  </script>
  <h2 id="activity">Live activity</h2>
  <p>Users created, updated and deleted, as it happens (<code>curl -X POST …/api/users</code> above):</p>
  <ol id="feed" reversed></ol>
  <script>
    // app/feed/endpoint.ts: an EventSource reconnects by itself, and the feed resumes after the last id.
    const feed = new EventSource('/feed');
    feed.addEventListener('activity', (event) => {
      const { action, user } = JSON.parse(event.data);
      const item = document.createElement('li');
      item.dataset.id = event.lastEventId;
      item.textContent = user.name + ' ' + action;
      document.getElementById('feed').prepend(item);
    });
  </script>
</body></html>`;
}

function notFound(req, res) {
  res.status(404).json({ error: 'Not Found', path: req.path });
}

/** JSON errors, never a stack trace; client errors (bad JSON, too large) keep their status. */
function errorHandler(logger) {
  // Express recognises error handlers by their four parameters, so `next` must stay.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  return function handleError(err, req, res, next) {
    const status = Number(err.status ?? err.statusCode);
    const code = status >= 400 && status < 600 ? status : 500;
    if (code >= 500) logger.error(err);
    if (res.headersSent) return req.socket.destroy(); // a streamed response failed half-way
    const body = { error: http.STATUS_CODES[code] };
    // Client errors from body parsers carry a safe message (`expose`); server errors say nothing more.
    if (code < 500 && err.expose) body.message = err.message;
    res.status(code).json(body);
  };
}

/** Prints the route table the endpoints middleware discovered. */
function printRoutes(routes) {
  const rows = routes
    .map((r) => [r.pattern, [...r.methods, ...(r.websocket ? ['WS'] : [])].join(' '), r.file])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const widths = [0, 1].map((i) => Math.max(...rows.map((row) => row[i].length)));
  console.log('Endpoints:');
  for (const [pattern, methods, file] of rows) {
    console.log(`  ${pattern.padEnd(widths[0])}  ${methods.padEnd(widths[1])}  ${file}`);
  }
}

async function main() {
  const app = await createApp();
  const server = http.createServer(app);
  // WebSocket endpoints (app/counter): upgrades for their routes go to the tree, others stay the app's.
  app.locals.endpoints.attach(server);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(process.env.PORT ?? 3000), resolve);
  });
  const { port } = server.address();
  // The proxy's default upstream is this server's own legacy routes (PORT=0 picks a free port).
  process.env.UPSTREAM_URL ??= `http://127.0.0.1:${port}/legacy`;

  console.log(`express-file-endpoints example listening on http://localhost:${port}`);
  if (tracing) console.log('Tracing with OpenTelemetry: a line per finished span.');
  printRoutes(app.locals.endpoints.routes);
  console.log('Press Ctrl-C to stop.');

  // A deploy (SIGTERM) or Ctrl-C (SIGINT): stop taking connections, let the endpoints finish what
  // they serve (event streams get a last event, WebSockets a 1001, what runs past 10 s is aborted),
  // then close the keep-alive connections left idle. The process then ends by itself.
  let closing = false;
  const shutDown = async (signal) => {
    if (closing) return;
    closing = true;
    console.log(`\n${signal}: closing the server`);
    server.close();
    await app.locals.endpoints.close({ timeout: 10_000 });
    server.closeIdleConnections();
  };
  process.on('SIGINT', shutDown);
  process.on('SIGTERM', shutDown);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

module.exports = { createApp, DEFAULT_TOKEN };
