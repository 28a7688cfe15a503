/**
 * The layout's rules, checked by `npm run check:layers` in `npm test`: no import circle
 * in src/, and every import goes down. The floors, from the bottom: the runtime the library runs on
 * (floor 0: debug.ts reads the environment through it); the public vocabulary and the
 * words messages share; files on disk; the route table, the tracing channels and the
 * event streams handlers send;
 * handlers, what a contract is, and answers in Web terms; Node
 * I/O, validation, loading, typed routes, the route listing, the topics, reading bodies as Express's parsers do and
 * sending files as res.sendFile and express.static do, multipart bodies; development mode, `check`, validating
 * requests by their contracts, the test
 * helpers, bridgeMiddleware, the OpenAPI document, the typed client, reading a build, WebSockets and
 * the Redis backplane and cache; mounting,
 * writing a build and migrating an Express app's routes; the entry points, the library's and the command line's.
 * A folder may import from itself and from any floor below its own, never from its own floor's
 * other folders or from above.
 */
const FLOORS = [
  ['src/runtime.ts'],
  [
    'src/types/',
    'src/debug.ts',
    'src/words.ts',
    'src/fetch-globals.ts',
    'src/is-response.ts',
    'src/http-methods.ts',
    'src/node-source.ts',
  ],
  ['src/discover/'],
  ['src/router/', 'src/observe/', 'src/event-stream/', 'src/route/'],
  ['src/dispatch/', 'src/contract/'],
  [
    'src/bridge/',
    'src/fetch/',
    'src/validate/',
    'src/load/',
    'src/typed-routes/',
    'src/describe-routes.ts',
    'src/topics/',
    'src/body/',
    'src/files/',
    'src/csrf/',
    'src/cache/',
    'src/multipart/',
  ],
  [
    'src/dev/',
    'src/check/',
    'src/define-handler/',
    'src/testing/',
    'src/bridge-middleware/',
    'src/express-middleware/',
    'src/openapi/',
    'src/client/',
    'src/manifest/',
    'src/websocket/',
    'src/redis-backplane/',
  ],
  ['src/mount.ts', 'src/build/', 'src/migrate/'],
  ['src/index.ts', 'src/cli/'],
];

const pattern = (room) => `^${room.replace(/[.]/g, '\\.')}`;
const either = (rooms) => rooms.map(pattern).join('|');

const forbidden = [
  {
    name: 'no-circular',
    comment: 'An import circle makes the code one knot: cut it by moving the shared names down.',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
];
FLOORS.forEach((rooms, floor) => {
  const above = FLOORS.slice(floor + 1).flat();
  for (const room of rooms) {
    const sameFloor = rooms.filter((other) => other !== room);
    const targets = [...above, ...sameFloor];
    if (targets.length === 0) continue;
    forbidden.push({
      name: `down-only: ${room}`,
      comment: `${room} is on floor ${floor}: it imports only from floors below it, and from itself.`,
      severity: 'error',
      from: { path: pattern(room) },
      to: { path: either(targets) },
    });
  }
});

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: they tie the code together as much as any other.
    tsPreCompilationDeps: true,
  },
};
