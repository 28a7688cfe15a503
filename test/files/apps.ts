/**
 * The Express 5 app the files suite asks: native routes (`res.sendFile`, `res.download`,
 * `express.static`) under /native, the fixture tree (sendFile, serveStatic) under /ported, then one
 * 404 handler and one error handler for both, which set an error's `headers` as Express's default
 * handler does. And the client that sends a request to each side exactly as written.
 */
import http from 'node:http';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { mountEndpoints, type MountOptions } from '../../src';
import { asked, PUBLIC, STATIC_OPTIONS, tempRoot } from '../fixtures/files-app/options';
import { httpRequest, listen, type HttpReply, type Listening } from '../support/net';

export const FIXTURE = path.join(__dirname, '../fixtures/files-app');
export const TREE = path.join(FIXTURE, 'app');

type HttpError = Error & { status?: number; statusCode?: number; headers?: Record<string, string> };

const queryOf = (req: Request) => new URL(req.originalUrl, 'http://localhost').searchParams;

export async function startFilesApp(mount: Pick<MountOptions, 'onError'> = {}): Promise<Listening> {
  const app = express();
  app.get('/native/file', (req, res) => {
    const { file, options } = asked(queryOf(req));
    res.sendFile(file, options);
  });
  app.get('/native/download', (req, res) => {
    const { file, options, as } = asked(queryOf(req));
    // res.download(path, options): Express 5 takes it, its types do not list it.
    const download = res.download.bind(res) as (path: string, ...rest: unknown[]) => void;
    if (as === undefined) download(file, options);
    else download(file, as, options);
  });
  app.get('/native/temp', (req, res) => res.sendFile(queryOf(req).get('name') ?? '', { root: tempRoot() }));
  for (const [name, options] of Object.entries(STATIC_OPTIONS)) {
    app.use(`/native/${name}`, express.static(PUBLIC, options as Parameters<typeof express.static>[1]));
  }
  await mountEndpoints(app, { dir: TREE, ...mount });
  app.use((_req: Request, res: Response) => void res.status(404).type('text/plain').send('Not Found'));
  app.use((error: HttpError, _req: Request, res: Response, _next: NextFunction) => {
    const status = error.status ?? error.statusCode ?? 500;
    if (error.headers) res.set(error.headers);
    res.status(status).type('text/plain').send(http.STATUS_CODES[status]);
  });
  return listen(http.createServer(app));
}

export interface Asking {
  method?: string;
  headers?: Record<string, string>;
}

/** `target` as written (`%2e%2e` stays so) on a fresh connection, read to its end. */
export function ask(server: { url: string }, target: string, asking: Asking = {}): Promise<HttpReply> {
  return httpRequest(server.url + target, { method: asking.method, headers: asking.headers, target });
}

/** The headers the suite compares: what a file's answer is made of. */
export const COMPARED = [
  'content-type',
  'content-length',
  'etag',
  'last-modified',
  'accept-ranges',
  'cache-control',
  'content-range',
  'content-disposition',
  'location',
  'x-content-type-options',
  'content-security-policy',
] as const;

export type Compared = (typeof COMPARED)[number];

/** What one answer is, for comparing: status, the compared headers (absent as undefined), the body. */
export function summary(reply: HttpReply, side: 'native' | 'ported') {
  const headers: Partial<Record<Compared, string | undefined>> = {};
  for (const name of COMPARED) {
    const value = reply.headers[name];
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // The same answer names its own side's URL.
  if (headers.location) headers.location = headers.location.replace(`/${side}/`, '/SIDE/');
  const body = reply.body.toString('latin1').replaceAll(`/${side}/`, '/SIDE/');
  return { status: reply.status, headers, body };
}
