/**
 * A real OpenAPI consumer reads the document: openapi-typescript generates TypeScript types from
 * it, and a file using them is type-checked — a right call compiles, and a wrong field, a missing required
 * body field or a field the response lacks are errors (each `@ts-expect-error` must be used).
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { mountEndpoints } from '../../src';

const DIR = path.join(__dirname, '../fixtures/openapi-app/app');

const USE = `
import type { paths } from './api';

type GetUser = paths['/api/users/{id}']['get'];
const params: GetUser['parameters']['path'] = { id: '1' };
const user: GetUser['responses'][200]['content']['application/json'] = { id: params.id, name: 'Ada', email: 'a@b.c' };
user.name.toUpperCase();
// @ts-expect-error the response has no password
void user.password;
const missing: GetUser['responses'][404]['content']['application/json'] = { error: 'not found' };
void missing;

type CreateUser = paths['/api/users']['post'];
const body: CreateUser['requestBody']['content']['application/json'] = { name: 'Ada', email: 'ada@example.com' };
void body;
// @ts-expect-error email is required
const incomplete: CreateUser['requestBody']['content']['application/json'] = { name: 'Ada' };
void incomplete;

const query: NonNullable<paths['/api/users']['get']['parameters']['query']> = { limit: 10, tag: ['a'] };
// @ts-expect-error limit is a number
const wrong: NonNullable<paths['/api/users']['get']['parameters']['query']> = { limit: 'ten' };
void [query, wrong];

type Stats = paths['/stats']['get']['responses'][200]['content']['application/json'];
const stats: Stats = { requests: 1, period: 'day' };
void stats;
`;

describe('openapi-typescript reads the document', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'ee-openapi-ts-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates types that type-check a right call and reject wrong ones', async function () {
    this.timeout(60_000); // a TypeScript program: seconds on a busy machine
    const document = await mountEndpoints({ dir: DIR }).openapi({ onWarning: () => {} });
    const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], { silent: true });
    writeFileSync(path.join(dir, 'api.ts'), astToString(ast));
    writeFileSync(path.join(dir, 'use.ts'), USE);
    const program = ts.createProgram([path.join(dir, 'use.ts')], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).to.deep.equal([]);
  });
});
