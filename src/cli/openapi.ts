/**
 * `express-file-endpoints openapi [dir] [--out file] [--format json|yaml] [--version 3.1|3.2]`: the tree's
 * OpenAPI document, on standard output or into a file. The schemas live in the modules, so they
 * are loaded, as `check --load` loads them: in a child process, which mounts the tree as an app would and
 * answers with the document; whatever the modules start or print stays there.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runInChild } from '../check';
import { displayPath } from '../discover';
import { mountEndpoints } from '../mount';
import { toYaml, type OpenAPIDocument } from '../openapi';
import type { OpenAPIInfo, OpenAPIVersion } from '../types';
import { findTreeOrBuild } from './examine-tree';

/** The argument that makes the CLI run as the child that builds the document (see main.ts). */
export const OPENAPI_WORKER_FLAG = '--openapi-worker';

export interface OpenAPICommandOptions {
  out?: string;
  format?: string;
  version?: string;
}

interface WorkerRequest {
  dir: string;
  version: OpenAPIVersion;
  info: OpenAPIInfo | undefined;
}

type WorkerAnswer = { document: OpenAPIDocument; warnings: string[] } | { error: string };

/** Returns the exit code; main.ts parses the arguments. */
export async function openapi(
  dir: string | undefined,
  options: OpenAPICommandOptions,
  cliPath: string,
): Promise<number> {
  const format = options.format ?? 'json';
  const version = options.version ?? '3.1';
  if (format !== 'json' && format !== 'yaml') {
    console.error(`express-file-endpoints openapi: --format must be json or yaml, not "${format}"`);
    return 2;
  }
  if (version !== '3.1' && version !== '3.2') {
    console.error(`express-file-endpoints openapi: --version must be 3.1 or 3.2, not "${version}"`);
    return 2;
  }
  // A build is mounted as it is: its modules are compiled, and no TypeScript loader is needed.
  const found = findTreeOrBuild(dir, 'openapi');
  if (!found) return 1;

  const request: WorkerRequest = { dir: found.dir, version, info: packageInfo(found.dir) };
  const answer = await runInChild<WorkerAnswer>(
    cliPath,
    OPENAPI_WORKER_FLAG,
    request,
    'the document builder',
  );
  if ('error' in answer) {
    console.error(answer.error);
    return 1;
  }
  for (const warning of answer.warnings) console.error(`warning: ${warning}`);
  const text = format === 'yaml' ? toYaml(answer.document) : `${JSON.stringify(answer.document, null, 2)}\n`;
  if (options.out === undefined) {
    process.stdout.write(text);
    return 0;
  }
  const file = path.resolve(options.out);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  const count = Object.keys(answer.document.paths).length;
  console.error(`wrote ${displayPath(file)} (OpenAPI ${answer.document.openapi}, ${count} paths)`);
  return 0;
}

/**
 * The document's `info` from the app's package.json, the nearest above the tree: its name, version and
 * description. Undefined (the library's default info) when there is none or it has no name.
 */
function packageInfo(root: string): OpenAPIInfo | undefined {
  let dir = root;
  while (!existsSync(path.join(dir, 'package.json'))) {
    if (path.dirname(dir) === dir) return undefined;
    dir = path.dirname(dir);
  }
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    if (typeof manifest.name !== 'string' || manifest.name === '') return undefined;
    const version = typeof manifest.version === 'string' ? manifest.version : '0.0.0';
    const description = typeof manifest.description === 'string' ? { description: manifest.description } : {};
    return { title: manifest.name, version, ...description };
  } catch {
    return undefined; // not JSON: the library's default info
  }
}

/** The child's side: mount the tree, wait for its modules, answer with the document, and wait to be ended. */
export function runOpenAPIWorker(): void {
  process.once('message', async (message) => {
    const { dir, version, info } = message as WorkerRequest;
    const warnings: string[] = [];
    const loadErrors: string[] = [];
    let answer: WorkerAnswer;
    try {
      const endpoints = mountEndpoints({
        dir,
        dev: false,
        // A module that fails to load names its file in its message.
        onError: (error) => loadErrors.push(error instanceof Error ? error.message : String(error)),
      });
      await endpoints.ready.catch(() => {});
      const document = await endpoints.openapi({
        version,
        ...(info ? { info } : {}),
        onWarning: (warning) => warnings.push(warning),
      });
      answer = loadErrors.length > 0 ? { error: loadErrors.join('\n') } : { document, warnings };
    } catch (error) {
      answer = { error: error instanceof Error ? error.message : String(error) };
    }
    process.send?.(answer);
  });
}
