/**
 * `express-file-endpoints openapi`, run as a child process from src/cli/main.ts through tsx: the
 * document on standard output as JSON or YAML, 3.1 or 3.2, each accepted by the validator; `--out`; what the
 * modules print stays out of it; a module that fails to load and bad options get a clear answer.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import type { OpenAPIDocument } from '../../src';
import { REPO_NODE_MODULES, runCli, writeFiles } from '../support/cli';
import { validate } from '../support/openapi-validator';

const FIXTURE = path.resolve(__dirname, '../fixtures/openapi-app/app');
const ENV = { ...process.env, NODE_PATH: REPO_NODE_MODULES };

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(path.join(os.tmpdir(), 'ee-openapi-'));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

const run = (...args: string[]) => runCli(['openapi', ...args], { cwd, env: ENV });
const writeTree = (files: Record<string, string>) => writeFiles(cwd, files);

describe('express-file-endpoints openapi', () => {
  it('prints an OpenAPI 3.1 JSON document by default, warnings on standard error', async () => {
    const result = run(FIXTURE);
    expect(result.status, result.stderr).to.equal(0);
    const document = JSON.parse(result.stdout) as OpenAPIDocument;
    expect(document.openapi).to.equal('3.1.1');
    expect(document.paths['/api/users/{id}']).to.have.keys('get', 'patch', 'delete');
    expect(result.stderr).to.match(
      /^warning: .*legacy[\\/]endpoint\.ts: POST body is documented as an open schema/,
    );
    await validate(document);
  });

  it('prints a document of the example app that the validator accepts, for 3.1 and 3.2', async () => {
    // The example's endpoints import the package by name: the built dist/, as npm test builds it first.
    const example = path.resolve(__dirname, '../../examples/express-app/app');
    for (const version of ['3.1', '3.2']) {
      const result = run(example, '--version', version);
      expect(result.status, result.stderr).to.equal(0);
      const document = JSON.parse(result.stdout) as OpenAPIDocument;
      expect(document.paths['/api/users']?.post).to.have.property('requestBody');
      await validate(document);
    }
  });

  it('writes 3.2 as YAML that reads back as the same document', async () => {
    const json = JSON.parse(run(FIXTURE, '--version', '3.2').stdout) as OpenAPIDocument;
    const result = run(FIXTURE, '--version', '3.2', '--format', 'yaml');
    expect(result.status, result.stderr).to.equal(0);
    const document = parse(result.stdout) as OpenAPIDocument;
    expect(document).to.deep.equal(json);
    expect(document.paths['/search']).to.have.property('query');
    await validate(document);
  });

  it('writes the document to --out, and keeps what the modules print out of it', async () => {
    writeTree({
      'package.json': JSON.stringify({ name: 'users-api', version: '2.1.0', description: 'Users, and more' }),
      'app/endpoint.ts':
        'console.log("connecting…");\nexport function GET() { return new Response("ok"); }\n',
      'app/[id]/endpoint.ts': 'export function DELETE() { return new Response(null, { status: 204 }); }\n',
    });
    const printed = run();
    expect(printed.status, printed.stderr).to.equal(0);
    expect(Object.keys((JSON.parse(printed.stdout) as OpenAPIDocument).paths)).to.deep.equal(['/', '/{id}']);

    const result = run('app', '--out', 'docs/openapi.json');
    expect([result.status, result.stdout]).to.deep.equal([0, '']);
    expect(result.stderr).to.match(/^wrote docs[\\/]openapi\.json \(OpenAPI 3\.1\.1, 2 paths\)\n$/);
    const document = JSON.parse(readFileSync(path.join(cwd, 'docs/openapi.json'), 'utf8')) as OpenAPIDocument;
    // The app's package.json names the API.
    expect(document.info).to.deep.equal({
      title: 'users-api',
      version: '2.1.0',
      description: 'Users, and more',
    });
    expect(document.paths['/{id}']?.delete).to.deep.equal({
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { default: { description: 'The endpoint’s response' } },
    });
    await validate(document);
  });

  it('exits 1 naming the file when a module fails to load', () => {
    writeTree({ 'app/endpoint.ts': 'throw new Error("no database");\nexport function GET() {}\n' });
    const result = run();
    expect([result.status, result.stdout]).to.deep.equal([1, '']);
    expect(result.stderr).to.include('app/endpoint.ts').and.include('no database');
  });

  it('exits 1 with advice when the folder is missing, 2 on a bad option', () => {
    const missing = run('nowhere');
    expect(missing.status).to.equal(1);
    expect(missing.stderr).to.include('express-file-endpoints openapi path/to/app');
    const format = run(FIXTURE, '--format', 'xml');
    expect([format.status, format.stderr]).to.deep.equal([
      2,
      'express-file-endpoints openapi: --format must be json or yaml, not "xml"\n',
    ]);
    expect(run(FIXTURE, '--version', '3.0').stderr).to.include('--version must be 3.1 or 3.2, not "3.0"');
  });
});
