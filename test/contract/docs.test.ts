/**
 * docs/contracts.md stays true: the problem details it shows are what the library answers. (Its
 * code blocks parse and name the package as published: readme-snippets.test.ts checks every
 * documentation file for that.)
 */
import path from 'node:path';
import { expect } from 'chai';
import { z } from 'zod';
import { defineHandler } from '../../src';
import { createTestRequest } from '../../src/testing';
import { readmeSnippets } from '../support/readme-snippets';

const DOC = path.resolve(__dirname, '../../docs/contracts.md');

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
});
