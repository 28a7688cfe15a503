/**
 * The package manager an app is installed with, so that a message that says to install something says it in
 * the app's own words: `pnpm add -D tsx`, `yarn add -D tsx`, `npm install -D tsx`. Every message of the library
 * that tells how to install a package asks here.
 *
 * Found from a folder of the app, walking up as far as the root: the first folder that says decides, by its
 * package.json's `packageManager` (`"pnpm@9.15.0"`, Corepack's field), then by its lockfile (`pnpm-lock.yaml`,
 * `yarn.lock`, `package-lock.json`). A workspace package has neither, and its workspace root, above it, decides.
 * npm when nothing says. Looked up once per folder.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export type PackageManager = 'npm' | 'pnpm' | 'yarn';

const LOCKFILES: [string, PackageManager][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

const known = new Map<string, PackageManager>();

/** The package manager of the app that `dir` belongs to (see above). */
export function packageManagerOf(dir: string): PackageManager {
  const start = path.resolve(dir);
  const passed: string[] = [];
  let found: PackageManager = 'npm';
  for (let current = start; ; current = path.dirname(current)) {
    const cached = known.get(current);
    if (cached !== undefined) {
      found = cached;
      break;
    }
    passed.push(current);
    const said = declaredIn(current);
    if (said !== undefined) {
      found = said;
      break;
    }
    if (path.dirname(current) === current) break;
  }
  for (const folder of passed) known.set(folder, found);
  return found;
}

/** The command that installs `name` as a development dependency of the app `dir` belongs to. */
export function installDevCommand(dir: string, name: string): string {
  switch (packageManagerOf(dir)) {
    case 'pnpm':
      return `pnpm add -D ${name}`;
    case 'yarn':
      return `yarn add -D ${name}`;
    default:
      return `npm install -D ${name}`;
  }
}

function declaredIn(dir: string): PackageManager | undefined {
  const field = packageManagerField(path.join(dir, 'package.json'));
  const named = /^(npm|pnpm|yarn)(?:@|$)/.exec(field ?? '')?.[1] as PackageManager | undefined;
  if (named !== undefined) return named;
  return LOCKFILES.find(([file]) => statSync(path.join(dir, file), { throwIfNoEntry: false })?.isFile())?.[1];
}

function packageManagerField(file: string): string | undefined {
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { packageManager?: unknown };
    return typeof manifest.packageManager === 'string' ? manifest.packageManager : undefined;
  } catch {
    return undefined;
  }
}
