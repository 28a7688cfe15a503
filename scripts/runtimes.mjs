#!/usr/bin/env node
/**
 * Bun and Deno, the runtimes besides Node that the shared test suites serve the tree on through
 * `.fetch` (`npm run test:runtimes`, docs/runtimes.md). Fetched from the npm registry like the Node
 * binaries (scripts/node-versions.mjs), so that CI and every developer run the same ones: each is
 * pinned to an exact version and to its tarball's integrity, which `npm pack` checks against the
 * registry and this script against the pin.
 *
 *   node scripts/runtimes.mjs fetch [bun|deno]   fetches them, once (default: both)
 *   node scripts/runtimes.mjs path bun           prints the binary's path, fetching it first if needed
 *   node scripts/runtimes.mjs list               prints each runtime, its pinned version and its path
 *
 * They are kept in `$EXPRESS_FILE_ENDPOINTS_RUNTIME_CACHE`, or `~/.cache/express-file-endpoints`,
 * as `<runtime>/<version>/`. Only the Linux x64 builds are pinned: elsewhere the runtime suites say
 * that they have no binary. Not dependencies of the package: each is ~100 MB and platform-specific.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Raise a pin in its own commit, with its integrity (`npm view <package>@<version> dist.integrity`). */
export const RUNTIMES = {
  bun: {
    label: 'Bun',
    package: '@oven/bun-linux-x64',
    version: '1.4.5',
    integrity:
      'sha512-IWX9BELoGHAUtMonkeSaNaZwXzRk+oDw6Mk+HBFXd3KHYIBNBsIGRupMZPcgNoDbJpLu6gAJjIoIVPZtt1aJ1g==',
    binary: 'bin/bun',
  },
  deno: {
    label: 'Deno',
    package: '@deno/linux-x64-glibc',
    version: '2.9.6',
    integrity:
      'sha512-3md4TKLCuzsLDmfOoC5KN7NAZaxSVkMgm64vg6foD00JBADCpYS2/5QqXfzgnP5ZQz3iLP9vBQJtEgc116OAoQ==',
    binary: 'deno',
  },
};

const CACHE =
  process.env.EXPRESS_FILE_ENDPOINTS_RUNTIME_CACHE ?? join(homedir(), '.cache', 'express-file-endpoints');

function pinOf(name) {
  const pin = RUNTIMES[name];
  if (!pin)
    throw new Error(`${name} is not a pinned runtime; choose one of ${Object.keys(RUNTIMES).join(', ')}`);
  return pin;
}

/** Whether this machine can run the pinned build. */
export function isSupportedPlatform() {
  return process.platform === 'linux' && process.arch === 'x64';
}

/** The binary's path, fetched or not. */
export function runtimeBinaryPath(name) {
  const pin = pinOf(name);
  return join(CACHE, name, pin.version, pin.binary);
}

/** The binary's path when it has been fetched, else `undefined`: never fetches. */
export function runtimeBinary(name) {
  const binary = runtimeBinaryPath(name);
  return isSupportedPlatform() && existsSync(binary) ? binary : undefined;
}

/** The binary's path, fetched from the npm registry the first time. */
export function fetchRuntime(name) {
  const pin = pinOf(name);
  const binary = runtimeBinaryPath(name);
  if (existsSync(binary)) return binary;
  if (!isSupportedPlatform()) {
    throw new Error(`${pin.label} is pinned for Linux x64 only, not ${process.platform} ${process.arch}`);
  }
  const spec = `${pin.package}@${pin.version}`;
  process.stderr.write(`fetching ${spec} from the npm registry…\n`);
  const target = join(CACHE, name, pin.version);
  mkdirSync(join(CACHE, name), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), `${name}-fetch-`));
  try {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', spec, '--json', '--silent', '--pack-destination', work], {
        cwd: work,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    if (packed.integrity !== pin.integrity) {
      throw new Error(
        `${spec}: the registry's tarball is ${packed.integrity}, not the pinned ${pin.integrity}`,
      );
    }
    execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work]);
    // Renamed into place whole, so an interrupted fetch never leaves a half-unpacked version.
    rmSync(target, { recursive: true, force: true });
    renameSync(join(work, 'package'), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return binary;
}

function main(argv) {
  const [verb, ...rest] = argv;
  switch (verb) {
    case 'fetch':
      for (const name of rest.length ? rest : Object.keys(RUNTIMES)) fetchRuntime(name);
      return 0;
    case 'path':
      if (!rest[0]) break;
      process.stdout.write(`${fetchRuntime(rest[0])}\n`);
      return 0;
    case 'list':
      for (const [name, pin] of Object.entries(RUNTIMES)) {
        const where = runtimeBinary(name) ?? 'not fetched';
        process.stdout.write(`${name}\t${pin.version}\t${where}\n`);
      }
      return 0;
  }
  process.stderr.write('usage: node scripts/runtimes.mjs fetch [bun|deno] | path <bun|deno> | list\n');
  return 2;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
