/**
 * The hosts the observability tests run on: Express 5, Express 4 and a bare node:http server, each
 * with the tree of ./fixtures/app (at the root or under a prefix), an app route of its own
 * (`GET /legacy/health`), the app's 404 and an error handler answering with the error's status.
 * The tree answers a method a file does not serve with its own 405 (`unservedMethods: '405'`), so
 * traces of that answer can be looked at.
 *
 * Express is required when a host starts, not when this file loads: OpenTelemetry's
 * instrumentations patch modules as they are required, so a test process registers them first.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type express5 from 'express';
import { mountEndpoints } from '../../src';
import { listen, type Listening } from '../support/net';

export const TREE = path.join(__dirname, 'fixtures', 'app');

/** The tests look for errors where tracing shows them; the default `onError` would print each. */
const quiet = () => {};

export type HostName = 'Express 5' | 'Express 4' | 'node:http' | 'srvx';
/** The hosts the middleware runs in; `srvx` serves the tree's `.fetch` through srvx's Node adapter. */
export const HOST_NAMES: HostName[] = ['Express 5', 'Express 4', 'node:http'];

type Next = (error?: unknown) => void;
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

export interface HostOptions {
  /** Mount the tree here instead of at the root (Express only). */
  prefix?: string;
  /** Middleware before the tree: a request logger. */
  first?: Middleware;
}

/** The app's error handler answers with the error's own status (the library's refusals carry one), else 500. */
function statusOf(error: unknown): number {
  return (error as { status?: number } | undefined)?.status ?? 500;
}

function send(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.end(body);
}

export async function startHost(name: HostName, options: HostOptions = {}): Promise<Listening> {
  if (name === 'node:http') return startNode(options);
  if (name === 'srvx') return startSrvx();
  const express = (name === 'Express 5' ? require('express') : require('express4')) as typeof express5;
  const app = express();
  if (options.first) app.use(options.first);
  const endpoints = mountEndpoints({ dir: TREE, onError: quiet, unservedMethods: '405' });
  if (options.prefix) app.use(options.prefix, endpoints);
  else app.use(endpoints);
  await endpoints.ready;
  app.get('/legacy/health', (_req, res) => {
    res.type('text').send('ok');
  });
  app.use((_req, res) => send(res, 404, 'app 404'));
  app.use((error: unknown, _req: express5.Request, res: express5.Response, _next: express5.NextFunction) =>
    send(res, statusOf(error), 'app error'),
  );
  return listen(http.createServer(app));
}

/** `.fetch` as a Web handler behind srvx's Node adapter: 404 for what the tree does not serve. */
async function startSrvx(): Promise<Listening> {
  const { toNodeHandler } = require('srvx/node') as typeof import('srvx/node');
  const endpoints = mountEndpoints({ dir: TREE, onError: quiet, unservedMethods: '405' });
  await endpoints.ready;
  return listen(http.createServer(toNodeHandler(endpoints.fetch) as http.RequestListener));
}

/** The tree, then the app's own route, then its 404; `next(err)` answers 500. */
async function startNode(options: HostOptions): Promise<Listening> {
  if (options.prefix) throw new Error('the node:http host mounts the tree at the root');
  const endpoints = mountEndpoints({ dir: TREE, onError: quiet, unservedMethods: '405' });
  await endpoints.ready;
  const app = (req: IncomingMessage, res: ServerResponse) => {
    const afterTree: Next = (error) => {
      if (error !== undefined) return send(res, statusOf(error), 'app error');
      if (req.url === '/legacy/health') return send(res, 200, 'ok');
      send(res, 404, 'app 404');
    };
    const tree = () => endpoints(req, res, afterTree);
    if (options.first) options.first(req, res, tree);
    else tree();
  };
  return listen(http.createServer(app));
}
