/** broadcastChannelBackplane(): the backplane contract, two mounts on one BroadcastChannel name. */
import { broadcastChannelBackplane } from '../../src';
import { behavesAsABackplane } from './backplane-contract';

describe('broadcastChannelBackplane()', () => {
  let round = 0;
  beforeEach(() => void round++);
  // A name per test: mounts of an earlier test, still closing, are not heard.
  behavesAsABackplane(() => broadcastChannelBackplane({ channel: `test-${round}` }));
});
