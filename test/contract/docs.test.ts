/**
 * docs/contracts.md stays true: the problem details it shows are what the library answers, and the
 * README's default for `checkResponses` is what a mount does. (Its code blocks parse and name the
 * package as published: readme-snippets.test.ts checks every documentation file for that.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { z } from 'zod';
import { defineHandler } from '../../src';
import { mountChecksResponses } from '../../src/contract';
import { createTestRequest } from '../../src/testing';
import { readmeSnippets } from '../support/readme-snippets';

const DOC = path.resolve(__dirname, '../../docs/contracts.md');
const README = path.resolve(__dirname, '../../README.md');

describe('docs/contracts.md', () => {
  const blocks = readmeSnippets(DOC);

  it('the 400 it shows is the one the library answers', async () => {
    const shown = blocks.find((b) => b.lang === 'http')!.code;
    const expected = JSON.parse(shown.slice(shown.indexOf('{'))) as unknown;
    const handler = defineHandler(
      { query: z.object({ page: z.coerce.number() }), body: z.object({ email: z.email() }) },
      () => new Response(),
    );
    const res = await handler(createTestRequest('/?page=x', { method: 'POST', body: '{"email":"x"}' }));
    expect(shown).to.match(/^HTTP\/1\.1 400 Bad Request\nContent-Type: application\/problem\+json\n/);
    expect(res.headers.get('content-type')).to.equal('application/problem+json');
    expect(await res.json()).to.deep.equal(expected);
  });

  it("the README's default for checkResponses is what a mount does: NODE_ENV decides, not a test runner", () => {
    const row = readFileSync(README, 'utf8')
      .split('\n')
      .find((line) => line.startsWith('| `checkResponses`'))!;
    expect(row.split('|')[2]!.trim()).to.equal('on under `NODE_ENV=development` or `test`');
    const env = process.env.NODE_ENV;
    const checks = (value: string | undefined) => {
      if (value === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = value;
      return mountChecksResponses({})(new Request('http://localhost/'));
    };
    try {
      expect([checks('development'), checks('test')]).to.deep.equal([true, true]);
      // What mocha and node:test leave it: a request through the app is not checked.
      expect(checks(undefined)).to.equal(false);
    } finally {
      if (env === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = env;
    }
  });
});
