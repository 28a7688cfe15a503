/**
 * `check --load`: every endpoint and middleware module imported for real, as `mountEndpoints` would, in a
 * child process — module code runs (it may open connections, start timers, print), and none of that may
 * touch the CLI or keep it alive. The child sends one result per file over IPC and is then ended. Each
 * failure is reported with its file; the exports the modules really have are handed back for validation.
 */
import { fork } from 'node:child_process';
import type { ExportInfo } from '../discover';
import { socketHandlerOf } from '../dispatch';
import { EndpointLoadError, loadedExportInfo, loadModule } from '../load';

/** The argument that makes the CLI run as the child (see src/cli/main.ts). */
export const LOAD_WORKER_FLAG = '--load-worker';

export interface LoadResult {
  file: string;
  displayPath: string;
  exports?: ExportInfo;
  error?: string;
}

const TIMEOUT_MS = 60_000;

/** Runs the CLI again as a child that loads `files`; resolves with one result per file. */
export function loadInChild(
  cliPath: string,
  files: readonly { file: string; displayPath: string }[],
): Promise<LoadResult[]> {
  return runInChild<LoadResult[]>(cliPath, LOAD_WORKER_FLAG, files, 'the module loader');
}

/**
 * Runs the CLI again as a child with `flag`, sends it `payload`, and resolves with its one answer;
 * the child is then ended, whatever its modules started. Its standard output is ignored: what the
 * modules print must not mix with the command's output.
 */
export function runInChild<T>(cliPath: string, flag: string, payload: unknown, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(cliPath, [flag], {
      // The CLI's own Node options (under tests, `--import tsx`) carry over, as they would for the app.
      execArgv: process.execArgv,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill(), TIMEOUT_MS);
    let answer: { message: T } | undefined;
    child.on('message', (message) => {
      answer = { message: message as T };
      child.kill();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (answer) resolve(answer.message);
      else reject(new Error(`${what} exited (${code ?? 'killed'}) before it finished:\n${stderr}`));
    });
    child.send(payload as object);
  });
}

/** The child's side: load each file in turn, answer, and wait to be ended. */
export function runLoadWorker(): void {
  process.once('message', async (message) => {
    const files = message as { file: string; displayPath: string }[];
    const results: LoadResult[] = [];
    for (const { file, displayPath } of files) {
      try {
        const mod = await loadModule(file, displayPath);
        // A malformed `websocket` export stops startup too.
        socketHandlerOf(mod, displayPath);
        results.push({ file, displayPath, exports: loadedExportInfo(mod) });
      } catch (error) {
        // `check` has parsed every file already: its advice to run `check` would send the user in a circle.
        const message = error instanceof EndpointLoadError ? error.messageForCheck : undefined;
        results.push({
          file,
          displayPath,
          error: message ?? (error instanceof Error ? error.message : String(error)),
        });
      }
    }
    process.send?.(results);
  });
}
