/**
 * The slow suite, `npm run test:slow`: the test files that start child processes or a browser, or
 * run for seconds by design. Each stays in the folder of what it tests; this list is what makes it
 * slow, and the fast suite (.mocharc.cjs, `npm run test:unit`) leaves these out. `npm test` runs
 * both. A new test file that spawns anything, or takes seconds, belongs here.
 */
module.exports = {
  require: ['tsx/cjs'],
  'node-option': ['import=tsx'],
  extension: ['ts'],
  spec: [
    'test/unit/cli.test.ts', // the CLI in a child process, once or twice per test
    'test/unit/cli-startup.test.ts', // the CLI in a child process; `check --load` spawns again
    'test/unit/messages.test.ts', // pins the CLI's output too, from child processes
    'test/openapi/cli.test.ts', // the openapi command in a child process, which loads the modules in another
    'test/openapi/openapi-typescript.test.ts', // a TypeScript program over the generated types: seconds
    'test/openapi/reference-page.test.ts', // the reference page in Chromium
    'test/dev/inspector.test.ts', // the development inspector in Chromium
    'test/integration/module-systems.test.ts', // an app per package type, each in a child process
    'test/integration/typescript-loading.test.ts', // an app per TypeScript loader, in child processes
    'test/integration/type-stripping.test.ts', // an app per TypeScript construct, stripped or through tsx, in child processes
    'test/integration/compiled-routes.test.ts', // TypeScript apps started two to four times each, in child processes
    'test/integration/http2-express.test.ts', // an app on http2-express, in a child process
    'test/integration/test-runners.test.ts', // Jest, Vitest, node:test and mocha on fixture apps, in child processes
    'test/integration/nodenext-app.test.ts', // a NodeNext TypeScript app under Node, Vitest and pnpm's layout, in child processes
    'test/migrate/legacy-app.test.ts', // migrate --write on the legacy app, then its own Jest suite, in child processes
    'test/migrate/esm-app.test.ts', // migrate --write on an ES module app, then its own Vitest suite, in child processes
    'test/migrate/ts-app.test.ts', // migrate --write on a TypeScript app, then tsc and its own node:test suite, in child processes
    'test/migrate/express-examples.test.ts', // migrate --write on the Express repository's examples, then their acceptance tests, in child processes
    'test/migrate/route-set.test.ts', // a property over generated route tables: two servers per run, for seconds
    'test/integration/legacy-app.test.ts', // a legacy Express 4 app's own Jest suite, against its routers and against the tree, in child processes
    'test/hardening/soak.test.ts', // 5 s of load from scripts/soak.mjs, in child processes
    'test/hardening/guards.property.test.ts', // 11,000 generated paths per host, seconds each
    'test/hardening/body-limits.test.ts', // waits out the server's 2 s drain timeout
    'test/hardening/faults.test.ts', // a second of backpressure from a client too slow to read
    'test/hardening/client-gone.test.ts', // clients that leave mid-request, waited for on real timers
    'test/event-stream/hosts.test.ts', // events on real timers through four hosts, and EventSource reconnects
    'test/integration/shutdown-load.test.ts', // SIGTERM to a child process serving requests, streams and sockets
    'test/middleware/bridged-stream-head.test.ts', // a streamed body's late chunk, on a real timer per host
    'test/dev/dev-memory.test.ts', // 200 reloads per package type, heap measured after gc
    'test/observe/opentelemetry.test.ts', // the OpenTelemetry SDK in a child process per host
    'examples/express-app/test/tracing.test.ts', // the example app with TRACING=1, in child processes
    'test/middleware/memory.test.ts', // 100 MiB through a child process's server, its memory measured
    'test/middleware/express-middleware.test.ts', // a redis-server for the rate limit's store
    'test/websocket/check.test.ts', // the CLI in child processes: check --load, build
    'test/websocket/without-ws.test.ts', // builds the package, runs it in child processes without ws
    'test/websocket/many-connections.test.ts', // 1,000 WebSockets per host against a child process's server
    'test/topics/redis.test.ts', // a redis-server per test, and three servers in child processes
    'test/cache/redis-cache.test.ts', // a redis-server, and two cache servers in child processes
    'test/topics/cluster.test.ts', // a node:cluster primary and three workers, in child processes
    'test/topics/typed-topics.test.ts', // a TypeScript program over generated declarations: seconds
    'test/topics/property.test.ts', // 450 sockets over three child processes and a redis-server, for 5 s by design
    'test/topics/slow-subscriber.test.ts', // 25 MiB published to stalled clients of a child process, its memory measured
    'examples/express-app/test/browser.test.ts', // Chromium, through playwright-core
    'examples/express-app/test/across-processes.test.ts', // two example servers, a Redis and Chromium
    'test/build/cli-build.test.ts', // the CLI in a child process; `check --load` spawns again
    'test/differential/differential.test.ts', // two apps per Express version, ~350 requests on fresh connections, 1 MiB uploads: seconds
    'test/build/typescript-app.test.ts', // tsc compiles an app in a child process, then the CLI builds it in another
    'test/integration/from-build.test.ts', // the shared integration suites again, in a child mocha
    'examples/express-app/test/from-build.test.ts', // the example's tests again, in a child mocha
  ],
  timeout: 20000,
  reporter: 'dot',
};
