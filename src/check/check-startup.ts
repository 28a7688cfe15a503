/**
 * What would make `mountEndpoints` fail at startup, found without running endpoint code: `express-file-endpoints
 * check` reports these beside the tree's validation problems. Every endpoint and middleware file is parsed,
 * and so is every local module they import, relative import by relative import:
 *
 * - a syntax error, with its line and column;
 * - `import`/`export` in a file Node treats as CommonJS (`.cjs`, or `.js` under `"type": "commonjs"`);
 * - a relative import that does not resolve, by the rules of the loader that will run the file;
 * - a TypeScript file when no loader is there (tsx not found from the file, and a Node without type
 *   stripping); with Node's own stripping, a note, and a problem for each thing stripping cannot run.
 *   Bun and Deno compile TypeScript themselves: a note names the one that runs.
 */
import path from 'node:path';
import {
  displayPath,
  isCodeFile,
  isTypeScriptFile,
  readSource,
  type DiscoveredTree,
  type ExportInfo,
} from '../discover';
import {
  canFindTsx,
  formatLocation,
  installDevCommand,
  isRelative,
  isStrictlyCommonJsFile,
  resolveImport,
} from '../load';
import { runtime } from '../runtime';
import type { Problem } from '../validate';
import { listWords } from '../words';
import { parseModule, type ParsedModule } from './parse-module';

export interface StartupReport {
  problems: Problem[];
  /** Not failures: what the user should know (Node's own type stripping will be used). */
  notes: string[];
  /** Display paths of the route files that do not parse. */
  unparsable: Set<string>;
  /** What each route file that parses exports, read from its syntax tree: exact where the lexers are not. */
  exports: Map<string, ExportInfo>;
}

/** The TypeScript loader a file will get: tsx, Node's own stripping, none, or Bun's or Deno's own compiler. */
type Loader = 'tsx' | 'strip' | 'none' | 'native';

export function checkStartup(tree: DiscoveredTree): StartupReport {
  const report: StartupReport = { problems: [], notes: [], unparsable: new Set(), exports: new Map() };
  const installTsx = installDevCommand(tree.root, 'tsx');
  const noLoader: string[] = [];
  let stripped = false;
  let native = false;

  const queue = tree.files.filter((file) => file.kind !== 'page').map((file) => file.file);
  const seen = new Set(queue);
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i] as string;
    const at = displayPath(file);
    const problem = (code: string, where: string, message: string): void => {
      report.problems.push({ code, files: [at], message: `${where}: ${message}` });
    };
    let source: string;
    try {
      source = readSource(file);
    } catch (error) {
      problem('unreadable', at, `cannot be read (${(error as Error).message}).`);
      continue;
    }
    const parsed = parseModule(file, source);
    if (parsed.syntaxError) {
      const { line, column, message } = parsed.syntaxError;
      problem('syntax-error', formatLocation(at, line, column), `${message}; this file will not load.`);
      report.unparsable.add(at);
      continue;
    }
    if (parsed.exports) report.exports.set(file, parsed.exports);
    const typescript = isTypeScriptFile(file);
    const loader: Loader | undefined = typescript ? loaderFor(file) : undefined;
    if (loader === 'none') noLoader.push(at);
    if (loader === 'native') native = true;
    if (loader === 'strip') {
      stripped = true;
      strippingProblems(parsed, file, at, problem, installTsx);
    }
    if (!typescript && parsed.moduleSyntax && isStrictlyCommonJsFile(file)) {
      const { line, column, what } = parsed.moduleSyntax;
      problem('module-syntax-in-commonjs', formatLocation(at, line, column), commonJsMessage(file, what));
    }

    // Without a loader the file cannot load at all: that is its one problem. Under stripping, an extensionless
    // import was reported above; it is still followed, as tsx would, to check the file it means.
    if (loader === 'none') continue;
    for (const site of parsed.imports) {
      if (!isRelative(site.specifier)) continue;
      const resolved = resolveImport(file, site.specifier, site.kind, resolverFor(loader, site.specifier));
      if (!resolved.file) {
        problem(
          'unresolved-import',
          formatLocation(at, site.line, site.column),
          `'${site.specifier}' does not resolve (${resolved.reason ?? 'no such file'}); this file will not load.`,
        );
      } else if (isCodeFile(resolved.file) && !resolved.file.includes(`${path.sep}node_modules${path.sep}`)) {
        if (!seen.has(resolved.file)) queue.push(resolved.file);
        seen.add(resolved.file);
      }
    }
  }

  if (noLoader.length > 0) {
    report.problems.push({
      code: 'no-typescript-loader',
      files: noLoader,
      message:
        `${listWords(noLoader)}: TypeScript, but nothing will load it: tsx is not installed where these files ` +
        `can find it, and Node ${process.version} cannot run TypeScript itself. Install it beside your app ` +
        `(\`${installTsx}\`), or compile the endpoints to JavaScript and point \`dir\` at the output.`,
    });
  }
  if (stripped) {
    report.notes.push(
      `tsx is not installed where the TypeScript files can find it, so they will load through Node ` +
        `${process.version}'s own type stripping, which runs type annotations only: no enums, namespaces or ` +
        'parameter properties, no imports without their extension (`./lib` for `./lib.ts`), and no ' +
        `\`import\`/\`export\` in a .ts file of a CommonJS package. \`${installTsx}\` lifts all three.`,
    );
  }
  if (native) {
    report.notes.push(
      `the TypeScript files will load through ${runtime.label}'s own TypeScript support; tsx is not used on ${runtime.name}.`,
    );
  }
  return report;
}

