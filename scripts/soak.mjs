#!/usr/bin/env node
/**
 * `npm run soak [-- --duration 60 --connections 100 --warmup 10 --out scripts/soak-results.md]`
 *
 * Load and soak test: autocannon (this process) against the example app (a child process, see
 * soak-server.cjs) on loopback, over a mix of GET, POST/PUT/PATCH with bodies and streamed
 * responses. After a warm-up run and again after the main run, the server forces GC and
 * reports its memory. Passes when there were zero connection errors and timeouts, zero
 * unexpected statuses, no unhandled rejections or logged server errors, and heap memory (and,
 * on runs of 30 s or more, RSS) at the end is within 20% of the reading after warm-up. Writes a Markdown report to `--out` (use
 * `--out -` for none) and exits 1 on failure; `--json` prints the summary as one JSON line.
 */
import { execSync, fork } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MEMORY_TOLERANCE = 0.2;

const options = parseArgs(process.argv.slice(2), {
  duration: 60,
  connections: 100,
  warmup: undefined,
  out: 'scripts/soak-results.md',
  json: false,
});
const duration = Number(options.duration);
const connections = Number(options.connections);
const warmup =
  options.warmup === undefined ? Math.min(10, Math.max(2, Math.round(duration / 5))) : Number(options.warmup);

const TOKEN = 'soak-token';
const json = (body) => ({
  'content-type': 'application/json',
  authorization: `Bearer ${TOKEN}`,
  body: JSON.stringify(body),
});
const bigName = 'n'.repeat(16 * 1024);

/**
 * One connection's cycle of requests (autocannon runs them in order, on every connection), and
 * the status each must get. Writes only replace user 2, so the store does not grow with load.
 */
const MIX = [
  { method: 'GET', path: '/api/users', expect: 200 },
  { method: 'GET', path: '/api/users/1', expect: 200 },
  {
    method: 'PUT',
    path: '/api/users/2',
    ...json({ name: 'Grace Hopper', email: 'grace@example.com' }),
    expect: 200,
  },
  { method: 'GET', path: '/api/users/999', expect: 404 },
  { method: 'GET', path: '/proxy/health', expect: 200 }, // a fetch() Response streamed through
  {
    method: 'POST',
    path: '/contact',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=Ada&message=hello+there',
    expect: 200,
  },
  { method: 'GET', path: '/api/users', expect: 200 },
  { method: 'PATCH', path: '/api/users/2', ...json({ name: bigName }), expect: 200 }, // a 16 KiB body
  {
    method: 'POST',
    path: '/api/users',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"x"}',
    expect: 401,
  }, // no token
  { method: 'GET', path: '/legacy/health', expect: 200 },
  { method: 'GET', path: '/api/users/1', expect: 200 },
  {
    method: 'PUT',
    path: '/api/users/2',
    ...json({ name: 'Grace', email: 'grace@example.com' }),
    expect: 200,
  },
  { method: 'GET', path: '/proxy/health', expect: 200 },
  { method: 'POST', path: '/proxy/echo', ...json({ via: 'proxy', n: [1, 2, 3] }), expect: 200 }, // body streamed upstream and back
  { method: 'GET', path: '/api/users', expect: 200 },
  { method: 'GET', path: '/events', expect: 200 }, // server-sent events, ~1 s
].map(({ headers, authorization, 'content-type': type, expect, ...rest }) => ({
  ...rest,
  headers: {
    ...headers,
    ...(type ? { 'content-type': type } : {}),
    ...(authorization ? { authorization } : {}),
  },
  expect,
}));

