/**
 * `express-file-endpoints build`'s work, after the checks: one esbuild pass over the whole tree, from a generated
 * manifest module that imports every endpoint and middleware file statically and holds the validated route table.
 * The output is one file in the package's module format, with a source map that names the `.ts` lines: the tree's
 * local imports are compiled into it (each once, so a module shared by endpoints stays one module); packages, and
 * the app's own modules outside the tree (app-modules.ts), stay imports, so the app and its endpoints share them.
 * Beside it, the table as JSON: the marker by which a `dir` mount knows a build.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type * as esbuild from 'esbuild';
import { withoutStack } from '../debug';
import { discoverTree, displayPath, type DiscoveredTree } from '../discover';
import { isCommonJsFile } from '../load';
import {
  BUILD_KIND,
  BUILD_MARKER,
  libraryVersion,
  MODULE_NAMES,
  moduleFiles,
  treeHash,
  type BuildTable,
} from '../manifest';
import { assertValidTree } from '../validate';
import { importAppModules, typeScriptNote } from './app-modules';

export interface BuildOutcome {
  /** The manifest module written, and its source map beside it. */
  module: string;
  /** The marker file: the route table as JSON. */
  marker: string;
  format: 'esm' | 'cjs';
  /** How many endpoint files the table holds. */
  endpoints: number;
  /** How many local files were compiled, route files included. */
  inputs: number;
  /** The app's files outside the tree that the build imports from where they are, rather than compiling them in. */
  imports: string[];
  /** esbuild's warnings (`import.meta` in a CommonJS build…), each naming its file and line, then the build's own. */
  warnings: string[];
}

// Stand for the compiled files and the tree's hash until esbuild has said which files the build compiled. They
// are string literals on lines of the generated manifest code only, so the source map stays right.
const HASH_PLACEHOLDER = 'express-file-endpoints:tree-hash';
const INPUTS_PLACEHOLDER = 'express-file-endpoints:inputs';
/** The generated manifest source's name, as esbuild's messages and source map give it. */
const MANIFEST_SOURCE = '<express-file-endpoints manifest>';

/**
 * `checked`: the tree as `check --load` left it, validated, with the exports its modules really have
 * (contracts included), which the table keeps. Without it, the tree in `dir` is discovered and validated here.
 */
