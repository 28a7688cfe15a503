/**
 * Corpus app "core": what Express itself does with a response — res.json/send/jsonp/format,
 * statuses Node accepts and refuses, redirects and res.location with odd Hosts, cookies,
 * writeHead in its forms, headersSent, streaming with res.write, framing headers, trailers,
 * flushHeaders, 1xx, end callbacks, cork/uncork, long polls, errors and the default handlers,
 * automatic OPTIONS and HEAD — plus a bridged sub-app inside the (bridged) app.
 */
import type { Express, NextFunction, Request, Response } from 'express';
import { frontFor, type Variant } from './fixtures';

export interface CoreState {
  endCallbacks: number;
  closedPolls: number;
}

/** An error whose page from Express's default handler is the same wherever it was thrown. */
const stackless = (message: string, status?: number) =>
  Object.assign(new Error(message), { stack: '', status });

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

export function coreApp(express: () => Express, variant: Variant, state: CoreState): Express {
  const app = express();
  app.set('env', 'test'); // Express logs no errors; the ones for its default handler have no stack
  app.set('jsonp callback name', 'cb');
  for (const handler of frontFor(variant)) app.use(handler);

  app.get('/json', (_req, res) => void res.json({ a: 1, list: ['x', 'y'] }));
  app.get('/text', (_req, res) => void res.send('hello text'));
  app.get('/html', (_req, res) => void res.type('html').send('<p>html</p>'));
  app.get('/buffer', (_req, res) => void res.send(Buffer.from([0, 1, 2, 250, 255])));
  app.get('/empty', (_req, res) => void res.send(''));
  app.get('/end-only', (_req, res) => void res.end());
  app.get('/jsonp', (_req, res) => void res.jsonp({ p: true }));
  app.get('/format', (_req, res) =>
    res.format({
      'text/plain': () => res.send('plain'),
      'application/json': () => res.json({ format: 'json' }),
      default: () => res.status(406).send('nope'),
    }),
  );
  app.get(
    '/status/:code',
    (req, res) => void res.status(Number(req.params.code)).send(`status ${req.params.code}`),
  );
  app.get('/status-code/:code', (req, res) => {
    res.statusCode = Number(req.params.code);
    res.end(`code ${req.params.code}`);
  });
  app.get('/invalid-status/:kind', (req, res) => {
    const codes: Record<string, unknown> = {
      undefined: undefined,
      null: null,
      n99: 99,
      n1000: 1000,
      neg: -401,
    };
    (res as unknown as { status(code: unknown): Response }).status(codes[req.params.kind!]).send('never');
  });
  app.get('/send-status/:code', (req, res) => void res.sendStatus(Number(req.params.code)));
  app.get('/status-message', (_req, res) => {
    res.statusMessage = 'Very Custom';
    res.status(202).send('custom text');
  });
  app.get('/redirect', (_req, res) => res.redirect('/json'));
  app.get('/redirect-301', (_req, res) => res.redirect(301, '/json?moved=1'));
  app.get('/redirect-absolute', (req, res) => res.redirect(`${req.protocol}://${req.get('host')}/json`));
  app.get('/location', (req, res) => void res.location(`//${req.hostname ?? 'none'}/x`).sendStatus(200));
  app.get(
    '/whoami',
    (req, res) => void res.json({ host: req.get('host') ?? null, hostname: req.hostname ?? null }),
  );
  app.get('/cookies', (_req, res) => {
    res.cookie('a', '1').cookie('b', 'two words', { httpOnly: true, sameSite: 'lax' });
    res.clearCookie('old');
    res.append('Set-Cookie', 'raw=1; Path=/');
    res.send('cookies');
  });
  app.get('/multi-header', (_req, res) => {
    res.setHeader('X-Multi', ['one', 'two']);
    res.append('Link', '</a>; rel=preload');
    res.append('Link', '</b>; rel=preload');
    res.setHeader('x-lower', 'lower');
    res.setHeader('X-Number', 42);
    res.send('multi');
  });
  app.get('/write-head', (_req, res) => {
    res.writeHead(201, 'Made It', { 'Content-Type': 'text/plain', 'X-Made': 'yes' });
    res.end('made');
  });
  app.get('/write-head-array', (_req, res) => {
    res.writeHead(200, ['Content-Type', 'text/plain', 'X-From-Array', '1']);
    res.end('array');
  });
  app.get('/write-head-only', (_req, res) => {
    res.writeHead(204);
    res.end();
  });
  app.get('/headers-sent', (_req, res) => {
    const before = res.headersSent;
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    let thrown = 'nothing';
    try {
      res.setHeader('X-Late', '1');
    } catch (error) {
      thrown = (error as NodeJS.ErrnoException).code ?? String(error);
    }
    res.end(`before=${before} after=${res.headersSent} thrown=${thrown}`);
  });
  app.get('/set-after-write', (_req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.write('first;');
    try {
      res.setHeader('X-Late', '1');
      res.end('no throw');
    } catch (error) {
      res.end(`threw ${(error as NodeJS.ErrnoException).code}`);
    }
  });
  app.get('/stream', async (_req, res) => {
    res.type('text/plain');
    for (const part of ['one\n', 'two\n', 'three\n']) {
      res.write(part);
      await tick();
    }
    res.end('end\n');
  });
  app.get('/stream-length', async (_req, res) => {
    res.setHeader('Content-Length', '12');
    res.write('abcdef');
    await tick();
    res.end('ghijkl');
  });
  app.get('/te-chunked', (_req, res) => {
    res.setHeader('Transfer-Encoding', 'chunked');
    res.setHeader('Content-Type', 'application/octet-stream');
    res.end(Buffer.from('bytes body'));
  });
  app.get('/connection-close', (_req, res) => {
    res.setHeader('Connection', 'close');
    res.send('closing');
  });
  app.get('/trailers', async (_req, res) => {
    res.setHeader('Trailer', 'X-Checksum');
    res.write('trailed body');
    await tick();
    res.addTrailers({ 'X-Checksum': 'abc123' });
    res.end();
  });
  app.get('/flush', async (_req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.flushHeaders();
    await tick(20);
    res.end('after flush');
  });
  app.get('/early-hints', (_req, res) => {
    res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    res.send('hinted');
  });
  app.get('/write-continue', (_req, res) => {
    res.writeContinue();
    res.send('continued');
  });
  app.post('/upload-text', (req, res) => {
    let size = 0;
    req.on('data', (chunk: Buffer) => (size += chunk.length));
    req.on('end', () => res.send(`got ${size}`));
  });
  app.get('/end-callback', (_req, res) => void res.end('callback', () => state.endCallbacks++));
  app.get('/end-callbacks', (_req, res) => void res.send(String(state.endCallbacks)));
  app.get('/cork', (_req, res) => {
    res.cork();
    res.write('a');
    res.write('b');
    process.nextTick(() => {
      res.uncork();
      res.end('c');
    });
  });
  app.get('/head-writes-body', (_req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.write('body a HEAD ');
    res.end('must not carry');
  });
  app.get('/poll', (req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.write('waiting\n');
    res.on('close', () => state.closedPolls++);
    void req;
  });
  app.get('/poll-silent', (_req, res) => void res.on('close', () => state.closedPolls++));
  app.get('/polls-closed', (_req, res) => void res.send(String(state.closedPolls)));
  app.get('/throw', () => {
    throw new Error('thrown');
  });
  app.get('/next-error', (_req, _res, next) => setTimeout(() => next(new Error('passed on')), 1));
  app.get('/error-after-header', (_req, res) => {
    res.setHeader('X-Partial', 'yes');
    throw new Error('after header');
  });
  app.get('/default-error', (_req, _res, next) => next(stackless('teapot', 418)));
  app.get('/error-mid-stream', async (_req, res, next) => {
    res.write('partial ');
    await tick();
    next(stackless('mid stream'));
  });

  const inner = express();
  for (const handler of frontFor(variant)) inner.use(handler);
  inner.get('/hello', (req, res) => void res.json({ inner: true, url: req.originalUrl }));
  inner.get('/stream', async (_req, res) => {
    res.write('inner one;');
    await tick();
    res.end('inner two');
  });
  app.use('/inner', inner);

  app.use((error: Error, req: Request, res: Response, next: NextFunction) => {
    if (error.message === 'teapot' || error.message === 'mid stream') return next(error);
    res.status(500).json({
      error: error.message,
      name: error.name,
      code: (error as NodeJS.ErrnoException).code ?? null,
      url: req.url,
    });
  });
  return app;
}