async function main() {
  ensureBuilt();
  const server = await startServer();
  const report = { duration, connections, warmup, date: new Date().toISOString(), machine: machine() };
  try {
    const warm = await load(server.port, warmup);
    report.warmupRequests = warm.requests;
    report.afterWarmup = await server.measure();
    report.run = await load(server.port, duration);
    await new Promise((resolve) => setTimeout(resolve, 500)); // let closed connections settle
    report.atEnd = await server.measure();
    report.problems = classify(report.atEnd.problems, [warm, report.run]);
  } finally {
    await server.stop();
  }
  report.checks = checks(report);
  report.pass = report.checks.every((c) => c.pass);
  const markdown = toMarkdown(report);
  if (options.out !== '-') writeFileSync(path.resolve(ROOT, options.out), markdown);
  if (options.json) console.log(JSON.stringify(report));
  else console.log(markdown);
  process.exitCode = report.pass ? 0 : 1;
}

/**
 * autocannon ends a run by closing its connections, requests in flight included: the example's
 * /proxy handler then sees `request.signal` abort and its error handler logs "The client closed
 * the connection". Those are expected when they come at a run's end; anywhere else, or any other
 * problem, fails the soak.
 */
function classify(problems, runs) {
  const CLIENT_GONE = /The client closed the connection|^Error: aborted/;
  const atRunEnd = (time) => runs.some((run) => time >= run.endsAt - 250 && time <= run.endedAt + 1000);
  const endOfRunAborts = problems.filter((p) => CLIENT_GONE.test(p.text) && atRunEnd(p.time));
  const other = problems.filter((p) => !endOfRunAborts.includes(p));
  return {
    endOfRunAborts: endOfRunAborts.length,
    other: other.length,
    samples: other.slice(0, 5).map((p) => p.text),
  };
}

function checks(report) {
  const { run, afterWarmup: before, atEnd: after } = report;
  const growth = (key) => (after.memory[key] - before.memory[key]) / before.memory[key];
  return [
    { name: 'connection errors', value: run.errors, pass: run.errors === 0 },
    { name: 'timeouts', value: run.timeouts, pass: run.timeouts === 0 },
    { name: 'unexpected statuses', value: run.unexpected, pass: run.unexpected === 0 },
    { name: 'responses checked', value: run.checked, pass: run.checked > 0 && run.checked === run.requests },
    {
      name: 'unhandled rejections (server)',
      value: after.unhandledRejections,
      pass: after.unhandledRejections === 0,
    },
    {
      name: 'errors logged by the server (beyond end-of-run aborts)',
      value: report.problems.other,
      pass: report.problems.other === 0,
    },
    {
      name: 'heap used, end vs after warm-up',
      value: percent(growth('heapUsed')),
      pass: Math.abs(growth('heapUsed')) <= MEMORY_TOLERANCE,
    },
    // RSS settles more slowly than the heap (allocator pools, JIT code): gated on runs of 30 s and more.
    {
      name: 'RSS, end vs after warm-up',
      value: `${percent(growth('rss'))}${report.duration < 30 ? ' (not gated under 30 s)' : ''}`,
      pass: report.duration < 30 || growth('rss') <= MEMORY_TOLERANCE,
    },
  ];
}

/** Runs autocannon for `seconds`, checking every response's status against the mix. */
async function load(port, seconds) {
  const unexpectedSamples = [];
  let unexpected = 0;
  let checked = 0;
  const requests = MIX.map(({ expect, ...request }) => ({
    ...request,
    onResponse(status) {
      checked++;
      if (status !== expect) {
        unexpected++;
        if (unexpectedSamples.length < 5)
          unexpectedSamples.push(`${request.method} ${request.path}: ${status}`);
      }
    },
  }));
  const endsAt = Date.now() + seconds * 1000;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests,
    timeout: 10,
  });
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    throughputMiBs: +(result.throughput.average / 1024 / 1024).toFixed(1),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
    ),
    unexpected,
    unexpectedSamples,
    checked,
    endsAt,
    endedAt: Date.now(),
  };
}

