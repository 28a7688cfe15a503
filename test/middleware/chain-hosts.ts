/**
 * The hosts the middleware suite runs against: Express 5, Express 4 and Connect. Each host
 * builds an app from the same description — bridged middleware, native routes, an error
 * handler — so one suite asserts the same behaviour everywhere. Routes are written against
 * the host's own API (Express's `res.json`/`res.send`/`res.sendFile` where the host has them),
 * because what `bridgeMiddleware` must capture is exactly what those write.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import connect from 'connect';
import express5 from 'express';
import { listen } from '../support/net';

// The npm alias `express4` has no types of its own; the API used here is the same as 5's.
const express4 = require('express4') as typeof express5;

/** A Node request as the hosts hand it over (Express adds fields; Connect adds `originalUrl`). */
export type Req = IncomingMessage & { body?: unknown; originalUrl?: string };
/** A Node response, with Express's helpers when the host is Express. */
export type Res = ServerResponse & Partial<Pick<express5.Response, 'json' | 'send' | 'sendFile' | 'status'>>;
export type Next = (error?: unknown) => void;
export type Handler = (req: Req, res: Res, next: Next) => void | Promise<void>;
export type ErrorHandler = (error: unknown, req: Req, res: Res, next: Next) => void;

/** What a test puts in the app, in order. */
export type Layer =
  { use: Handler } | { route: string; method?: 'GET' | 'POST'; handle: Handler } | { onError: ErrorHandler };

export interface RunningChain {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ChainHost {
  name: 'Express 5' | 'Express 4' | 'Connect';
  /** Express's response helpers (`res.json`, `res.send`, `res.sendFile`) exist. */
  isExpress: boolean;
  start(layers: Layer[]): Promise<RunningChain>;
}

/** JSON the host's way: `res.json` on Express, by hand on Connect. */
export function sendJson(res: Res, value: unknown, status = 200): void {
  if (res.json && res.status) {
    res.status(status).json(value);
    return;
  }
  const body = JSON.stringify(value);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}

/** Text the host's way: `res.send` on Express, by hand on Connect. */
export function sendText(res: Res, text: string, status = 200): void {
  if (res.send && res.status) {
    res.status(status).send(text);
    return;
  }
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}

function expressHost(name: 'Express 5' | 'Express 4', express: typeof express5): ChainHost {
  return {
    name,
    isExpress: true,
    start(layers) {
      const app = express();
      for (const layer of layers) {
        if ('use' in layer) app.use(layer.use as express5.RequestHandler);
        else if ('onError' in layer) app.use(errorHandler(layer.onError) as express5.ErrorRequestHandler);
        else if (layer.method === 'POST') app.post(layer.route, layer.handle as express5.RequestHandler);
        else app.get(layer.route, layer.handle as express5.RequestHandler);
      }
      return listen(http.createServer(app));
    },
  };
}

const connectHost: ChainHost = {
  name: 'Connect',
  isExpress: false,
  start(layers) {
    const app = connect();
    for (const layer of layers) {
      if ('use' in layer) app.use(layer.use as connect.NextHandleFunction);
      else if ('onError' in layer) app.use(errorHandler(layer.onError) as connect.ErrorHandleFunction);
      else
        app.use(exactRoute(layer.route, layer.method ?? 'GET', layer.handle) as connect.NextHandleFunction);
    }
    return listen(http.createServer(app));
  },
};

/** Express and Connect tell error handlers by their four parameters. */
function errorHandler(handle: ErrorHandler): ErrorHandler {
  return (error, req, res, next) => handle(error, req, res, next);
}

/** A Connect "route": one path, one method (GET also serves HEAD, as Express does); async errors go to next. */
function exactRoute(path: string, method: string, handle: Handler): Handler {
  return (req, res, next) => {
    const pathname = (req.url ?? '/').split('?')[0];
    const methodMatches = req.method === method || (method === 'GET' && req.method === 'HEAD');
    if (pathname !== path || !methodMatches) return next();
    try {
      const result = handle(req, res, next);
      if (result) result.catch(next);
    } catch (error) {
      next(error);
    }
  };
}

export const hosts: ChainHost[] = [
  expressHost('Express 5', express5),
  expressHost('Express 4', express4),
  connectHost,
];
