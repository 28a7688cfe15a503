/**
 * The two apps the differential suite compares, built alike around the one difference: the same
 * middleware first (body parsers, `express.static`), then the routes of native-routes.ts in one and
 * the endpoint tree they were ported to in the other, then the same 404 and error handler. And the
 * raw client that sends a request to each and reads back every byte of the answer.
 */
import http from 'node:http';
import path from 'node:path';
import type express5 from 'express';
import type { NextFunction, Request, Response } from 'express';
import { mountEndpoints } from '../../src';
import { listen, type Listening } from '../support/net';
import { exchange } from '../middleware/transparency/raw-client';
import type { Case } from './cases';
import { nativeRoutes } from './native-routes';

const FIXTURE = path.join(__dirname, '../fixtures/differential-app');

export interface Apps {
  native: Listening;
  tree: Listening;
  close(): Promise<void>;
}

export async function startApps(express: typeof express5, version: 4 | 5): Promise<Apps> {
  const base = () => {
    const app = express();
    app.use(express.json());
    app.use(express.urlencoded({ extended: false }));
    app.use('/public', express.static(path.join(FIXTURE, 'public')));
    return app;
  };
  const finish = (app: express5.Express) => {
    app.use((_req: Request, res: Response) => void res.status(404).json({ error: 'Not Found' }));
    app.use((error: HttpError, _req: Request, res: Response, _next: NextFunction) => {
      const status = error.status ?? error.statusCode ?? 500;
      res.status(status).json({ error: status < 500 ? error.message : 'Internal Server Error' });
    });
    return app;
  };
  const native = base();
  native.use(nativeRoutes(express, version));
  const tree = base();
  // No onError: every error here goes to the app's error handler, which is what is compared.
  await mountEndpoints(tree, { dir: path.join(FIXTURE, 'app') });
  const [nativeServer, treeServer] = await Promise.all([
    listen(http.createServer(finish(native))),
    listen(http.createServer(finish(tree))),
  ]);
  return {
    native: nativeServer,
    tree: treeServer,
    close: async () => void (await Promise.all([nativeServer.close(), treeServer.close()])),
  };
}

type HttpError = Error & { status?: number; statusCode?: number };

/** One answer as received: the status line, each header line as sent, and the body (de-chunked). */
export interface Answer {
  statusLine: string;
  headers: [string, string][];
  body: Buffer;
  /** The raw bytes, for messages. */
  raw: string;
}

export async function send(server: Listening, request: Case): Promise<Answer> {
  const result = await exchange(server.port, [
    { method: request.method, path: request.path, headers: request.headers, body: request.body },
  ]);
  if (result.ending !== 'complete') throw new Error(`${request.path}: the answer ended ${result.ending}`);
  return parseAnswer(result.bytes);
}

function parseAnswer(bytes: Buffer): Answer {
  const headEnd = bytes.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
  const rest = bytes.subarray(headEnd + 4);
  const chunked = headers.some(
    ([name, value]) => /^transfer-encoding$/i.test(name) && /chunked/i.test(value),
  );
  return { statusLine, headers, body: chunked ? dechunk(rest) : rest, raw: bytes.toString('latin1') };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** A header's values in the order sent (a repeated header: one per line). */
export function headerValues(answer: Answer, name: string): string[] {
  return answer.headers.filter(([n]) => n.toLowerCase() === name).map(([, value]) => value);
}

/** What differs between two answers: the status line, the headers by (lower-case) name, the body. */
export interface Delta {
  status: boolean;
  headers: string[];
  body: boolean;
}

/**
 * Compared byte for byte, but for what differs in every answer: the Date header's value, the case of
 * header names, the order of headers of different names (a repeated header keeps its own order).
 */
export function delta(native: Answer, tree: Answer): Delta {
  const names = new Set([...native.headers, ...tree.headers].map(([name]) => name.toLowerCase()));
  names.delete('date');
  const headers = [...names].filter(
    (name) => headerValues(native, name).join('\n') !== headerValues(tree, name).join('\n'),
  );
  return {
    status: native.statusLine !== tree.statusLine,
    headers: headers.sort(),
    body: !native.body.equals(tree.body),
  };
}
