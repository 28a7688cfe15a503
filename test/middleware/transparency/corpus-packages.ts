/**
 * Corpus apps built from the middleware packages real Express apps use: express-session with
 * cookie-parser; express.static, serve-index, res.sendFile/res.download, morgan, method-override,
 * multer, express.Router with params and res.render (ejs); helmet with cors; vhost sub-apps;
 * compression. Everything that would differ between runs is made fixed: session ids come from
 * a counter, files have fixed mtimes.
 */
import compression from 'compression';
import cookieParser from 'cookie-parser';
import cors from 'cors';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import helmet from 'helmet';
import methodOverride from 'method-override';
import morgan from 'morgan';
import multer from 'multer';
import serveIndex from 'serve-index';
import vhost from 'vhost';
import { frontFor, type Fixture, type Variant } from './fixtures';

/** `express` from either major version: the app factory with its static and Router. */
export type ExpressModule = typeof import('express');

export const SESSION_SECRET = 'transparency secret';

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the app's error handler answers: the error, as JSON. */
function jsonErrors(error: Error & { status?: number }, _req: Request, res: Response, next: NextFunction) {
  if (res.headersSent) return next(error);
  res.status(error.status ?? 500).json({ error: error.message });
}

export function sessionApp(express: ExpressModule, variant: Variant): Express {
  const app = express();
  for (const handler of frontFor(variant)) app.use(handler);
  let sessions = 0;
  app.use(cookieParser(SESSION_SECRET));
  app.use(
    session({
      secret: SESSION_SECRET,
      store: new session.MemoryStore(),
      genid: () => `sid-${++sessions}`,
      resave: false,
      saveUninitialized: false,
    }),
  );
  app.get('/visit', (req, res) => {
    const data = req.session as unknown as { views?: number };
    data.views = (data.views ?? 0) + 1;
    res.send(`views ${data.views}`);
  });
  app.get('/peek', (req, res) => {
    const data = req.session as unknown as { views?: number };
    res.json({ views: data.views ?? null, cookies: req.cookies, signed: req.signedCookies });
  });
  app.get('/signed', (_req, res) => void res.cookie('s', 'value', { signed: true }).send('signed'));
  app.get('/stream', async (req, res) => {
    (req.session as unknown as { streamed: boolean }).streamed = true;
    res.write('streamed ');
    await tick();
    res.end('session');
  });
  app.get('/json', (req, res) => {
    (req.session as unknown as { json: boolean }).json = true;
    res.json({ saved: true });
  });
  app.get('/logout', (req, res, next) =>
    req.session.destroy((error) => (error ? next(error) : res.clearCookie('connect.sid').send('bye'))),
  );
  app.use(jsonErrors);
  return app;
}

