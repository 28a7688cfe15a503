/**
 * `openapi --format yaml` writes YAML without a YAML library (src/openapi/yaml.ts): what it writes must read
 * back, with the `yaml` package, as exactly the JSON it came from, however tricky the strings and keys.
 */
import { expect } from 'chai';
import { parse } from 'yaml';
import { toYaml } from '../../src/openapi';

const TRICKY = {
  openapi: '3.1.1',
  strings: [
    'yes',
    'no',
    'on',
    'off',
    'null',
    '~',
    'true',
    '1.0',
    '0x1F',
    '-',
    '- a',
    ': b',
    '#c',
    '',
    ' padded ',
    'a: b',
  ],
  multiline: 'line 1\nline 2\n\ttab',
  unicode: 'café — ✓ \u0000 \u2028',
  numbers: [0, -1, 3.5, 1e21],
  booleans: [true, false],
  nothing: null,
  empty: { object: {}, array: [] },
  nested: [[1, [2]], [{ a: { b: [] } }], { '': 'empty key' }],
  keys: {
    '/api/users/{id}': 1,
    'application/json': 2,
    '200': 3,
    'x-query': 4,
    'key: with colon': 5,
    yes: 6,
    $ref: 7,
    'a#b': 8,
  },
};

describe('toYaml', () => {
  it('writes YAML that reads back as the same data', () => {
    expect(parse(toYaml(TRICKY))).to.deep.equal(TRICKY);
  });

  it('quotes every string, so none reads back as a number, a boolean or null', () => {
    const text = toYaml({ version: '1.0', flag: 'yes', none: 'null' });
    expect(text).to.equal('version: "1.0"\nflag: "yes"\nnone: "null"\n');
  });
});
