#!/usr/bin/env node
/**
 * `npm run soak [-- --duration 60 --connections 100 --warmup 10 --out scripts/soak-results.md]`
 *
 * Load and soak test against the example app (a child process, see soak-server.cjs) on loopback.
 * Of `--connections`, 90% are autocannon's keep-alive connections over a mix of GET, POST/PUT/PATCH
 * with bodies and streamed responses, and 10% are clients that abandon what they started: uploads
 * sent halfway, streamed downloads left before the answer or midway. One more client echoes bodies
 * of random sizes through /soak/echo and checks the length and SHA-256 of each one that comes back.
 * The soak's endpoints count their response streams: each must end, be cancelled or fail, once.
 *
 * After a warm-up run and again after the main run, the server forces GC and reports its memory.
 * Passes when there were zero connection errors and timeouts, zero unexpected statuses, every
 * echoed body intact, no response stream left live, no unhandled rejections or logged server
 * errors, and heap memory (and, on runs of 30 s or more, RSS) at the end within 20% of the reading
 * after warm-up. Writes a Markdown report to `--out` (use `--out -` for none), beside a JSON file
 * of the same name that keeps the latest run of each Node major, so one report shows them all;
 * exits 1 on failure; `--json` prints the summary as one JSON line.
 */
import { execSync, fork } from 'node:child_process';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MEMORY_TOLERANCE = 0.2;
/** Share of the connections that abandon uploads and downloads midway. */
const ABORTING_SHARE = 0.1;

const options = parseArgs(process.argv.slice(2), {
  duration: 60,
  connections: 100,
  warmup: undefined,
  out: 'scripts/soak-results.md',
  json: false,
});
const duration = Number(options.duration);
const connections = Number(options.connections);
const abortingClients = Math.max(1, Math.round(connections * ABORTING_SHARE));
const loadConnections = connections - abortingClients;
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
  const report = {
    duration,
    connections,
    loadConnections,
    abortingClients,
    warmup,
    date: new Date().toISOString(),
    node: process.version,
    machine: machine(),
  };
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
  const markdown = toMarkdown(record(report));
  if (options.json) console.log(JSON.stringify(report));
  else console.log(runSection(report));
  if (options.out !== '-') writeFileSync(path.resolve(ROOT, options.out), markdown);
  process.exitCode = report.pass ? 0 : 1;
}

/**
 * The latest run of each Node major, kept in the JSON file beside `--out`; this run replaces its
 * major's. Without an output file, only this run.
 */
function record(report) {
  if (options.out === '-') return [report];
  const file = path.resolve(ROOT, options.out.replace(/\.md$/, '') + '.json');
  let runs = {};
  try {
    runs = JSON.parse(readFileSync(file, 'utf8')).runs ?? {};
  } catch {
    // first run
  }
  runs[process.versions.node.split('.')[0]] = report;
  writeFileSync(file, JSON.stringify({ runs }, null, 2) + '\n');
  return Object.entries(runs)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, run]) => run);
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
      name: 'echoed bodies intact (length and SHA-256)',
      value: `${run.integrity.intact} of ${run.integrity.sent}${run.integrity.samples.length ? ` (${run.integrity.samples.join('; ')})` : ''}`,
      pass: run.integrity.sent > 0 && run.integrity.intact === run.integrity.sent,
    },
    {
      name: 'clients that left midway',
      value: `${run.aborts.uploads} uploads, ${run.aborts.beforeAnswer} downloads before the answer, ${run.aborts.midBody} mid-body`,
      pass: run.aborts.uploads > 0 && run.aborts.beforeAnswer + run.aborts.midBody > 0,
    },
    ...streamChecks(after.streams),
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

/**
 * Every response stream the soak's endpoints handed over ended, was cancelled or failed, once:
 * one still live leaks its source. Those whose client had left before the endpoint answered are
 * counted apart, so that a failure names its cause: such a stream must be cancelled too.
 */
