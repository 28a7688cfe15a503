/** `express-file-endpoints migrate …` as an app that installed the library runs it, in the app's folder. */
import path from 'node:path';
import { runNode, type RunResult } from '../support/runner-apps';

export function runMigrate(dir: string, ...args: string[]): Promise<RunResult> {
  return runNode(
    [path.join(dir, 'node_modules/express-file-endpoints/dist/cli.js'), 'migrate', ...args],
    dir,
  );
}