export function filesApp(express: ExpressModule, variant: Variant, fixture: Fixture, log: string[]): Express {
  const app = express();
  app.set('views', fixture.viewsDir);
  app.set('view engine', 'ejs');
  for (const handler of frontFor(variant)) app.use(handler);
  app.use(
    morgan(':method :url :status :res[content-length] :res[content-type]', {
      stream: { write: (line: string) => void log.push(line.trim()) },
    }),
  );
  app.use(methodOverride('_method'));
  app.use(methodOverride('X-HTTP-Method-Override'));
  app.use('/static', express.static(fixture.publicDir), serveIndex(fixture.publicDir, { icons: false }));
  // The callback only for errors: called after a successful send, next() would reach the 404.
  const onlyErrors = (next: NextFunction) => (error?: unknown) => error && next(error);
  app.get('/file/:name', (req, res, next) =>
    res.sendFile(req.params.name!, { root: fixture.publicDir }, onlyErrors(next)),
  );
  app.get('/file-abs', (_req, res) => res.sendFile(fixture.textFile, { headers: { 'X-Sent': 'file' } }));
  app.get('/download/:name', (req, res, next) =>
    res.download(`${fixture.publicDir}/${req.params.name}`, `copy-of-${req.params.name}`, onlyErrors(next)),
  );
  app.get('/attachment', (_req, res) => void res.attachment('report.txt').send('report body'));
  app.get('/render', (_req, res) => res.render('page', { title: 'Rendered', items: ['a', 'b', '<c>'] }));
  app.get('/render-broken', (_req, res) => res.render('broken'));

  const users = express.Router({ mergeParams: true });
  users.param('id', (req, res, next, id: string) =>
    id === 'missing' ? res.status(404).json({ missing: id }) : next(),
  );
  users.get('/:id', (req, res) => void res.json({ user: req.params.id }));
  users.get('/:id/posts/:post', (req, res) => void res.json({ user: req.params.id, post: req.params.post }));
  app.use('/users', users);
  app.delete('/resource/:id', (req, res) => void res.json({ deleted: req.params.id, method: req.method }));
  app.put(
    '/resource/:id',
    (req, res) => void res.status(201).json({ put: req.params.id, method: req.method }),
  );

  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: 64 * 1024 } });
  app.post('/upload', upload.single('file'), (req, res) => {
    const file = req.file;
    res.json({
      fields: req.body,
      file: file && { name: file.originalname, type: file.mimetype, size: file.size },
    });
  });
  app.post('/upload-many', upload.array('files', 3), (req, res) => {
    const files = (req.files as { originalname: string; size: number }[]).map((file) => [
      file.originalname,
      file.size,
    ]);
    res.json({ files });
  });
  app.use(jsonErrors as unknown as RequestHandler);
  return app;
}

export function securityApp(express: ExpressModule, variant: Variant): Express {
  const app = express();
  for (const handler of frontFor(variant)) app.use(handler);
  app.use(helmet());
  app.use(cors({ origin: 'http://client.test', credentials: true, exposedHeaders: ['X-Exposed'] }));
  app.get('/data', (_req, res) => void res.set('X-Exposed', 'shown').json({ secure: true }));
  app.post('/data', (_req, res) => void res.status(201).send('created'));
  app.get('/page', (_req, res) => void res.send('<!doctype html><p>page</p>'));
  return app;
}

export function vhostApp(express: ExpressModule, variant: Variant): Express {
  const app = express();
  for (const handler of frontFor(variant)) app.use(handler);
  const api = express();
  api.get('/', (req, res) => void res.json({ site: 'api', host: req.hostname }));
  api.get('/stream', async (_req, res) => {
    res.write('api ');
    await tick();
    res.end('stream');
  });
  const tenants = express();
  tenants.get('/', (req, res) => {
    const vhostData = (req as unknown as { vhost: { [index: number]: string; hostname: string } }).vhost;
    res.json({ tenant: vhostData[0], hostname: vhostData.hostname });
  });
  app.use(vhost('api.example.test', api as unknown as vhost.Handler));
  app.use(vhost('*.tenants.example.test', tenants as unknown as vhost.Handler));
  app.get('/', (req, res) => void res.send(`main site for ${req.hostname}`));
  return app;
}

export function compressedApp(express: ExpressModule, variant: Variant, fixture: Fixture): Express {
  const app = express();
  for (const handler of frontFor(variant)) app.use(handler);
  app.use(compression({ threshold: 0 }));
  app.get('/json', (_req, res) => void res.json({ text: 'compress me '.repeat(200) }));
  app.get('/small', (_req, res) => void res.send('tiny'));
  app.get('/stream', async (_req, res) => {
    res.type('text/plain');
    for (let i = 0; i < 4; i++) {
      res.write(`line ${i} `.repeat(300));
      await tick();
    }
    res.end();
  });
  app.get('/file', (_req, res) => res.sendFile(fixture.bigFile));
  app.get(
    '/no-transform',
    (_req, res) => void res.set('Cache-Control', 'no-transform').send('as is '.repeat(50)),
  );
  return app;
}