function startServer() {
  const child = fork(path.join(ROOT, 'scripts/soak-server.cjs'), [], {
    cwd: ROOT,
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = (type) =>
    new Promise((resolve, reject) => {
      const onMessage = (message) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message);
      };
      const onExit = (code) =>
        reject(new Error(`the soak server exited (code ${code}) while waiting for "${type}"`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return next('listening').then(({ port }) => ({
    port,
    measure: () => {
      const reply = next('memory');
      child.send({ type: 'measure' });
      return reply;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.send({ type: 'stop' });
      }),
  }));
}

/** The example requires the built package (dist/): build it when missing or older than src/. */
function ensureBuilt() {
  const built = Math.min(...['dist/index.js', 'dist/testing.js'].map((f) => mtime(path.join(ROOT, f))));
  if (built > newest(path.join(ROOT, 'src'))) return;
  console.error('(building express-endpoints: dist/ is missing or older than src/)');
  execSync('npm run build', { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

function newest(dir) {
  let time = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(full) : mtime(full));
  }
  return time;
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function machine() {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

const MiB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const percent = (fraction) => `${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(1)}%`;

function toMarkdown(r) {
  const row = (name, a, b) => `| ${name} | ${a} | ${b} |`;
  const mem = ['heapUsed', 'rss', 'external', 'arrayBuffers'];
  return `# Soak test results

\`npm run soak${r.duration === 60 && r.connections === 100 ? '' : ` -- --duration ${r.duration} --connections ${r.connections}`}\` — ${r.pass ? '**PASS**' : '**FAIL**'}

- Date: ${r.date}
- Machine: ${r.machine}
- Server: the example app (\`examples/express-app/server.js\`, built package) in its own process with \`--expose-gc\`; autocannon in another, on loopback
- Load: ${r.connections} connections, ${r.warmup} s warm-up, then ${r.duration} s measured, cycling through ${MIX.length} requests per connection:
  ${MIX.map((m) => `\`${m.method} ${m.path}\` → ${m.expect}`).join(', ')}

## Main run

| | |
|---|---|
| Requests | ${r.run.requests} (${r.run.requestsPerSecond} req/s) |
| Throughput | ${r.run.throughputMiBs} MiB/s |
| Latency p50 / p99 / max | ${r.run.latencyMs.p50} / ${r.run.latencyMs.p99} / ${r.run.latencyMs.max} ms |
| Status codes | ${Object.entries(r.run.statusCodes)
    .map(([code, n]) => `${code}: ${n}`)
    .join(', ')} |
| Connection errors / timeouts | ${r.run.errors} / ${r.run.timeouts} |
| Unexpected statuses | ${r.run.unexpected}${r.run.unexpectedSamples.length ? ` (${r.run.unexpectedSamples.join('; ')})` : ''} |
| Unhandled rejections (server) | ${r.atEnd.unhandledRejections} |
| Errors logged by the server | ${r.problems.other}, plus ${r.problems.endOfRunAborts} "client closed the connection" from /proxy requests cut off when autocannon closed its connections at the end of the warm-up and main runs |

## Server memory (after forced GC)

| | after warm-up | at the end |
|---|---|---|
${mem.map((key) => row(key, MiB(r.afterWarmup.memory[key]), `${MiB(r.atEnd.memory[key])} (${percent((r.atEnd.memory[key] - r.afterWarmup.memory[key]) / r.afterWarmup.memory[key])})`)).join('\n')}

## Checks

| check | value | |
|---|---|---|
${r.checks.map((c) => `| ${c.name} | ${c.value} | ${c.pass ? 'pass' : '**FAIL**'} |`).join('\n')}
${r.problems.samples.length ? `\nFirst server problems:\n\n\`\`\`\n${r.problems.samples.join('\n')}\n\`\`\`\n` : ''}`;
}

function parseArgs(argv, defaults) {
  const result = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument: ${arg}`);
    const [name, inline] = arg.slice(2).split('=', 2);
    if (!(name in defaults))
      throw new Error(`Unknown option --${name}; options: ${Object.keys(defaults).join(', ')}`);
    if (typeof defaults[name] === 'boolean') result[name] = true;
    else result[name] = inline ?? argv[++i];
  }
  return result;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