/**
 * Whose rules a relative import follows. Bun and Deno resolve a TypeScript file's imports as tsx does, extensionless
 * ones included; under Node's stripping an extensionless one was reported already, and is followed as tsx would, to
 * check the file it means. Under stripping, `./x.js` lands on `./x.ts` when there is no `x.js`, as the library's
 * resolve hook has it.
 */
function resolverFor(loader: Loader | undefined, specifier: string): 'tsx' | 'strip' | 'node' {
  if (loader === 'tsx' || loader === 'native') return 'tsx';
  if (loader !== 'strip') return 'node';
  return path.extname(specifier) === '' ? 'tsx' : 'strip';
}

function loaderFor(file: string): Loader {
  if (runtime.name !== 'Node') return 'native';
  if (canFindTsx(path.dirname(file))) return 'tsx';
  const features = process.features as { typescript?: unknown };
  return typeof features.typescript === 'string' ? 'strip' : 'none';
}

/** What Node's type stripping cannot run, in a file it will load without tsx. */
function strippingProblems(
  parsed: ParsedModule,
  file: string,
  at: string,
  problem: (code: string, where: string, message: string) => void,
  installTsx: string,
): void {
  const fix = `Node loads it with its own type stripping (tsx not found), which cannot run it; \`${installTsx}\``;
  for (const { line, column, what } of parsed.needsCompiling) {
    problem('needs-tsx', formatLocation(at, line, column), `${what} needs compiling. ${fix}, or rewrite it.`);
  }
  if (parsed.moduleSyntax && isStrictlyCommonJsTypeScript(file)) {
    const { line, column, what } = parsed.moduleSyntax;
    problem(
      'needs-tsx',
      formatLocation(at, line, column),
      `${what} in a .ts file of a CommonJS package. ${fix}, or name it .mts, or set "type": "module".`,
    );
  }
  for (const site of parsed.imports) {
    if (!isRelative(site.specifier) || path.extname(site.specifier) !== '') continue;
    problem(
      'needs-tsx',
      formatLocation(at, site.line, site.column),
      `'${site.specifier}' has no file extension. ${fix}, or write the extension ('${site.specifier}.ts').`,
    );
  }
}

function isStrictlyCommonJsTypeScript(file: string): boolean {
  const ext = path.extname(file);
  return ext === '.cts' || (ext === '.ts' && isStrictlyCommonJsFile(file.slice(0, -3) + '.js'));
}

function commonJsMessage(file: string, what: string): string {
  const ext = path.extname(file);
  const why = ext === '.cjs' ? 'a .cjs file' : 'its package.json says "type": "commonjs"';
  return (
    `${what} in a CommonJS file (${why}), where Node allows only require() and exports. Write ` +
    '`exports.GET = async (req) => …` instead of `export`, and `require()` instead of `import`; or rename ' +
    `it to ${path.basename(file, ext)}.mjs; or set "type": "module" in package.json.`
  );
}