function streamChecks(streams) {
  const others = streams.live - streams.liveGoneAtReturn;
  return [
    {
      name: 'response streams ended, cancelled or failed, once',
      value: `${streams.started} started: ${streams.ended} ended, ${streams.cancelled} cancelled, ${streams.errored} failed, ${others} left live${streams.settledTwice ? `, ${streams.settledTwice} settled twice` : ''}`,
      pass: streams.started > 0 && others === 0 && streams.settledTwice === 0,
    },
    {
      name: 'response streams left live, answered after their client had left (never cancelled)',
      value: streams.liveGoneAtReturn,
      pass: streams.liveGoneAtReturn === 0,
    },
  ];
}

/**
 * Runs autocannon for `seconds`, checking every response's status against the mix, beside the
 * aborting clients and the integrity client.
 */
async function load(port, seconds) {
  const until = Date.now() + seconds * 1000;
  const aborts = { uploads: 0, beforeAnswer: 0, midBody: 0 };
  const integrity = { sent: 0, intact: 0, bytes: 0, samples: [] };
  const others = [
    integrityClient(port, until, integrity),
    ...Array.from({ length: abortingClients }, (_, i) => abortingClient(port, until, aborts, i)),
  ];
  const result = await autocannonRun(port, seconds);
  await Promise.all(others);
  return { ...result, aborts, integrity };
}

/** Echoes bodies of random sizes (0 to 512 KiB) on one keep-alive connection; checks each. */
async function integrityClient(port, until, stats) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (Date.now() < until) {
    const body = randomBytes(randomInt(0, 512 * 1024 + 1));
    stats.sent++;
    try {
      const reply = await post(agent, port, '/soak/echo', body);
      const intact =
        reply.status === 200 && reply.body.length === body.length && sha256(reply.body) === sha256(body);
      if (intact) {
        stats.intact++;
        stats.bytes += body.length;
      } else if (stats.samples.length < 5) {
        stats.samples.push(`${body.length} bytes sent, ${reply.status} with ${reply.body.length} bytes back`);
      }
    } catch (error) {
      if (stats.samples.length < 5) stats.samples.push(`${body.length} bytes sent: ${error.message}`);
    }
  }
  agent.destroy();
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

function post(agent, port, target, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: target,
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/octet-stream', 'content-length': body.length },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
    });
    req.end(body);
  });
}

/** Leaves what it starts, in turn: an upload sent halfway, a streamed download. */
async function abortingClient(port, until, stats, index) {
  for (let turn = index; Date.now() < until; turn++) {
    if (turn % 2 === 0) await halfSentUpload(port, stats);
    else await abandonedDownload(port, stats);
  }
}

/** Promises a body of up to 512 KiB, sends part of it, and goes. */
function halfSentUpload(port, stats) {
  return new Promise((resolve) => {
    const size = randomInt(64 * 1024, 512 * 1024);
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.once('close', resolve);
    socket.once('connect', () => {
      socket.write(
        `POST /soak/echo HTTP/1.1\r\nHost: soak\r\nContent-Type: application/octet-stream\r\nContent-Length: ${size}\r\n\r\n`,
      );
      socket.write(randomBytes(randomInt(1, size)));
      setTimeout(
        () => {
          stats.uploads++;
          socket.destroy();
        },
        randomInt(0, 50),
      );
    });
  });
}

/**
 * Asks for an 8 MiB streamed download answered after up to 20 ms, and leaves: half the time
 * before the answer can have come, otherwise after reading up to 2 MiB of it.
 */
function abandonedDownload(port, stats) {
  return new Promise((resolve) => {
    const wait = randomInt(1, 20);
    const early = Math.random() < 0.5;
    const readUpTo = randomInt(1, 2 * 1024 * 1024);
    let received = 0;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.once('close', resolve);
    socket.once('connect', () => {
      socket.write(`GET /soak/download?size=${8 * 1024 * 1024}&wait=${wait} HTTP/1.1\r\nHost: soak\r\n\r\n`);
      if (early) {
        setTimeout(
          () => {
            stats.beforeAnswer++;
            socket.destroy();
          },
          randomInt(0, wait),
        );
      }
    });
    socket.on('data', (chunk) => {
      received += chunk.length;
      if (early || received < readUpTo || socket.destroyed) return;
      stats.midBody++;
      socket.destroy();
    });
  });
}

