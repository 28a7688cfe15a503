/**
 * When the loader tries Node's own type stripping first (only where it is on and prints no warning), and which
 * load failures send a file to tsx. How the two answer alike is test/integration/type-stripping.test.ts.
 */
import { expect } from 'chai';
import { needsMoreThanStripping, nodeStripsTypes } from '../../src/load/type-stripping';

const stripping = (process.features as { typescript?: unknown }).typescript === 'strip';

describe('Node type stripping: when the loader uses it', () => {
  it('only on versions that strip by default without an ExperimentalWarning', function () {
    if (!stripping) this.skip();
    const quiet = ['22.18.0', '22.23.3', '24.3.0', '24.21.0', '25.0.0', '26.10.0'];
    const noisyOrOff = ['20.19.0', '22.17.1', '23.6.0', '23.11.1', '24.0.0', '24.2.0'];
    expect(quiet.filter((version) => !nodeStripsTypes(version))).to.deep.equal([]);
    expect(noisyOrOff.filter((version) => nodeStripsTypes(version))).to.deep.equal([]);
  });

  it('sends a file to tsx on what stripping cannot do, and on no other failure', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    for (const error of [
      coded('ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX'),
      coded('ERR_MODULE_NOT_FOUND'),
      coded('ERR_UNSUPPORTED_DIR_IMPORT'),
      coded('ERR_IMPORT_ATTRIBUTE_MISSING'),
      coded('ERR_UNKNOWN_FILE_EXTENSION'),
      new SyntaxError("The requested module './user.ts' does not provide an export named 'User'"),
      new SyntaxError('Invalid or unexpected token'),
    ]) {
      expect(needsMoreThanStripping(error), String(error)).to.equal(true);
    }
    for (const error of [
      new TypeError('x is not a function'),
      coded('ECONNREFUSED'),
      'thrown string',
      null,
    ]) {
      expect(needsMoreThanStripping(error), String(error)).to.equal(false);
    }
  });
});
