/**
 * Without the Fetch API's globals (Jest before 28, a jsdom test environment, Node run with
 * --no-experimental-fetch) the package fails as it is imported, naming what is missing and the fix for the
 * environment it runs in. That both built entry points throw it at import, with the globals deleted, is checked
 * in child processes by test/integration/test-runners.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { installedJestVersion, missingFetchGlobals } from '../../src/fetch-globals';

const FETCH = { Request, Response, Headers };
const underJest = { JEST_WORKER_ID: '1' };

function messageOf(globals: object, env: NodeJS.ProcessEnv, version?: string): string {
  const error = missingFetchGlobals(globals, env, () => version);
  expect(error).to.be.instanceOf(Error);
  return error!.message;
}

describe('the Fetch API globals, checked at import', () => {
  it('nothing to say where Request, Response and Headers are functions', () => {
    expect(missingFetchGlobals(FETCH, underJest, () => '27.5.1')).to.equal(undefined);
  });

  it('names what is missing, never "Request is not defined" alone', () => {
    const message = messageOf({ Headers }, {});
    expect(message.split('\n')[0]).to.equal(
      'express-file-endpoints needs the Fetch API (Request, Response, Headers), which Node gives every module ' +
        'as globals, but here Request, Response are not defined.',
    );
  });

  it('Jest 27: names its version, and the fixes (Jest 28 or later, or an environment that has them)', () => {
    const message = messageOf({}, underJest, '27.5.1');
    expect(message).to.include('Jest 27.5.1 runs tests without them').and.include('Jest 28 and later');
    expect(message).to.include('npm install -D jest@latest').and.include('testEnvironment');
  });

  it('Jest whose version cannot be found: "Jest before 28"', () => {
    expect(messageOf({}, underJest)).to.include('Jest before 28 runs tests without them');
  });

  it('Jest 28 or later: the test file runs in an environment without them (jsdom)', () => {
    const message = messageOf({}, underJest, '30.5.2');
    expect(message).to.include('Jest 30.5.2').and.include('jsdom').and.include('@jest-environment node');
    expect(message).not.to.include('Upgrade');
  });

  it('outside Jest: Node, without --no-experimental-fetch', () => {
    expect(messageOf({}, {})).to.include('Node 22.15 or later, without --no-experimental-fetch');
  });

  describe('installedJestVersion', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'ee-jest-version-'));
      mkdirSync(path.join(dir, 'node_modules/jest'), { recursive: true });
      writeFileSync(
        path.join(dir, 'node_modules/jest/package.json'),
        '{ "name": "jest", "version": "27.5.1" }',
      );
      mkdirSync(path.join(dir, 'packages/api/test'), { recursive: true });
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('is the jest package found from the folder the tests run in, or above it', () => {
      expect(installedJestVersion(dir)).to.equal('27.5.1');
      expect(installedJestVersion(path.join(dir, 'packages/api/test'))).to.equal('27.5.1');
    });

    it('is undefined where no jest package is installed', () => {
      expect(installedJestVersion(tmpdir())).to.equal(undefined);
    });
  });
});
