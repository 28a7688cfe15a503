/**
 * The `express-file-endpoints` bin for the CLI's tests: run from src/cli/main.ts through tsx in a child
 * process, in a scratch folder the test writes its tree into.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const CLI = path.resolve(__dirname, '../../src/cli/main.ts');
// Absolute, so the child resolves tsx even though its cwd is a temporary folder.
const TSX = pathToFileURL(require.resolve('tsx')).href;
/** This repository's install: on NODE_PATH, the trees below a scratch folder find tsx as an app's own would. */
export const REPO_NODE_MODULES = path.resolve(__dirname, '../../node_modules');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): CliResult {
  const result = spawnSync(process.execPath, ['--import', TSX, CLI, ...args], {
    cwd: options.cwd,
    encoding: 'utf8',
    env: options.env ?? process.env,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Writes `files` (path relative to `root` -> content), making their folders. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
}
