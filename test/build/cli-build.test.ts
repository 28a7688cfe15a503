/**
 * `express-file-endpoints build` as a command, in a child process: check --load's checks first (a problem stops
 * the build and writes nothing), then the build, whose manifest loads in plain Node, without tsx; and typegen
 * from a build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { runCli, writeFiles } from '../support/cli';

let cwd: string;

const writeTree = (files: Record<string, string>) => writeFiles(cwd, files);
const run = (...args: string[]) => runCli(args, { cwd });

const GET = 'export function GET(): Response { return new Response("ok"); }\n';

describe('express-file-endpoints build', function () {
  this.timeout(30_000);
  beforeEach(() => {
    cwd = mkdtempSync(path.join(os.tmpdir(), 'ee-cli-build-'));
    // The app's own install: tsx for check --load.
    symlinkSync(path.resolve(__dirname, '../../node_modules'), path.join(cwd, 'node_modules'), 'dir');
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('builds into dist/endpoints beside the tree, in the package format, loadable without tsx', () => {
    writeTree({
      'package.json': JSON.stringify({ type: 'commonjs' }),
      'app/api/hello/endpoint.ts':
        "import { word } from '../../_lib/word';\nexport const GET = () => new Response(word);\n",
      'app/_lib/word.ts': "export const word: string = 'hello';\n",
    });
    const result = run('build');
    expect([result.status, result.stderr]).to.deep.equal([0, '']);
    expect(result.stdout).to.match(/✓ 1 endpoint, 0 problems in app, every module loaded\n/);
    expect(result.stdout).to.match(
      /✓ built dist\/endpoints\/manifest\.cjs \(CommonJS, 2 files compiled\); mount it with dir: 'dist\/endpoints'\n$/,
    );
    // Plain Node, no tsx: the manifest is JavaScript.
    const load = spawnSync(
      process.execPath,
      [
        '-e',
        "const m = require('./dist/endpoints/manifest.cjs'); console.log(m.modules.length, typeof m.modules[0].GET)",
      ],
      { cwd, encoding: 'utf8' },
    );
    expect(load.stdout.trim()).to.equal('1 function');
  });

  it('builds where --out says, an ES module package into manifest.mjs', () => {
    writeTree({ 'package.json': JSON.stringify({ type: 'module' }), 'routes/endpoint.ts': GET });
    const result = run('build', 'routes', '--out', 'build/api');
    expect(result.status, result.stderr).to.equal(0);
    expect(existsSync(path.join(cwd, 'build/api/manifest.mjs'))).to.equal(true);
  });

  it("types the manifest: an app's TypeScript passes it to mountEndpoints", () => {
    writeTree({
      'package.json': JSON.stringify({ type: 'module' }),
      'app/endpoint.ts': GET,
      'server.ts': [
        "import { mountEndpoints } from 'express-file-endpoints';",
        "import manifest from './dist/endpoints/manifest.mjs';",
        'export const endpoints = mountEndpoints({ manifest });',
        'export const version: string = manifest.version;',
        '',
      ].join('\n'),
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          paths: { 'express-file-endpoints': [path.resolve(__dirname, '../../src/index.ts')] },
        },
        files: ['server.ts'],
      }),
    });
    expect(run('build').status).to.equal(0);
    const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', '.'], {
      cwd,
      encoding: 'utf8',
    });
    expect(tsc.stdout + tsc.stderr).to.equal('');
    expect(tsc.status).to.equal(0);
  });

  it('typegen reads a build as it reads the tree', () => {
    writeTree({ 'app/api/users/[id]/endpoint.ts': GET, 'app/endpoint.ts': GET });
    expect(run('build').status).to.equal(0);
    expect(run('typegen', 'app', '--out', 'from-tree.d.ts').status).to.equal(0);
    expect(run('typegen', 'dist/endpoints', '--out', 'from-build.d.ts').stdout).to.equal(
      'wrote from-build.d.ts (2 routes)\n',
    );
    expect(readFileSync(path.join(cwd, 'from-build.d.ts'), 'utf8')).to.equal(
      readFileSync(path.join(cwd, 'from-tree.d.ts'), 'utf8'),
    );
  });

  it('routes and openapi read a build as they read the tree, its contracts included', () => {
    writeTree({
      'app/users/[id]/endpoint.ts':
        `import { defineHandler } from ${JSON.stringify(path.resolve(__dirname, '../../src'))};\n` +
        "const any = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };\n" +
        'export const PUT = defineHandler({ params: any, body: any }, () => new Response());\n' +
        GET,
      'app/endpoint.ts': GET,
    });
    expect(run('build').status).to.equal(0);
    const listed = run('routes', 'dist/endpoints');
    expect(listed.status, listed.stderr).to.equal(0);
    expect(listed.stdout).to.equal(run('routes', 'app', '--load').stdout);
    expect(listed.stdout).to.match(/\/users\/\[id\] +PUT params body +app\/users\/\[id\]\/endpoint\.ts/);
    // The document of a build is the tree's, read from the compiled modules.
    const fromBuild = run('openapi', 'dist/endpoints');
    expect(fromBuild.status, fromBuild.stderr).to.equal(0);
    expect(JSON.parse(fromBuild.stdout)).to.deep.equal(JSON.parse(run('openapi', 'app').stdout));
    expect(Object.keys((JSON.parse(fromBuild.stdout) as { paths: object }).paths)).to.deep.equal([
      '/',
      '/users/{id}',
    ]);
  });

  it('check and build given a build folder name the tree it was made from', () => {
    writeTree({ 'app/endpoint.ts': GET });
    expect(run('build').status).to.equal(0);
    for (const command of ['check', 'build']) {
      const result = run(command, 'dist/endpoints');
      expect(result.status, command).to.equal(1);
      expect(result.stderr, command).to.include(
        'dist/endpoints is a build of app; check the tree itself: express-file-endpoints check app',
      );
    }
  });

  it("stops at check's problems and writes nothing", () => {
    writeTree({ 'app/a/endpoint.ts': GET, 'app/a/endpoint.js': 'exports.GET = () => new Response();\n' });
    const result = run('build');
    expect(result.status).to.equal(1);
    expect(result.stderr).to.match(/duplicate-route: app\/a\/endpoint\.js and app\/a\/endpoint\.ts/);
    expect(existsSync(path.join(cwd, 'dist'))).to.equal(false);
  });

  it('stops at a module that fails to load (check --load) and writes nothing', () => {
    writeTree({
      'app/endpoint.ts': "throw new Error('no database');\nexport const GET = () => new Response();\n",
    });
    const result = run('build');
    expect(result.status).to.equal(1);
    expect(result.stderr).to.match(/load-error: .*no database/);
    expect(existsSync(path.join(cwd, 'dist'))).to.equal(false);
  });
});
