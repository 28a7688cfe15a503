/**
 * The test runners users run, on apps like theirs, installed as npm installs them (test/support/runner-apps.ts):
 *   - test/fixtures/jest-app, a CommonJS Express app with a Jest suite: JavaScript and TypeScript (ts-jest)
 *     endpoints, a legacy router, a store (lib/db.js) the test fills, a mailer it mocks with jest.mock, under
 *     Jest 30 and Jest 29 with their default node environment and no flag;
 *   - test/fixtures/vitest-app, its ES module twin with a Vitest suite (vi.mock), under the setting
 *     docs/testing.md gives, and without it, where the endpoints get their own copies;
 *   - docs/testing.md's snippets for node:test, mocha and Vitest in a CommonJS app, run in copies of those apps;
 *   - Jest with an ES module endpoint, and the package imported without the Fetch API's globals (as under Jest
 *     before 28), or without every Web global jsdom lacks (Jest's jsdom environment): the errors that say what to do.
 * Each suite passes only if one instance of lib/db.js (and of the mailer) serves the test, the endpoints and the
 * router. The documentation shows the fixtures' own files: the first test checks that they are the same.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { fileOf, snippet } from '../support/readme-snippets';
import {
  ROOT,
  RUNNERS,
  removeScratchApps,
  runNode,
  scratchApp,
  type RunResult,
} from '../support/runner-apps';
import { ensureBuilt } from './loading-apps';

const FIXTURES = path.join(ROOT, 'test/fixtures');

/** A snippet of docs/testing.md, as the file its first line names. */
function docFile(name: string): Record<string, string> {
  const { code } = snippet(name);
  return { [fileOf(code)]: code };
}

function expectPassed(result: RunResult, summary: RegExp): void {
  expect(result.output, result.output).to.match(summary);
  expect(result.code, result.output).to.equal(0);
}