export async function buildEndpoints(
  dir: string | URL,
  out: string,
  checked?: DiscoveredTree,
): Promise<BuildOutcome> {
  const tree = checked ?? discoverTree(dir);
  if (!checked) assertValidTree(tree);
  const outDir = path.resolve(out);
  // The module format of the package the tree belongs to, as Node would give a `.js` file at its root.
  const format = isCommonJsFile(path.join(tree.root, 'endpoint.js')) ? 'cjs' : 'esm';
  const moduleName = MODULE_NAMES[format];
  const modules = moduleFiles(tree.files);
  const table: BuildTable = {
    kind: BUILD_KIND,
    version: libraryVersion(),
    module: moduleName,
    source: tree.root,
    sourceDisplay: displayPath(tree.root),
    hash: HASH_PLACEHOLDER,
    inputs: INPUTS_PLACEHOLDER as unknown as string[],
    cwd: process.cwd(),
    files: tree.files.map((file) => ({ file: relativeTo(tree.root, file.file), exports: file.exports })),
  };

  const imported = new Set<string>();
  const plugin = importAppModules(tree.root, outDir, {
    format,
    // esbuild names the importer of stdin's imports by the source file's name in the working folder.
    manifest: path.join(tree.root, MANIFEST_SOURCE),
    imported,
  });
  const result = await compile(
    tree,
    format,
    outDir,
    moduleName,
    manifestSource(table, modules, format),
    plugin,
  );
  const output = result.outputFiles.find((file) => file.path === path.join(outDir, moduleName))!;
  const map = result.outputFiles.find((file) => file.path.endsWith('.map'));
  // Paths as esbuild gives them: relative to the tree root (absWorkingDir), with `/`.
  table.inputs = Object.keys(result.metafile.inputs)
    // `<…>`: the generated manifest source itself.
    .filter((input) => !input.startsWith('<') && !/(?:^|\/)node_modules\//.test(input))
    .sort();
  table.hash = treeHash(tree.root, table.inputs);

  mkdirSync(outDir, { recursive: true });
  const marker = path.join(outDir, BUILD_MARKER);
  // Until the new module is written, the folder is no build: a failure in between leaves none half made.
  rmSync(marker, { force: true });
  for (const name of Object.values(MODULE_NAMES)) {
    for (const stale of [name, `${name}.map`, declarationName(name)])
      rmSync(path.join(outDir, stale), { force: true });
  }
  const text = output.text
    .replace(JSON.stringify(HASH_PLACEHOLDER), JSON.stringify(table.hash))
    .replace(JSON.stringify(INPUTS_PLACEHOLDER), JSON.stringify(table.inputs));
  writeFileSync(output.path, text);
  if (map) writeFileSync(map.path, map.contents);
  writeFileSync(path.join(outDir, declarationName(moduleName)), declaration(format));
  // Compact: a mount parses it on every start.
  writeFileSync(marker, `${JSON.stringify(table)}\n`);
  const imports = [...imported].sort();
  const note = typeScriptNote(imports);
  return {
    module: output.path,
    marker,
    format,
    endpoints: tree.files.filter((file) => file.kind === 'endpoint').length,
    inputs: table.inputs.length,
    imports,
    warnings: [
      ...result.warnings.map((message) => describeMessage(tree.root, message)),
      ...(note ? [note] : []),
    ],
  };
}

/**
 * The manifest module's source: the table, and every module in its order, imported statically so that a bundler
 * follows them. In CommonJS, `require()`, which gives the exports object as Node's own loading would.
 */
function manifestSource(table: BuildTable, modules: DiscoveredTree['files'], format: 'esm' | 'cjs'): string {
  // The tree's path where it was built goes too: outside production, a mount compares the tree with the build.
  const value = JSON.stringify(table);
  if (format === 'cjs') {
    const requires = modules.map((file) => `require(${JSON.stringify(file.file)})`).join(',\n  ');
    return `module.exports = { ...${value}, modules: [\n  ${requires}\n] };\n`;
  }
  const imports = modules.map((file, i) => `import * as m${i} from ${JSON.stringify(file.file)};`).join('\n');
  const names = modules.map((_, i) => `m${i}`).join(', ');
  return `${imports}\nexport default { ...${value}, modules: [${names}] };\n`;
}

async function compile(
  tree: DiscoveredTree,
  format: 'esm' | 'cjs',
  outDir: string,
  moduleName: string,
  source: string,
  plugin: esbuild.Plugin,
): Promise<esbuild.BuildResult<{ write: false; metafile: true }>> {
  const esbuild = await loadEsbuild();
  try {
    return await esbuild.build({
      stdin: { contents: source, resolveDir: tree.root, sourcefile: MANIFEST_SOURCE },
      absWorkingDir: tree.root,
      outfile: path.join(outDir, moduleName),
      bundle: true,
      // Packages are the app's dependencies: imported from the build as from the app, never copied in.
      packages: 'external',
      plugins: [plugin],
      platform: 'node',
      format,
      target: 'node22',
      sourcemap: true,
      // Bundling renames clashing top-level names (GET in every file); a function's own name stays what it was.
      keepNames: true,
      sourcesContent: false,
      metafile: true,
      write: false,
      logLevel: 'silent',
      // A CommonJS file of the tree may require() a package; an ES module has no `require` of its own.
      banner:
        format === 'esm'
          ? {
              js: "import { createRequire as __expressFileEndpointsRequire } from 'node:module';\nconst require = __expressFileEndpointsRequire(import.meta.url);",
            }
          : undefined,
    });
  } catch (error) {
    const errors = (error as { errors?: esbuild.Message[] }).errors;
    if (!errors) throw error;
    const lines = errors.map((message) => `  ${describeMessage(tree.root, message)}`);
    throw withoutStack(
      new Error(`express-file-endpoints: esbuild could not compile the tree:\n${lines.join('\n')}`),
    );
  }
}

/** One of esbuild's messages, its file named as every message of the library names files. */
function describeMessage(root: string, message: esbuild.Message): string {
  const at = message.location;
  const where = at ? `${displayPath(path.join(root, at.file))}:${at.line}:${at.column + 1}: ` : '';
  return `${where}${message.text}`;
}

/** esbuild is needed at build time only: an optional peer dependency, loaded by this command alone. */
async function loadEsbuild(): Promise<typeof esbuild> {
  try {
    return await import('esbuild');
  } catch {
    throw withoutStack(
      new Error(
        'express-file-endpoints: `build` compiles the tree with esbuild, which is not installed. Install it: npm install --save-dev esbuild',
      ),
    );
  }
}

/** `manifest.d.mts` beside `manifest.mjs`: TypeScript finds it when the app imports the manifest. */
function declarationName(moduleName: string): string {
  return moduleName.replace(/\.(m|c)js$/, '.d.$1ts');
}

function declaration(format: 'esm' | 'cjs'): string {
  const type = "import('express-file-endpoints').EndpointsManifest";
  return format === 'esm'
    ? `declare const manifest: ${type};\nexport default manifest;\n`
    : `declare const manifest: ${type};\nexport = manifest;\n`;
}

function relativeTo(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}