async function autocannonRun(port, seconds) {
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
    connections: loadConnections,
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
  console.error('(building express-file-endpoints: dist/ is missing or older than src/)');
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

/** The report: a table of the recorded Node versions, then each run in full. */
function toMarkdown(runs) {
  const growth = (r, key) =>
    percent((r.atEnd.memory[key] - r.afterWarmup.memory[key]) / r.afterWarmup.memory[key]);
  const latest = runs[runs.length - 1];
  return `# Soak test results

Run on each supported Node version (the latest run of each is kept), the last with \`${command(latest)}\`.

| Node | result | requests (req/s) | echoed bodies intact | left midway (uploads / downloads) | response streams left live | heap after GC, warm-up → end |
|---|---|---|---|---|---|---|
${runs
  .map((r) =>
    [
      r.node,
      r.pass ? 'pass' : '**FAIL**',
      `${r.run.requests} (${r.run.requestsPerSecond})`,
      `${r.run.integrity.intact} of ${r.run.integrity.sent} (${MiB(r.run.integrity.bytes)})`,
      `${r.run.aborts.uploads} / ${r.run.aborts.beforeAnswer + r.run.aborts.midBody}`,
      `${r.atEnd.streams.live} of ${r.atEnd.streams.started}`,
      `${MiB(r.afterWarmup.memory.heapUsed)} → ${MiB(r.atEnd.memory.heapUsed)} (${growth(r, 'heapUsed')})`,
    ].join(' | '),
  )
  .map((row) => `| ${row} |`)
  .join('\n')}

${runs.map(runSection).join('\n')}`;
}

function command(r) {
  const standard = r.duration === 60 && r.connections === 100;
  return `npm run soak${standard ? '' : ` -- --duration ${r.duration} --connections ${r.connections}`}`;
}

/** One run in full. */
function runSection(r) {
  const row = (name, a, b) => `| ${name} | ${a} | ${b} |`;
  const mem = ['heapUsed', 'rss', 'external', 'arrayBuffers'];
  return `## Node ${r.node} — ${r.pass ? '**PASS**' : '**FAIL**'}

- Command: \`${command(r)}\`
- Date: ${r.date}
- Machine: ${r.machine}
- Server: the example app (\`examples/express-app/server.js\`, built package) with the soak's endpoints (\`scripts/soak-app\`) under \`/soak\`, in its own process with \`--expose-gc\`; the clients in another, on loopback
- Load: ${r.loadConnections} autocannon connections, ${r.warmup} s warm-up, then ${r.duration} s measured, cycling through ${MIX.length} requests per connection:
  ${MIX.map((m) => `\`${m.method} ${m.path}\` → ${m.expect}`).join(', ')}
- Beside it: ${r.abortingClients} clients that leave what they start (uploads of up to 512 KiB sent partway; 8 MiB streamed downloads left before the answer or after up to 2 MiB), and one that echoes random bodies of up to 512 KiB through \`POST /soak/echo\` and checks each one's length and SHA-256

### Main run

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
| Echoed bodies | ${r.run.integrity.sent} sent, ${r.run.integrity.intact} back intact (${MiB(r.run.integrity.bytes)}) |
| Clients that left | ${r.run.aborts.uploads} mid-upload, ${r.run.aborts.beforeAnswer} before a download's answer, ${r.run.aborts.midBody} mid-download |
| Response streams (whole soak) | ${r.atEnd.streams.started} started, ${r.atEnd.streams.ended} ended, ${r.atEnd.streams.cancelled} cancelled, ${r.atEnd.streams.errored} failed (an upload that broke off), ${r.atEnd.streams.live} left live${r.atEnd.streams.live ? ` (${r.atEnd.streams.liveGoneAtReturn} answered after their client had left)` : ''} |
| Unhandled rejections (server) | ${r.atEnd.unhandledRejections} |
| Errors logged by the server | ${r.problems.other}, plus ${r.problems.endOfRunAborts} "client closed the connection" from /proxy requests cut off when autocannon closed its connections at the end of the warm-up and main runs |

### Server memory (after forced GC)

| | after warm-up | at the end |
|---|---|---|
${mem.map((key) => row(key, MiB(r.afterWarmup.memory[key]), `${MiB(r.atEnd.memory[key])} (${percent((r.atEnd.memory[key] - r.afterWarmup.memory[key]) / r.afterWarmup.memory[key])})`)).join('\n')}

### Checks

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
