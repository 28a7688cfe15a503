/**
 * Scratch endpoint trees for the development-mode tests: a fresh folder under os.tmpdir() per
 * test, with the repository's node_modules linked in (so tsx is found from the tree, as in an
 * app), a package.json saying CommonJS or ES module, and helpers to edit files and to wait for
 * the dev loop to have picked an edit up.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mountEndpoints, type EndpointsMiddleware } from '../../src/index';
import type { DevProblem, DevReload } from '../../src/types';

export type PackageType = 'commonjs' | 'module';

export interface ScratchTree {
  root: string;
  app: string;
  write(relative: string, text: string): void;
  remove(relative: string): void;
  /** Mounts the tree in development mode with a short debounce and a silent logger. */
  mount(extra?: { onError?: (error: unknown) => void }): EndpointsMiddleware;
  /** Every reload so far, newest last. */
  reloads: DevReload[];
  /** What the logger printed as errors. */
  logged: string[];
  /** What the logger printed as information (reloads, fixes). */
  infos: string[];
  cleanUp(): Promise<void>;
}

const repoModules = path.join(__dirname, '../../node_modules');

export function scratchTree(type: PackageType, files: Record<string, string>): ScratchTree {
  const root = mkdtempSync(path.join(tmpdir(), `ee-dev-${type}-`));
  symlinkSync(repoModules, path.join(root, 'node_modules'), 'dir');
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'scratch', type }));
  const app = path.join(root, 'app');
  const write = (relative: string, text: string) => {
    const file = path.join(app, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  for (const [relative, text] of Object.entries(files)) write(relative, text);
  const mounted: EndpointsMiddleware[] = [];
  const tree: ScratchTree = {
    root,
    app,
    write,
    remove: (relative) => rmSync(path.join(app, relative), { recursive: true, force: true }),
    reloads: [],
    logged: [],
    infos: [],
    mount: (extra = {}) => {
      const endpoints = mountEndpoints({
        dir: app,
        onError: extra.onError ?? (() => {}),
        dev: {
          debounce: 10,
          types: path.join(root, 'express-file-endpoints-env.d.ts'),
          logger: {
            info: (message) => tree.infos.push(message),
            error: (message) => tree.logged.push(message),
          },
          onReload: (reload) => tree.reloads.push(reload),
        },
      });
      mounted.push(endpoints);
      return endpoints;
    },
    cleanUp: async () => {
      await Promise.all(mounted.map((endpoints) => endpoints.close()));
      rmSync(root, { recursive: true, force: true });
    },
  };
  return tree;
}

/** Polls `probe` until it returns true; resolves to the milliseconds it took. */
export async function until(probe: () => Promise<boolean>, timeoutMs = 3000): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** GET through `.fetch`, as an API client (JSON error pages) unless `accept` says otherwise. */
export async function get(
  endpoints: EndpointsMiddleware,
  pathname: string,
  accept = 'application/json',
): Promise<{ status: number; text: string }> {
  const response = await endpoints.fetch(new Request(`http://localhost${pathname}`, { headers: { accept } }));
  return { status: response.status, text: await response.text() };
}

/** The problems of a JSON error page. */
export function problemsOf(text: string): DevProblem[] {
  return (JSON.parse(text) as { problems: DevProblem[] }).problems;
}
