/**
 * The fixture apps of test/integration/test-runners.test.ts, each copied to a temp folder and laid out as npm
 * installs an app: the built package copied into node_modules/express-file-endpoints, every other package a link
 * to this repository's own. Copied, not linked: Jest and Vitest judge a file by its real path, and a link to this
 * repository would make the package look like the app's own source (Jest would compile it, and Vitest would run
 * it in its module runner without the setting the documentation asks for).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures');

const made: string[] = [];

/** A copy of `test/fixtures/<fixture>`, with `files` (path -> text) written over it. */
export function scratchApp(fixture: string, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), `ee-${fixture}-`));
  made.push(dir);
  cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (name.startsWith('.')) continue;
    symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name), 'dir');
  }
  const installed = path.join(modules, 'express-file-endpoints');
  mkdirSync(installed);
  cpSync(path.join(ROOT, 'package.json'), path.join(installed, 'package.json'));
  cpSync(path.join(ROOT, 'dist'), path.join(installed, 'dist'), { recursive: true });
  return dir;
}

export function removeScratchApps(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface RunResult {
  code: number;
  output: string;
}

/**
 * Runs `node <args>` in `cwd` with a plain environment: no NODE_OPTIONS (no loader of this repository's tests
 * may leak in) and none of the `npm_*` variables of `npm run`.
 */
export async function runNode(args: string[], cwd: string, timeout = 60_000): Promise<RunResult> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE_OPTIONS'),
  );
  try {
    const { stdout, stderr } = await run(process.execPath, args, {
      cwd,
      env: { ...env, FORCE_COLOR: '0', NO_COLOR: '1' },
      timeout,
      killSignal: 'SIGKILL',
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      output: `${failed.stdout ?? ''}${failed.stderr ?? ''}`,
    };
  }
}

/** The command line scripts of the test runners this repository has as dev dependencies. */
export const RUNNERS = {
  jest30: path.join(ROOT, 'node_modules/jest/bin/jest.js'),
  jest29: path.join(ROOT, 'node_modules/jest29/bin/jest.js'),
  vitest: path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
  mocha: path.join(ROOT, 'node_modules/mocha/bin/mocha.js'),
};