describe('integration: the test runners users run, on apps like theirs', function () {
  this.timeout(60_000);
  before(async function () {
    this.timeout(120_000);
    await ensureBuilt();
  });
  after(removeScratchApps);

  it("docs/testing.md shows the fixture apps' own files", () => {
    const shown: Array<[string, string]> = [
      ['runner-app', 'jest-app/create-app.js'],
      ['runner-endpoint', 'jest-app/app/api/users/endpoint.js'],
      ['jest-config', 'jest-app/jest.config.js'],
      ['jest-test', 'jest-app/test/users.test.js'],
      ['vitest-config', 'vitest-app/vitest.config.js'],
      ['vitest-test', 'vitest-app/test/users.test.js'],
    ];
    for (const [name, file] of shown) {
      expect(snippet(name).code, `${name} is ${file}`).to.equal(
        readFileSync(path.join(FIXTURES, file), 'utf8'),
      );
    }
  });

  describe('Jest, a CommonJS app: no flag, no custom environment', () => {
    for (const [version, bin] of [
      ['30', RUNNERS.jest30],
      ['29', RUNNERS.jest29],
    ] as const) {
      it(`Jest ${version}: .js and .ts endpoints share lib/db.js and the jest.mock with the test and the router`, async () => {
        const result = await runNode([bin, '--ci'], scratchApp('jest-app'));
        expectPassed(result, /Tests:\s+4 passed, 4 total/);
      });
    }

    it('a CommonJS build of the tree: its endpoints share lib/db.js and the jest.mock with the test', async () => {
      const dir = scratchApp('jest-app', {
        'test/built.test.js': `const path = require('node:path');
const express = require('express');
const request = require('supertest');
const { mountEndpoints } = require('express-file-endpoints');
const db = require('../lib/db');
const mailer = require('../lib/mailer');

jest.mock('../lib/mailer');

test('the build reads what the test stored and calls the mock', async () => {
  const app = express();
  app.use(express.json());
  await mountEndpoints(app, { dir: path.join(__dirname, '../dist/endpoints') });
  db.addUser('Ada');
  await request(app).get('/api/users/1').expect(200, { id: '1', name: 'Ada' });
  await request(app).post('/api/users').send({ name: 'Grace' }).expect(201, { id: '2', name: 'Grace' });
  expect(mailer.sendWelcome).toHaveBeenCalledWith({ id: '2', name: 'Grace' });
});
`,
      });
      const cli = path.join(dir, 'node_modules/express-file-endpoints/dist/cli.js');
      expectPassed(await runNode([cli, 'build', 'app'], dir), /built .*manifest\.cjs \(CommonJS/);
      const result = await runNode([RUNNERS.jest30, '--ci', 'test/built.test.js'], dir);
      expectPassed(result, /Tests:\s+1 passed, 1 total/);
    });

    it('an ES module endpoint fails to load saying how Jest loads ES modules', async () => {
      const dir = scratchApp('jest-app', {
        'esm/hello/endpoint.mjs': 'export const GET = () => new Response("hi");\n',
        'test/esm.test.js': `const path = require('node:path');
const { mountEndpoints } = require('express-file-endpoints');

test('the load error', async () => {
  const endpoints = mountEndpoints({ dir: path.join(__dirname, '../esm'), onError: () => {} });
  await expect(endpoints.ready).rejects.toThrow('NODE_OPTIONS=--experimental-vm-modules npx jest');
  await expect(endpoints.ready).rejects.toThrow('Could not load esm/hello/endpoint.mjs');
});
`,
      });
      const result = await runNode([RUNNERS.jest30, '--ci', 'test/esm.test.js'], dir);
      expectPassed(result, /Tests:\s+1 passed, 1 total/);
    });
  });

  describe('Vitest', () => {
    it('an ES module app, with server.deps.inline: one lib/db.js and one vi.mock for the test, the endpoints and the router', async () => {
      const result = await runNode([RUNNERS.vitest, 'run'], scratchApp('vitest-app'));
      expectPassed(result, /Tests\s+3 passed \(3\)/);
    });

    it('the same suite without the setting fails: the endpoints run outside Vitest, on copies of the modules', async () => {
      const dir = scratchApp('vitest-app', { 'vitest.config.js': 'export default {};\n' });
      const result = await runNode([RUNNERS.vitest, 'run'], dir);
      expect(result.output, result.output).to.match(/Tests\s+3 failed \(3\)/);
    });

    it('a CommonJS app: the endpoints share what the app requires, and the test requires it too (docs)', async () => {
      const dir = scratchApp('jest-app', docFile('vitest-cjs-test'));
      const result = await runNode([RUNNERS.vitest, 'run'], dir);
      expectPassed(result, /Tests\s+1 passed \(1\)/);
    });
  });

  describe('node:test and mocha, in plain Node', () => {
    it('node:test, a CommonJS app: t.mock.method on the mailer reaches the endpoint (docs)', async () => {
      const dir = scratchApp('jest-app', docFile('node-test'));
      expectPassed(await runNode(['--test', 'test/users.test.js'], dir), /\bpass 1\n.*\bfail 0\n/);
    });

    it('node:test, an ES module app: the same (docs)', async () => {
      const dir = scratchApp('vitest-app', docFile('node-test-esm'));
      expectPassed(await runNode(['--test', 'test/users.test.js'], dir), /\bpass 1\n.*\bfail 0\n/);
    });

    it('mocha, a CommonJS app: .js and .ts endpoints read what the test stored (docs)', async () => {
      const dir = scratchApp('jest-app', docFile('mocha-test'));
      expectPassed(await runNode([RUNNERS.mocha, 'test/users.test.js'], dir), /1 passing/);
    });
  });

  describe('without the Fetch API globals, as under Jest before 28', () => {
    it('both entry points fail at import, naming the Jest version and the fix, never "Request is not defined"', async () => {
      const dir = scratchApp('jest-app');
      // The Jest a test run finds installed: the one of the folder it runs from.
      mkdirSync(path.join(dir, 'jest27/node_modules/jest'), { recursive: true });
      writeFileSync(path.join(dir, 'jest27/node_modules/jest/package.json'), '{ "version": "27.5.1" }');
      const script = `delete globalThis.Request;
process.env.JEST_WORKER_ID = '1';
process.chdir('jest27');
const failures = [];
for (const entry of ['express-file-endpoints', 'express-file-endpoints/testing']) {
  try { require(entry); failures.push(entry + ' loaded'); } catch (error) { failures.push(error.message); }
}
console.log(JSON.stringify(failures));`;
      const result = await runNode(['-e', script], dir);
      expect(result.code, result.output).to.equal(0);
      const failures = JSON.parse(result.output) as string[];
      expect(failures).to.have.length(2);
      for (const message of failures) {
        expect(message).to.match(/^express-file-endpoints needs the Fetch API .* Request is not defined\.\n/);
        expect(message)
          .to.include('Jest 27.5.1 runs tests without them')
          .and.include('npm install -D jest@latest');
      }
    });

    // jest-environment-jsdom is not a dev dependency: its global is jsdom's window, which has none of these
    // (jsdom has its own URL, AbortController, EventTarget, Blob), so the child deletes them from Node's.
    const notInJsdom = [
      'Request',
      'Response',
      'Headers',
      'fetch',
      'FormData',
      'TextEncoder',
      'TextDecoder',
      'TextEncoderStream',
      'TextDecoderStream',
      'ReadableStream',
      'WritableStream',
      'TransformStream',
      'CompressionStream',
      'DecompressionStream',
      'BroadcastChannel',
      'MessageChannel',
      'structuredClone',
      'WebSocket',
    ];
    for (const [jest, advice] of [
      ['26.6.3', 'npm install -D jest@latest'],
      ['30.2.0', "testEnvironment: 'node'"],
    ] as const) {
      it(`as in Jest ${jest}'s jsdom environment, without TextEncoder and the rest too: the same error, never a ReferenceError`, async () => {
        const dir = scratchApp('jest-app');
        mkdirSync(path.join(dir, 'jsdom/node_modules/jest'), { recursive: true });
        writeFileSync(
          path.join(dir, 'jsdom/node_modules/jest/package.json'),
          JSON.stringify({ version: jest }),
        );
        const script = `for (const name of ${JSON.stringify(notInJsdom)}) delete globalThis[name];
process.env.JEST_WORKER_ID = '1';
process.chdir('jsdom');
const failures = [];
for (const entry of ['express-file-endpoints', 'express-file-endpoints/testing']) {
  try { require(entry); failures.push(entry + ' loaded'); } catch (error) { failures.push(error.name + ': ' + error.message); }
}
console.log(JSON.stringify(failures));`;
        const result = await runNode(['-e', script], dir);
        expect(result.code, result.output).to.equal(0);
        const failures = JSON.parse(result.output) as string[];
        expect(failures).to.have.length(2);
        for (const message of failures) {
          expect(message).to.match(
            /^Error: express-file-endpoints needs the Fetch API .* are not defined\.\n/,
          );
          expect(message).to.include(`Jest ${jest}`).and.include(advice);
        }
      });
    }
  });
});
