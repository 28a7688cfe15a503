#!/usr/bin/env node
/**
 * The `express-endpoints` command. One entry per command in COMMANDS (its usage line and what it runs), so a
 * new command is one more entry. `check` and `routes` read files statically and never run endpoint code
 * (`check --load` runs it in a child process); `init` adds a starter endpoint to an app.
 */
import { check, init, routes } from './commands';
import { LOAD_WORKER_FLAG, runLoadWorker } from './check';
import { typegenCommand } from './dev';

interface Command {
  /** `name args`, as the usage shows it. */
  synopsis: string;
  summary: string;
  /** Flags it accepts besides its one optional folder argument. */
  flags: readonly string[];
  run(dir: string | undefined, flags: readonly string[]): number | Promise<number>;
  /** Parses its own arguments (flags that take a value): gets them all, unchecked. */
  runArgs?(args: readonly string[]): number;
}

const COMMANDS: Record<string, Command> = {
  check: {
    synopsis: 'check [dir] [--load]',
    summary:
      'validate the endpoint tree in dir (default: app) and find what would fail at startup (syntax\n' +
      '                        errors, missing imports, module format, TypeScript loader); --load also imports\n' +
      '                        every module in a child process. Exit code 1 on any problem',
    flags: ['--load'],
    run: (dir, flags) => check(dir, flags, process.argv[1] as string),
  },
  routes: {
    synopsis: 'routes [dir]',
    summary: 'list every endpoint: the methods it serves, its URL pattern and its file',
    flags: [],
    run: (dir) => routes(dir),
  },
  init: {
    synopsis: 'init [dir]',
    summary:
      'add dir (default: app) with one endpoint and one test to this app, and print the mount line;\n' +
      '                        never overwrites a file',
    flags: [],
    run: (dir) => init(dir),
  },
  typegen: {
    synopsis: 'typegen [dir] [--out f]',
    summary:
      'write the typed-routes declaration for the tree in dir (default file: express-endpoints-env.d.ts\n' +
      '                        beside dir)',
    flags: [],
    run: () => 2,
    runArgs: (args) => typegenCommand(args),
  },
};

const USAGE = `Usage: express-endpoints <command> [dir]

Commands:
${Object.values(COMMANDS)
  .map((command) => `  ${command.synopsis.padEnd(22)}${command.summary}`)
  .join('\n')}

Options:
  -h, --help            show this help`;

async function main(args: string[]): Promise<number> {
  if (args[0] === LOAD_WORKER_FLAG) {
    runLoadWorker();
    return 0;
  }
  if (args.includes('-h') || args.includes('--help') || args[0] === 'help') {
    console.log(USAGE);
    return 0;
  }
  const [name, ...rest] = args;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (command?.runArgs) return command.runArgs(rest);
  const flags = rest.filter((arg) => arg.startsWith('-'));
  const positional = rest.filter((arg) => !arg.startsWith('-'));
  if (!command || positional.length > 1 || flags.some((flag) => !command.flags.includes(flag))) {
    console.error(
      name === undefined ? USAGE : `express-endpoints: unexpected "${args.join(' ')}"\n\n${USAGE}`,
    );
    return 2;
  }
  return command.run(positional[0], flags);
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
