/**
 * The routes of the differential suite, written the Express way: `res.json`, `res.send` of a string,
 * a Buffer and an object, `res.status().end()`, `res.sendStatus`, `res.redirect`, `res.cookie`,
 * `res.set`/`res.type`, `res.location`, errors through `next(err)`, params with encoded characters.
 * Each one is ported to an endpoint file under test/fixtures/differential-app/app, the way its
 * migration guide (docs/migrating.md) says. The same code serves Express 4 and 5; only the catch-all's
 * syntax and what it puts in `req.params` differ.
 */
import type express5 from 'express';
import type { NextFunction, Request, Response } from 'express';

type Express = typeof express5;

/** An error with the fields error handlers read (http-errors' shape). */
function httpError(message: string, status: number, expose = status < 500): Error {
  return Object.assign(new Error(message), { status, expose });
}

const BIG = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `item ${i}` }));

/** A fixed date, so both apps send the same Last-Modified. */
export const LAST_MODIFIED = 'Tue, 01 Apr 2025 10:00:00 GMT';

export function nativeRoutes(express: Express, version: 4 | 5): express5.Router {
  const router = express.Router();

  // Bodies: JSON, strings, bytes, objects.
  router.get('/json', (_req, res) => void res.json({ hello: 'world' }));
  router.get('/json/charset', (_req, res) => void res.json({ hello: 'world' }));
  router.get('/json/array', (_req, res) => void res.json([1, 2, 3]));
  router.get('/json/unicode', (_req, res) => void res.json({ name: 'Zoë ☃ 😀' }));
  router.get('/json/large', (_req, res) => void res.json(BIG));
  router.get('/bool', (_req, res) => void res.send(true));
  router.get('/number', (_req, res) => void res.json(42));
  router.get('/null', (_req, res) => void res.json(null));
  router.get('/text', (_req, res) => void res.send('hello'));
  router.get('/text/natural', (_req, res) => void res.send('hello'));
  router.get('/html', (_req, res) => void res.send('<h1>Hi</h1>'));
  router.get('/buffer', (_req, res) => void res.send(Buffer.from([1, 2, 3, 250])));
  router.get('/buffer/natural', (_req, res) => void res.send(Buffer.from([1, 2, 3, 250])));
  router.get('/object', (_req, res) => void res.send({ a: 1, b: [true, null] }));
  router.get('/empty', (_req, res) => void res.send(''));
  router.get('/nothing', (_req, res) => void res.end());
  router.get('/stream', (_req, res) => {
    res.write('first,');
    // Long enough that a busy machine never sees the stream end while the bridge looks for a whole body.
    setTimeout(() => res.end('second'), 50);
  });

  // Statuses.
  router.get('/created', (_req, res) => void res.status(201).json({ created: true }));
  router.get('/accepted', (_req, res) => void res.status(202).send('queued'));
  router.get('/teapot', (_req, res) => void res.status(418).send("I'm a teapot"));
  router.get('/send-status/:code', (req, res) => void res.sendStatus(Number(req.params.code)));
  router.get('/items/:id', (req, res) => void res.json({ id: req.params.id }));
  router.put('/items/:id', (req, res) => void res.json({ id: req.params.id, ...req.body }));
  router.patch('/items/:id', (req, res) => void res.status(200).json({ patched: req.params.id }));
  router.delete('/items/:id', (_req, res) => void res.status(204).end());
  router
    .route('/methods')
    .get((_req, res) => void res.send('got'))
    .post((_req, res) => void res.status(201).send('posted'));

  // Redirects and headers.
  router.get('/redirect', (_req, res) => res.redirect('/target'));
  router.get('/redirect/permanent', (_req, res) => res.redirect(301, '/moved'));
  router.get('/location', (_req, res) => void res.location('/elsewhere').status(201).json({ ok: true }));
  router.get('/cookie', (_req, res) => void res.cookie('session', 'abc').json({ ok: true }));
  router.get('/cookie/options', (_req, res) => {
    res.cookie('prefs', 'dark mode', { httpOnly: true, sameSite: 'lax', path: '/account' });
    res.send('set');
  });
  router.get('/cookie/two', (_req, res) => void res.cookie('a', '1').cookie('b', '2').json({ ok: true }));
  router.get('/cookie/clear', (_req, res) => void res.clearCookie('session').json({ ok: true }));
  router.get('/set', (_req, res) => void res.set('X-Custom', '1').json({ ok: true }));
  router.get(
    '/set/many',
    (_req, res) => void res.set({ 'X-A': 'a', 'Cache-Control': 'no-store' }).send('ok'),
  );
  router.get('/type/text', (_req, res) => void res.type('text').send('plain'));
  router.get('/type/xml', (_req, res) => void res.type('xml').send('<a/>'));
  router.get('/vary', (_req, res) => void res.vary('Accept').json({ ok: true }));
  router.get('/append', (_req, res) => {
    res.append('Link', '</a>; rel="prev"');
    res.append('Link', '</b>; rel="next"');
    res.json({ ok: true });
  });
  router.get('/last-modified', (_req, res) => void res.set('Last-Modified', LAST_MODIFIED).send('dated'));
  router.get('/own-etag', (_req, res) => void res.set('ETag', '"v1"').send('tagged'));

  // Errors, through next(err) to the app's error handler.
  router.get('/errors/sync', (_req, _res, next) => next(new Error('boom')));
  router.get('/errors/async', (_req: Request, _res: Response, next: NextFunction) => {
    Promise.reject(new Error('async boom')).catch(next);
  });
  router.get('/errors/status', (_req, _res, next) => next(httpError('short and stout', 418)));
  router.get('/errors/expose', (_req, _res, next) => next(httpError('name is required', 400)));

  // Params, the query, the request.
  router.get('/users/:id', (req, res) => void res.json({ id: req.params.id }));
  router.get('/users/:id/posts/:postId', (req, res) => void res.json({ ...req.params }));
  if (version === 5) {
    router.get('/files/*path', (req, res) => {
      res.json({ path: (req.params as unknown as { path: string[] }).path.join('/') });
    });
  } else {
    router.get(
      '/files/*',
      (req, res) => void res.json({ path: (req.params as unknown as Record<string, string>)[0] }),
    );
  }
  router.get('/query', (req, res) => void res.json(req.query));
  router.get('/headers', (req, res) => void res.json({ test: req.get('x-test') ?? null }));
  router.post('/echo', (req, res) => void res.json(req.body));
  router.post('/form', (req, res) => void res.json(req.body));
  // Bytes the route reads itself, up to 1 MiB: the endpoint's default limit.
  router.post('/upload', express.raw({ limit: '1mb' }), (req, res) => {
    res.json({ bytes: (req.body as Buffer).length });
  });

  return router;
}
