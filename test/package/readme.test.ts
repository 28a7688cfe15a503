/**
 * The README's "Use it in your app", followed as written: two scratch apps, one CommonJS with a JavaScript
 * endpoint and one ES module app with a TypeScript endpoint, get the README's install commands (with the
 * packed tarball in place of the registry's express-file-endpoints), its endpoint, server and test files, and its
 * commands. Each server is started from another folder, so `dir` must not depend on the working folder, and
 * must answer 200 from /api/hello. The only step not in the README is Express itself: the app already has it.
 * And `init` prints, in the README's example app, exactly what the README shows.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { commandsOf, fileOf, snippet } from '../support/readme-snippets';
import { cleanEnv, exec, npmInstall, packOnce } from './tarball';

const PACKAGE_NAME = (require('../../package.json') as { name: string }).name;

interface ScratchApp {
  kind: string;
  dir: string;
  type: 'commonjs' | 'module';
  /** The README snippets that make the app: server, endpoint, test. */
  snippets: string[];
  testFile: string;
}

const APPS: ScratchApp[] = [
  {
    kind: 'CommonJS',
    dir: '',
    type: 'commonjs',
    snippets: ['server-cjs', 'endpoint-cjs', 'test-cjs'],
    testFile: 'test/hello.test.js',
  },
  {
    kind: 'ES module',
    dir: '',
    type: 'module',
    snippets: ['server-esm', 'endpoint-ts', 'test-ts'],
    testFile: 'test/hello.test.ts',
  },
];

/** The README's install commands, run in `dir`; the tarball stands in for the registry's package. */
async function installAsReadmeSays(dir: string, tarball: string): Promise<void> {
  const commands = commandsOf(snippet('install').code);
  for (const [index, command] of commands.entries()) {
    expect(command.slice(0, 2)).to.deep.equal(['npm', 'install']);
    const args = command.slice(2).map((arg) => (arg === PACKAGE_NAME ? tarball : arg));
    // The existing app's Express, in the same npm run as the first command (one install less).
    await npmInstall(dir, index === 0 ? [...args, 'express'] : args);
  }
}

/** Starts `node server.js` from `cwd` and resolves with the URL it prints. */
function startServer(app: ScratchApp, cwd: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(app.dir, 'server.js')], {
    cwd,
    env: { ...cleanEnv, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" within 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server.js exited (${code}):\n${output}`)));
  });
}

describe('the README, followed in a new app', function () {
  this.timeout(180_000);
  let scratch: string;

  before(async () => {
    const packed = await packOnce();
    scratch = packed.scratch;
    await Promise.all(
      APPS.map(async (app, i) => {
        app.dir = join(scratch, `readme-app-${i}`);
        await mkdir(app.dir, { recursive: true });
        const manifest = { name: `readme-app-${i}`, private: true, type: app.type };
        await writeFile(join(app.dir, 'package.json'), JSON.stringify(manifest, null, 2));
        for (const name of app.snippets) {
          const { code } = snippet(name);
          const file = join(app.dir, fileOf(code));
          await mkdir(dirname(file), { recursive: true });
          await writeFile(file, code);
        }
        await installAsReadmeSays(app.dir, packed.tarball);
      }),
    );
  });

  for (const app of APPS) {
    describe(`the ${app.kind} app`, () => {
      it('started from another folder, answers 200 from its endpoint', async () => {
        const { url, child } = await startServer(app, scratch);
        try {
          const res = await fetch(`${url}/api/hello?name=Ada`);
          expect(res.status).to.equal(200);
          expect(await res.json()).to.deep.equal({ hello: 'Ada' });
        } finally {
          child.kill();
        }
      });

      it("runs its test with the README's command", async () => {
        const command = commandsOf(snippet('test-commands').code).find((c) => c.includes(app.testFile));
        expect(command, `a command for ${app.testFile}`).to.not.equal(undefined);
        const [program, ...args] = command as string[];
        expect(program).to.equal('node');
        const { stdout } = await exec(process.execPath, args, app.dir);
        expect(stdout).to.match(/\bpass 1\b/);
      });

      it('passes `npx express-file-endpoints check app`', async () => {
        const [command] = commandsOf(snippet('check').code);
        expect(command?.slice(0, 2)).to.deep.equal(['npx', 'express-file-endpoints']);
        const bin = join(app.dir, 'node_modules/.bin/express-file-endpoints');
        const { stdout } = await exec(bin, command!.slice(2), app.dir);
        expect(stdout).to.equal('✓ 1 endpoint, 0 problems in app\n');
      });

      it('`npx express-file-endpoints init` in a new app beside it writes a test that passes with the command it prints', async () => {
        // JavaScript as an ES module beside the CommonJS app, TypeScript in a CommonJS package beside the ES
        // module app (whose install has tsx): node_modules is found in the folder above.
        const dir = join(app.dir, 'init-app');
        await mkdir(dir, { recursive: true });
        const typescript = app.type === 'module';
        const manifest = typescript
          ? { name: 'init-ts', private: true }
          : { name: 'init-esm', type: 'module' };
        await writeFile(join(dir, 'package.json'), JSON.stringify(manifest));
        if (typescript) await writeFile(join(dir, 'tsconfig.json'), '{}');
        const bin = join(app.dir, 'node_modules/.bin/express-file-endpoints');
        const { stdout } = await exec(bin, ['init'], dir);
        const command = /Then:\n\n {4}(.+)\n/.exec(stdout)?.[1]?.split(' ');
        expect(command?.[0], stdout).to.equal('node');
        const result = await exec(process.execPath, command!.slice(1), dir);
        expect(result.stdout).to.match(/\bpass 1\b/);
      });
    });
  }

  it('`npx express-file-endpoints init` prints what the README shows, in a CommonJS app whose server.js creates the app', async () => {
    // The README's case: a CommonJS JavaScript app after step 1, its server.js creating an Express app.
    const dir = join(scratch, 'readme-init-app');
    await mkdir(dir, { recursive: true });
    const dependencies = { express: '^5.0.0', [PACKAGE_NAME]: '*' };
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'my-app', private: true, dependencies }),
    );
    await writeFile(
      join(dir, 'server.js'),
      "const express = require('express');\nconst app = express();\nmodule.exports = app;\n",
    );
    const bin = join(APPS[0]!.dir, 'node_modules/.bin/express-file-endpoints');
    const { stdout } = await exec(bin, ['init'], dir);
    expect(stdout).to.equal(snippet('init-output').code);
  });
});
