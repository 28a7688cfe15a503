/**
 * Scratch apps for the loading tests: a folder under the system temp dir, outside this
 * repository's node_modules, with tsx "installed" (a symlink to this repository's copy) or not,
 * and a fresh `node` process that loads it the way a user's server would.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
export const root = path.join(__dirname, '../..');
export const builtEntry = path.join(root, 'dist/index.js');
const script = path.join(root, 'test/fixtures/ts-load/load-app.cjs');

/** Node's own type stripping is on by default from 22.18 (and in 23.6+). */
export const nodeStripsTypes = Boolean((process.features as { typescript?: unknown }).typescript);

/** Where the library tries Node's stripping first: Node 24.21 and later (src/load/type-stripping.ts). */
export const stripsFirst = ((): boolean => {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return nodeStripsTypes && (major > 24 || (major === 24 && minor >= 21));
})();

export interface AppOutcome {
  responses?: Array<{ status: number; body: unknown }>;
  error?: string;
  crash?: string;
  /** Whether tsx was loaded into the process. */
  tsx?: boolean;
  /** The process's warnings, `Name: message`. */
  warnings?: string[];
}

/** The app's answers, once it loaded and ran without an error or a crash. */
export function responses(outcome: AppOutcome): Array<{ status: number; body: unknown }> {
  expect(outcome.error, 'load error').to.equal(undefined);
  expect(outcome.crash, 'crash').to.equal(undefined);
  return outcome.responses!;
}

const made: string[] = [];

/** Writes `files` (path -> source) into a new temp folder; `tsx: true` installs tsx in it. */
export function writeApp(files: Record<string, string>, options: { tsx: boolean }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ee-load-app-'));
  made.push(dir);
  for (const [name, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), source);
  }
  if (options.tsx) {
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(path.join(root, 'node_modules/tsx'), path.join(dir, 'node_modules/tsx'), 'dir');
  } else if (canResolveTsx(dir)) {
    throw new Error(`tsx is reachable from ${dir}; the "without tsx" tests need a folder outside it`);
  }
  return dir;
}

export function removeApps(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

function canResolveTsx(dir: string): boolean {
  try {
    createRequire(path.join(dir, 'x.js')).resolve('tsx/cjs/api');
    return true;
  } catch {
    return false;
  }
}

/** Loads `dir` in plain `node` (with `nodeArgs`) started in `cwd`, and fetches each path. */
export async function loadApp(
  dir: string,
  paths: string[],
  options: { cwd?: string; nodeArgs?: string[] } = {},
): Promise<AppOutcome> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS; // no loader may sneak in through the environment
  const { stdout } = await run(
    process.execPath,
    [...(options.nodeArgs ?? []), script, builtEntry, dir, ...paths],
    { cwd: options.cwd ?? dir, env, timeout: 20_000, killSignal: 'SIGKILL' },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as AppOutcome;
}

/** Builds the package unless dist is newer than every source file. */
export async function ensureBuilt(): Promise<void> {
  if (!isBuildFresh()) await run('npm', ['run', 'build'], { cwd: root, timeout: 110_000 });
}

function isBuildFresh(): boolean {
  try {
    return statSync(builtEntry).mtimeMs >= newestMtime(path.join(root, 'src'));
  } catch {
    return false;
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}
