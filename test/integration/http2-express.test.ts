/**
 * An Express 5 app on http2-express (Express itself cannot take Node's HTTP/2 compatibility objects:
 * it swaps their prototypes for http.IncomingMessage's), the tree mounted with `mountEndpoints(app)`.
 * The app runs in a child process (./http2-express-server.ts): http2-express changes Express's own
 * prototypes, which would leak into every later test of this process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http2 from 'node:http2';
import path from 'node:path';
import { expect } from 'chai';
import { h2Request } from '../support/h2';

describe('HTTP/2: an Express 5 app on http2-express, the tree mounted with mountEndpoints(app)', function () {
  this.timeout(20_000);
  let child: ChildProcess;
  let session: http2.ClientHttp2Session;
  let port: number;

  before(async () => {
    child = fork(path.join(__dirname, 'http2-express-server.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    [{ port }] = (await once(child, 'message')) as [{ port: number }];
    session = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
  });

  after(() => {
    session?.close();
    child?.kill();
  });

  it('answers h2 with the :authority URL, streams, and leaves other paths to the app', async () => {
    const who = await h2Request(session, {
      ':method': 'GET',
      ':path': '/whoami',
      ':authority': `api.example.test:${port}`,
    });
    expect(JSON.parse(who.body)).to.deep.equal({
      url: `https://api.example.test:${port}/whoami`,
      user: { id: 'u1' },
    });
    const stream = await h2Request(session, { ':method': 'GET', ':path': '/stream' });
    expect(stream.body).to.equal('first\nsecond\nthird\n');
    expect(stream.firstByte).to.be.lessThan(stream.total - 150);
    const other = await h2Request(session, { ':method': 'GET', ':path': '/not-in-the-tree' });
    expect([other.status, other.body]).to.deep.equal([404, 'app 404']);
  });
});
