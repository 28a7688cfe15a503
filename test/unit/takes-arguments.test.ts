import { expect } from 'chai';
import { takesArguments } from '../../src/dispatch/takes-arguments';

/* eslint-disable prefer-rest-params */
describe('takesArguments: whether a handler can see what it is called with', () => {
  const none: Array<[string, (...args: never[]) => unknown]> = [
    ['function GET() {}', function GET() {}],
    ['async function GET() {}', async function GET() {}],
    ['() => x', () => 1],
    ['async () => x', async () => 1],
    ['a method without parameters', { GET() {} }.GET],
    ['spaces in the list', new Function('return function GET(  ) { return 1 }')() as () => unknown],
  ];
  for (const [what, fn] of none) {
    it(`no: ${what}`, () => expect(takesArguments(fn)).to.equal(false));
  }

  const some: Array<[string, (...args: never[]) => unknown]> = [
    ['one parameter', (request: Request) => request],
    ['two parameters', (_request: Request, context: unknown) => context],
    ['a rest parameter (length 0)', (...args: unknown[]) => args],
    ['a default parameter (length 0)', (request: unknown = undefined) => request],
    ['a destructured default parameter (length 0)', ({ url }: { url?: string } = {}) => url],
    [
      '`arguments` in the body',
      function GET() {
        return arguments[0] as unknown;
      },
    ],
    ['a bound function', function GET() {}.bind(null)],
    [
      'a comment in the parameter list',
      new Function('return function GET(/* request */) {}')() as () => unknown,
    ],
  ];
  for (const [what, fn] of some) {
    it(`yes: ${what}`, () => expect(takesArguments(fn)).to.equal(true));
  }
});
