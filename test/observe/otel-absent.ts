/**
 * A child process of opentelemetry.test.ts: serves requests without OpenTelemetry and prints, as one
 * JSON line, their statuses, every `@opentelemetry/*` module the process asked for and every one it
 * loaded.
 *
 *   no-sdk          `@opentelemetry/api` is installed, but no SDK registered itself
 *   not-installed   the API cannot be resolved, although something registered OpenTelemetry's globals
 */
import Module from 'node:module';

const mode = process.argv[2];
const asked: string[] = [];
type Resolve = (request: string, ...rest: unknown[]) => string;
const modules = Module as unknown as { _resolveFilename: Resolve };
const resolve = modules._resolveFilename;
modules._resolveFilename = function (request, ...rest) {
  if (request.startsWith('@opentelemetry/')) {
    // tsx's resolver retries with extensions (`@opentelemetry/api.js`, …): one require, one entry.
    if (!/\.\w+$|\/index/.test(request)) asked.push(request);
    // As if the package were absent from node_modules.
    if (mode === 'not-installed') {
      throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
    }
  }
  return resolve.call(this, request, ...rest);
};
if (mode === 'not-installed') {
  (globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')] = { version: '1.9.0' };
}

async function main(): Promise<void> {
  const { startHost } = require('./hosts') as typeof import('./hosts');
  const host = await startHost('node:http');
  const statuses: number[] = [];
  for (const path of ['/api/users/1', '/errors/throw', '/stream', '/nope']) {
    const response = await fetch(host.url + path);
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  await host.close();
  const loaded = Object.keys(require.cache).filter((file) => file.includes(`@opentelemetry`));
  console.log(JSON.stringify({ statuses, asked, loaded }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
