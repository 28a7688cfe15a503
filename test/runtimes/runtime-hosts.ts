/**
 * Bun and Deno as hosts of the shared suites: each serves the tree through `endpoints.fetch` on its own
 * server (`Bun.serve`, `Deno.serve`), in a child process running ./harness.ts, and the suites drive it
 * over HTTP from here as they drive the Node hosts. What a suite reads of the serving process (the
 * `onError` calls; what the fixture endpoints record in their shared state: test/fixtures/app's, and
 * the hardening fixtures' stream records) is read back from the harness after each request, and every
 * few milliseconds while a server runs, so a suite written for the Node hosts runs unchanged.
 *
 * The library they run is the source, bundled as the package's ES module entry is (into
 * test/runtimes/.scratch), so no build is needed first. The binaries are the pinned ones of
 * scripts/runtimes.mjs; one that has not been fetched is left out, and ./runtimes.test.ts says so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import type { EndpointErrorInfo, ErrorReporter, RouteInfo } from '../../src';
import { state } from '../fixtures/app/_lib/store';
import { state as hardening, type StreamRecord } from '../fixtures/hardening-app/app/_lib/state';
import type { Host, HostOptions, HostRequest, Reply, Served } from '../integration/hosts';
import { requestOver } from '../support/net';
import { RUNTIMES, runtimeBinary, type RuntimeKey } from '../../scripts/runtimes.mjs';

const ROOT = path.resolve(__dirname, '../..');
const SCRATCH = path.join(__dirname, '.scratch');
const HARNESS = path.join(__dirname, 'harness.ts');

/**
 * The command that runs `script` on a runtime, as a user runs an app. Deno gets read and network access
 * and nothing else (what a user's app needs), unless a test grants more; `--no-lock` keeps it from
 * writing a deno.lock into the repository.
 */
export function runtimeCommand(
  key: RuntimeKey,
  binary: string,
  script: string,
  args: string[],
  denoPermissions: string[] = [],
): string[] {
  if (key === 'bun') return [binary, 'run', script, ...args];
  return [binary, 'run', '--allow-read', '--allow-net', ...denoPermissions, '--no-lock', script, ...args];
}

let bundled: string | undefined;

