/**
 * Turns a load error into a problem for the error page, with `file:line:column` where the error
 * happened, as Next.js's dev overlay shows it:
 *   - tsx (esbuild) transform errors name it in their message: `/app/x.ts:2:20: ERROR: …`
 *     (see source-location.ts for its columns);
 *   - an error thrown while the module ran: the first stack frame in the app's code;
 *   - a JavaScript syntax error: Node keeps the position out of `error.stack` for ES modules, so
 *     `node --check` is asked (only then, and only in development).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EndpointLoadError, esbuildLocation, formatLocation, isParseFailure } from '../load';
import { displayPath, type RouteFile } from '../discover';
import type { DevProblem } from '../types';

// `at fn (/app/x.ts:2:7)` or `at /app/x.ts:2:7`; `node:internal/…` frames do not match.
const STACK_FRAME = /(?:^at |\()((?:file:\/\/)?\/[^()\s]+|[A-Za-z]:\\[^()]+):(\d+):(\d+)\)?$/;

/** `candidates`: the file and what it imports, where a syntax error without a position may be. */
export function problemOfLoadError(
  error: unknown,
  file: RouteFile,
  candidates: readonly string[],
): DevProblem {
  const cause = error instanceof EndpointLoadError ? error.originalError : error;
  const message = error instanceof Error ? error.message : String(error);
  const files = [file.displayPath];
  const location = locate(cause, candidates);
  if (location && !files.includes(location.displayPath)) files.push(location.displayPath);
  const code = isParseFailure(cause) || location?.syntax ? 'syntax-error' : 'load-error';
  return { code, message, files, ...(location && { location: location.text }) };
}

interface Location {
  /** The file the error is in, as messages name it. */
  displayPath: string;
  /** `file:line:column`. */
  text: string;
  syntax: boolean;
}

function locate(error: unknown, candidates: readonly string[]): Location | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const esbuild = esbuildLocation(message);
  if (esbuild) return at(esbuild.file, esbuild.line, esbuild.column, true);
  // A syntax error's stack (Node 24+) shows where it was imported from, not where it is. One that code
  // threw as it ran (JSON.parse) is found like any thrown error, from its stack.
  if (isParseFailure(error)) {
    for (const file of candidates) {
      const found = checkSyntax(file);
      if (found) return found;
    }
  }
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const line of stack.split('\n').slice(1)) {
    const frame = STACK_FRAME.exec(line.trim());
    if (!frame || frame[1]!.includes('/node_modules/')) continue;
    return at(frame[1]!, Number(frame[2]), Number(frame[3]), false);
  }
  return undefined;
}

/** `node --check` prints `file:///x.mjs:3` and a caret line under the offending code. */
function checkSyntax(file: string): Location | undefined {
  if (!/\.[cm]?js$/.test(file)) return undefined;
  const result = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8', timeout: 5000 });
  if (result.status === 0) return undefined;
  const lines = (result.stderr ?? '').split('\n');
  const head = /^(.+):(\d+)$/.exec(lines[0] ?? '');
  if (!head) return undefined;
  const caret = (lines[2] ?? '').indexOf('^');
  return at(head[1]!, Number(head[2]), caret >= 0 ? caret + 1 : 1, true);
}

function at(fileOrUrl: string, line: number, column: number, syntax: boolean): Location {
  const absolute = fileOrUrl.startsWith('file:') ? fileURLToPath(fileOrUrl.split(/[?#]/)[0]!) : fileOrUrl;
  const shown = displayPath(absolute);
  return { displayPath: shown, text: formatLocation(shown, line, column), syntax };
}

/** Where a request's error was thrown, `file:line:column` in the app's code, for the inspector. */
export function errorLocation(error: unknown): string | undefined {
  return locate(error, [])?.text;
}
