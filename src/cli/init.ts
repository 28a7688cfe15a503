/**
 * `express-file-endpoints init [dir]`: a starter for an existing app — one endpoint, one test, and the line that
 * mounts them, written for what the app is (CommonJS or ES modules, TypeScript or JavaScript, its test
 * runner). Files that exist are kept, never overwritten; the app's own code is not edited: the mount line is
 * printed, with the file it belongs in when one is found.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { displayPath, MODULE_EXTENSIONS } from '../discover';
import { starterFiles, mountLine, testCommand, type AppFileStyle, type AppKind } from './init-templates';

interface PackageJson {
  type?: string;
  main?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const APP_FILES = ['server', 'app', 'index', 'src/server', 'src/app', 'src/index'];

export function init(dir = 'app', cwd = process.cwd()): number {
  const manifestFile = path.join(cwd, 'package.json');
  if (!existsSync(manifestFile)) {
    console.error(`No package.json in ${cwd}: run \`npx express-file-endpoints init\` in your app's folder.`);
    return 1;
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as PackageJson;
  const deps = { ...manifest.dependencies, ...manifest.devDependencies };
  const kind: AppKind = {
    module: manifest.type === 'module' ? 'esm' : 'cjs',
    typescript: existsSync(path.join(cwd, 'tsconfig.json')) || 'typescript' in deps,
    runner: 'vitest' in deps ? 'vitest' : 'mocha' in deps ? 'mocha' : 'node',
  };
  const root = dir.replace(/\\/g, '/').replace(/^\.\/|\/$/g, '');
  const files = starterFiles(kind, root);

  console.log(
    `express-file-endpoints init: ${kind.module === 'esm' ? 'an ES module' : 'a CommonJS'} ` +
      `${kind.typescript ? 'TypeScript' : 'JavaScript'} app, tests with ${runnerName(kind.runner)}.`,
  );
  for (const [file, text] of Object.entries(files)) {
    const target = path.join(cwd, file);
    if (existsSync(target)) {
      console.log(`  kept     ${file} (it exists)`);
      continue;
    }
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text, { flag: 'wx' });
    console.log(`  created  ${file}`);
  }

  const appFile = findAppFile(cwd, manifest);
  const appDir = appFile ? path.dirname(path.join(cwd, appFile)) : cwd;
  const fromApp = displayPath(path.join(cwd, root), appDir);
  const where = appFile ?? 'the file that creates your Express app';
  console.log(
    `\nMount the endpoints in ${where}:\n\n${indent(mountLine(styleOf(cwd, appFile, kind), fromApp))}\n`,
  );
  const missing = [
    ...('express-file-endpoints' in deps ? [] : ['npm install express-file-endpoints']),
    ...(kind.typescript && !('tsx' in deps) ? ['npm install -D tsx'] : []),
  ];
  if (missing.length > 0) console.log(`Install:\n\n${indent(missing.join('\n'))}\n`);
  console.log(`Then:\n\n${indent(`${testCommand(kind)}\nnpx express-file-endpoints check ${root}`)}`);
  return 0;
}

/** The app's main file: package.json `main`, else a usual name that creates an Express app. */
function findAppFile(cwd: string, manifest: PackageJson): string | undefined {
  const candidates = [
    ...(manifest.main ? [manifest.main] : []),
    ...APP_FILES.flatMap((name) => MODULE_EXTENSIONS.map((ext) => name + ext)),
  ];
  return candidates.find((file) => {
    try {
      return /\bexpress\s*\(|\bconnect\s*\(/.test(readFileSync(path.join(cwd, file), 'utf8'));
    } catch {
      return false;
    }
  });
}

/** Read from the app file when there is one; else what the package's type and language suggest. */
function styleOf(cwd: string, appFile: string | undefined, kind: AppKind): AppFileStyle {
  const ext = appFile ? path.extname(appFile) : '';
  const runs = /^\.m[jt]s$/.test(ext) ? 'esm' : /^\.c[jt]s$/.test(ext) ? 'cjs' : kind.module;
  let source = '';
  try {
    source = appFile ? readFileSync(path.join(cwd, appFile), 'utf8') : '';
  } catch {
    // no app file: guessed below
  }
  const imports = /^\s*import\s[^(]/m.test(source);
  const requires = /\brequire\s*\(/.test(source);
  const syntax = runs === 'esm' || imports || (!requires && kind.typescript) ? 'import' : 'require';
  return { syntax, runs };
}

function runnerName(runner: AppKind['runner']): string {
  return runner === 'node' ? 'node:test' : runner;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `    ${line}` : line))
    .join('\n');
}