/** src/index.ts as one ES module, dependencies left to node_modules, as tsup builds dist/index.mjs. */
export function libraryBundle(): string {
  if (bundled) return bundled;
  mkdirSync(SCRATCH, { recursive: true });
  const outfile = path.join(SCRATCH, 'express-file-endpoints.mjs');
  buildSync({
    entryPoints: [path.join(ROOT, 'src/index.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    logLevel: 'error',
    define: { __LIBRARY_VERSION__: JSON.stringify(libraryVersion()) },
    // tsup's shims: the CommonJS names the sources use, in an ES module.
    banner: {
      js: [
        "import { fileURLToPath as __shimPath } from 'node:url';",
        "import { dirname as __shimDirname } from 'node:path';",
        'const __filename = __shimPath(import.meta.url);',
        'const __dirname = __shimDirname(__filename);',
      ].join('\n'),
    },
  });
  return (bundled = outfile);
}

let cli: string | undefined;

/** The command line, src/cli/main.ts, as one CommonJS file, as tsup builds dist/cli.js. */
export function cliBundle(): string {
  if (cli) return cli;
  mkdirSync(SCRATCH, { recursive: true });
  const outfile = path.join(SCRATCH, 'cli.cjs');
  buildSync({
    entryPoints: [path.join(ROOT, 'src/cli/main.ts')],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    logLevel: 'error',
    define: { __LIBRARY_VERSION__: JSON.stringify(libraryVersion()) },
  });
  return (cli = outfile);
}

function libraryVersion(): string {
  return (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

interface HarnessEvent {
  kind: 'state' | 'error';
  key?: string;
  item?: unknown;
  server?: number;
  name?: string;
  message?: string;
  info?: Omit<EndpointErrorInfo, 'request'>;
  request?: { method: string; url: string };
}

/** One child process of a runtime, serving every tree its host starts. */
class Harness {
  readonly #child: ChildProcess;
  readonly #control: Promise<string>;
  #stderr = '';
  #seen = 0;
  /** Pulls run one after another, each after what was asked before it. */
  #pulls: Promise<void> = Promise.resolve();
  #polling = false;
  #poller: NodeJS.Timeout | undefined;
  readonly #reporters = new Map<number, ErrorReporter | undefined>();

  constructor(command: string[]) {
    this.#child = spawn(command[0]!, command.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    this.#child.stderr!.on('data', (chunk: Buffer) => (this.#stderr += chunk.toString()));
    this.#control = new Promise((resolve, reject) => {
      let out = '';
      this.#child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const port = /^listening (\d+)$/m.exec(out)?.[1];
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      this.#child.once('exit', (code) =>
        reject(new Error(`${command[0]} exited (${code}) before it listened:\n${this.#stderr}`)),
      );
    });
    // The suites end when their tests do; the harness goes with the test process.
    this.#child.unref();
    for (const stream of [this.#child.stdout, this.#child.stderr])
      (stream as unknown as { unref(): void }).unref();
    process.once('exit', () => this.#child.kill());
  }

  async command<T>(name: string, body?: unknown): Promise<T> {
    const response = await fetch(`${await this.#control}/${name}`, {
      method: body === undefined ? 'GET' : 'POST',
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((error: unknown) => {
      throw new Error(`harness ${name}: ${String(error)}; the runtime said:\n${this.#stderr}`);
    });
    if (!response.ok) throw new Error(`harness ${name}: ${await response.text()}\n${this.#stderr}`);
    return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
  }

  async start(options: HostOptions): Promise<{ id: number; port: number; routes: RouteInfo[] }> {
    const started = await this.command<{ id: number; port: number; routes: RouteInfo[] }>('start', {
      dir: options.dir,
      bodyLimit: options.bodyLimit,
      middleware: options.middleware?.map(String),
      asyncContext: options.mount?.asyncContext,
      cache: options.mount?.cache !== undefined,
      etag: options.mount?.etag,
    });
    this.#reporters.set(started.id, options.onError);
    this.#poller ??= setInterval(() => this.#poll(), 20).unref();
    return started;
  }

  async stop(id: number): Promise<void> {
    await this.sync();
    await this.command('stop', { id });
    this.#reporters.delete(id);
    if (this.#reporters.size === 0) {
      clearInterval(this.#poller);
      this.#poller = undefined;
    }
  }

  /**
   * Brings what happened in the harness until now over: state to the fixture store here, errors to
   * their `onError`. Resolves once a pull that started after the call has ended.
   */
  sync(): Promise<void> {
    return (this.#pulls = this.#pulls.catch(() => {}).then(() => this.#pull()));
  }

  /** For what happens after a request's answer (`after()` callbacks, a client that left). */
  #poll(): void {
    if (this.#polling) return;
    this.#polling = true;
    this.sync()
      .catch(() => {})
      .finally(() => (this.#polling = false));
  }

  async #pull(): Promise<void> {
    const { events, next, streams } = await this.command<{
      events: HarnessEvent[];
      next: number;
      streams: Record<string, StreamRecord>;
    }>(`events?since=${this.#seen}`);
    this.#seen = next;
    // Records are changed in place there: each pull brings them whole (ids are never reused).
    Object.assign(hardening.streams, streams);
    for (const event of events) {
      if (event.kind === 'state') {
        (state as unknown as Record<string, unknown[]>)[event.key!]!.push(event.item);
        continue;
      }
      const error = Object.assign(new Error(event.message), { name: event.name });
      const request = event.request as Request | undefined;
      this.#reporters.get(event.server!)?.(error, { ...event.info!, request });
    }
  }
}

const harnesses = new Map<RuntimeKey, Harness>();

function runtimeHost(key: RuntimeKey, binary: string): Host<Served> {
  const pin = RUNTIMES[key];
  return {
    name: `${pin.label} ${pin.version}`,
    trustsProxy: false,
    node: false,
    sockets: true,
    closesOnUnreadBody: key === 'deno',
    resolvesDotSegments: key === 'bun',
    async start(options) {
      const needNode = (['prefix', 'first', 'bodyParsers', 'compression'] as const).filter((k) => options[k]);
      if (needNode.length > 0) throw new Error(`${pin.label} has no Node app for ${needNode.join(', ')}`);
      let harness = harnesses.get(key);
      if (!harness) {
        // Write access to where uploads are saved only, as an app that saves uploads has it: the temporary
        // folder (test/multipart) and the contract fixture's own folder (test/contract/uploads.test.ts).
        const uploads = [
          `--allow-write=${tmpdir()},${path.join(ROOT, 'test/fixtures/contract-app/.uploads')}`,
        ];
        harness = new Harness(runtimeCommand(key, binary, HARNESS, [libraryBundle()], uploads));
        harnesses.set(key, harness);
      }
      const { id, port, routes } = await harness.start(options);
      const url = `http://127.0.0.1:${port}`;
      return {
        url,
        routes,
        async request(path: string, init?: HostRequest): Promise<Reply> {
          const reply = await requestOver(url, path, init);
          // Whatever the request made the harness record is here before the caller looks.
          await harness.sync();
          return reply;
        },
        close: () => harness.stop(id),
      };
    },
  };
}

/** The runtimes whose pinned binary has been fetched, as hosts. */
export const runtimeHosts: Host<Served>[] = (Object.keys(RUNTIMES) as RuntimeKey[]).flatMap((key) => {
  const binary = runtimeBinary(key);
  return binary ? [runtimeHost(key, binary)] : [];
});
