#!/usr/bin/env node
/**
 * The `express-file-endpoints` command, the package's bin. One entry per command in COMMANDS (its usage line,
 * its options for node:util's parseArgs, and what it runs), so a new command is one more entry and one more file
 * beside this one. `check` and `routes` read files statically and never run endpoint code (`check --load` runs
 * it in a child process); `init` adds a starter endpoint to an app; `typegen` writes the typed-routes file;
 * `openapi` prints the OpenAPI document, from modules loaded in a child process too; `migrate` moves an Express
 * app's routes into endpoint files.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { LOAD_WORKER_FLAG, runLoadWorker } from '../check';
import { libraryVersion } from '../manifest';
import { build } from './build';
import { check } from './check';
import { init } from './init';
import { migrate } from './migrate';
import { openapi, OPENAPI_WORKER_FLAG, runOpenAPIWorker } from './openapi';
import { routes } from './routes';
import { typegen } from './typegen';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

interface Command {
  /** `name args`, as the usage shows it. */
  synopsis: string;
  /** One entry per line of the usage. */
  summary: readonly string[];
  /** Its options besides --help; every command takes at most one folder (or, for migrate, file) argument. */
  options: Options;
  run(dir: string | undefined, values: Values): number | Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  check: {
    synopsis: 'check [dir] [--load]',
    summary: [
      'validate the endpoint tree in dir (default: app) and find what would fail at startup',
      '(syntax errors, missing imports, module format, TypeScript loader); --load also imports',
      'every module in a child process. Exit code 1 on any problem',
    ],
    options: { load: { type: 'boolean' } },
    run: (dir, values) => check(dir, { load: values.load === true }, process.argv[1] as string),
  },
  build: {
    synopsis: 'build [dir] [--out folder]',
    summary: [
      "run check --load's checks, then compile the tree with esbuild into one module holding the",
      'route table (default folder: dist/endpoints beside dir), to mount without tsx or globbing',
    ],
    options: { out: { type: 'string' } },
    run: (dir, values) => build(dir, values.out as string | undefined, process.argv[1] as string),
  },
  routes: {
    synopsis: 'routes [dir] [--load]',
    summary: [
      'list every endpoint: the methods it serves, its URL pattern and its file; --load also',
      'imports every module in a child process and shows what each contract validates',
    ],
    options: { load: { type: 'boolean' } },
    run: (dir, values) => routes(dir, { load: values.load === true }, process.argv[1] as string),
  },
  init: {
    synopsis: 'init [dir]',
    summary: [
      'add dir (default: app) with one endpoint and one test to this app, and print the mount',
      'line; never overwrites a file',
    ],
    options: {},
    run: (dir) => init(dir),
  },
  typegen: {
    synopsis: 'typegen [dir] [--out file]',
    summary: [
      'write the typed-routes declaration for the tree in dir (default file:',
      'express-file-endpoints-env.d.ts beside dir)',
    ],
    options: { out: { type: 'string' } },
    run: (dir, values) => typegen(dir, values.out as string | undefined),
  },
  openapi: {
    synopsis: 'openapi [dir] [options]',
    summary: [
      "print the tree's OpenAPI document, its modules loaded in a child process for their",
      'contracts. --format json|yaml (default json), --version 3.1|3.2 (default 3.1), --out file',
    ],
    options: { out: { type: 'string' }, format: { type: 'string' }, version: { type: 'string' } },
    run: (dir, values) =>
      openapi(
        dir,
        {
          out: values.out as string | undefined,
          format: values.format as string | undefined,
          version: values.version as string | undefined,
        },
        process.argv[1] as string,
      ),
  },
  migrate: {
    synopsis: 'migrate [entry] [options]',
    summary: [
      "move the Express app's routes (from entry, default package.json main) into endpoint files:",
      'prints the plan, the routes it leaves and why, and the diff. --write makes the changes',
      '(on a clean git tree, or --allow-dirty), --dir folder (default: app, beside the file that makes',
      'the app), --only path|file, --json',
    ],
    options: {
      dir: { type: 'string' },
      write: { type: 'boolean' },
      only: { type: 'string' },
      json: { type: 'boolean' },
      'allow-dirty': { type: 'boolean' },
    },
    run: (entry, values) =>
      migrate(
        entry,
        {
          ...(values.dir !== undefined ? { dir: values.dir as string } : {}),
          ...(values.only !== undefined ? { only: values.only as string } : {}),
          write: values.write === true,
          json: values.json === true,
          allowDirty: values['allow-dirty'] === true,
        },
        process.argv[1] as string,
      ),
  },
};

const GLOBAL_OPTIONS: [string, string][] = [
  ['-h, --help', 'show this help'],
  ['-v, --version', 'print the version of express-file-endpoints'],
];

/** Two columns: the synopses, then the summaries, two spaces after the longest synopsis. */
function usage(): string {
  const rows: [string, readonly string[]][] = Object.values(COMMANDS).map((c) => [c.synopsis, c.summary]);
  const width = Math.max(...[...rows, ...GLOBAL_OPTIONS].map(([left]) => left.length)) + 4;
  const table = (entries: readonly (readonly [string, readonly string[] | string])[]) =>
    entries
      .flatMap(([left, right]) =>
        (typeof right === 'string' ? [right] : right).map(
          (line, i) => `${(i === 0 ? `  ${left}` : '').padEnd(width)}${line}`,
        ),
      )
      .join('\n');
  return `Usage: express-file-endpoints <command> [dir]

Commands:
${table(rows)}

Options:
${table(GLOBAL_OPTIONS)}`;
}

function usageError(args: readonly string[], why?: string): number {
  const said =
    args.length === 0 ? '' : `express-file-endpoints: ${why ?? `unexpected "${args.join(' ')}"`}\n\n`;
  console.error(`${said}${usage()}`);
  return 2;
}

async function main(args: string[]): Promise<number> {
  if (args[0] === LOAD_WORKER_FLAG) {
    runLoadWorker();
    return 0;
  }
  if (args[0] === OPENAPI_WORKER_FLAG) {
    runOpenAPIWorker();
    return 0;
  }
  const name = args[0]?.startsWith('-') ? undefined : args[0];
  const command = name === undefined ? undefined : COMMANDS[name];
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args: name === undefined ? args : args.slice(1),
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        ...command?.options,
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return usageError(args, (error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help || name === 'help') {
    console.log(usage());
    return 0;
  }
  // `openapi --version 3.2` takes a value: the version of the document, not of the package.
  if (values.version === true) {
    console.log(libraryVersion());
    return 0;
  }
  if (!command || positionals.length > 1) return usageError(args);
  return command.run(positionals[0], values);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
