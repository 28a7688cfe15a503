/**
 * The packed tarball, made once per test run and shared by every package test (pack.test.ts, readme.test.ts):
 * `npm pack` runs the build (prepack), which is the slow part. Also the helpers that install it into scratch
 * apps the way a user would, in a plain environment.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ROOT = resolve(__dirname, '../..');
export const KEEP = process.env.KEEP_SCRATCH === '1';

/**
 * Scratch processes get a plain environment: no NODE_OPTIONS (so no tsx hook can leak in) and
 * none of the `npm_*` variables `npm run` sets for this repo, which would steer the nested npm.
 */
export const cleanEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE_OPTIONS'),
);

export function exec(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv) {
  return run(file, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
}

export interface PackResult {
  filename: string;
  files: Array<{ path: string }>;
}

/** `npm pack --json` prints prepack's build log on stdout before the JSON array. */
function parsePackJson(stdout: string): PackResult {
  for (let at = stdout.indexOf('['); at !== -1; at = stdout.indexOf('\n[', at + 1)) {
    try {
      const [result] = JSON.parse(stdout.slice(at)) as PackResult[];
      if (result) return result;
    } catch {
      // Not the JSON yet: a `[` inside the build log.
    }
  }
  throw new Error(`no JSON in npm pack output:\n${stdout}`);
}

export interface Packed {
  /** A scratch folder for this run; removed at the end. */
  scratch: string;
  tarball: string;
  pack: PackResult;
}

let packed: Promise<Packed> | undefined;

/** Packs once; every caller gets the same tarball. */
export function packOnce(): Promise<Packed> {
  packed ??= (async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'express-file-endpoints-pack-'));
    const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', scratch], ROOT);
    const pack = parsePackJson(stdout);
    return { scratch, tarball: join(scratch, pack.filename), pack };
  })();
  return packed;
}

// A root hook: once every package test is done.
after(async () => {
  if (packed && !KEEP) await rm((await packed).scratch, { recursive: true, force: true });
});

/** `npm install <args>` in `dir`, from the npm cache when it can (fast, and no network). */
export async function npmInstall(dir: string, args: string[]) {
  try {
    await exec('npm', ['install', '--no-audit', '--no-fund', '--offline', ...args], dir);
  } catch {
    // A cold npm cache: let npm fetch what it lacks.
    await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...args], dir);
  }
}
