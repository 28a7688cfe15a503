#!/usr/bin/env node
/**
 * The Node versions this project supports, fetched from the npm registry so that CI and every
 * developer run the same binaries.
 *
 *   node scripts/node-versions.mjs path 24      prints the path of Node 24's binary (fetched once)
 *   node scripts/node-versions.mjs fetch        fetches every supported version
 *   node scripts/node-versions.mjs list         prints the supported majors and their pinned versions
 *   node scripts/node-versions.mjs run 22 -- <command…>
 *                                               runs a command with Node 22 first on PATH
 *   node scripts/node-versions.mjs test 22     runs the fast, slow and package suites on Node 22
 *                                               (`npm run test:suites`); this is `npm run test:node -- 22`
 *
 * Each binary comes from the registry's `node-<platform>-<arch>` package (what the `node` package
 * installs), pinned to an exact version below; `npm pack` checks the tarball's integrity. They
 * are kept in `$EXPRESS_FILE_ENDPOINTS_NODE_CACHE`, or `~/.cache/express-file-endpoints/node`, between runs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Supported majors, pinned. Raise a pin in its own commit, after the matrix passes on it. */
export const PINNED = {
  22: '22.23.3',
  24: '24.21.0',
  26: '26.10.0',
};

const CACHE =
  process.env.EXPRESS_FILE_ENDPOINTS_NODE_CACHE ??
  join(homedir(), '.cache', 'express-file-endpoints', 'node');

function versionOf(major) {
  const version = PINNED[String(major).replace(/^v/, '')];
  if (!version) {
    throw new Error(
      `Node ${major} is not a supported version; choose one of ${Object.keys(PINNED).join(', ')}`,
    );
  }
  return version;
}

/** The bin folder of a pinned Node, fetched from the npm registry the first time. */
export function nodeBinDir(major) {
  const version = versionOf(major);
  const target = join(CACHE, version);
  const bin = join(target, 'bin');
  if (existsSync(join(bin, 'node'))) return bin;

  const pkg = `node-${process.platform}-${process.arch}@${version}`;
  process.stderr.write(`fetching ${pkg} from the npm registry…\n`);
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'node-fetch-'));
  try {
    const tarball = execFileSync('npm', ['pack', pkg, '--silent', '--pack-destination', work], {
      cwd: work,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', work]);
    // Renamed into place whole, so an interrupted fetch never leaves a half-unpacked version.
    rmSync(target, { recursive: true, force: true });
    renameSync(join(work, 'package'), target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

/** Runs a command with the given Node first on PATH (npm, npx and child `node` calls included). */
export function runWithNode(major, command, args) {
  const bin = nodeBinDir(major);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function main(argv) {
  const [verb, ...rest] = argv;
  switch (verb) {
    case 'path':
      process.stdout.write(`${join(nodeBinDir(rest[0] ?? '24'), 'node')}\n`);
      return 0;
    case 'fetch':
      for (const major of rest.length ? rest : Object.keys(PINNED)) nodeBinDir(major);
      return 0;
    case 'list':
      for (const [major, version] of Object.entries(PINNED)) process.stdout.write(`${major}\t${version}\n`);
      return 0;
    case 'test': {
      const major = rest[0] ?? '24';
      const started = Date.now();
      const status = runWithNode(major, 'npm', ['run', 'test:suites']);
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stderr.write(
        `Node ${versionOf(major)}: test suites ${status === 0 ? 'passed' : 'FAILED'} in ${seconds} s\n`,
      );
      return status;
    }
    case 'run': {
      const [major, separator, command, ...args] = rest;
      if (!major || separator !== '--' || !command) break;
      return runWithNode(major, command, args);
    }
  }
  process.stderr.write(
    'usage: node scripts/node-versions.mjs path <major> | fetch [major…] | list | test <major> | run <major> -- <command…>\n',
  );
  return 2;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
