/**
 * The Connect/Express middleware: match the Node request against the route table, run the
 * handler with a Web Request, write its Response. Whatever the tree does not serve goes to
 * `next()`, so the host app's own routes, pages and 404 keep working.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dispatch } from '../dispatch/method-table';
import type { CompiledRoute } from '../dispatch/route';
import { runRoute } from '../dispatch/run-route';
import { MALFORMED_PATH, type Router } from '../router';
import { NodeRequest } from './node-request';
import { drainAfterResponse } from './drain-request';
import { BodyLimitError, ClientClosedError } from './request-body';
import { BAD_ORIGIN_MESSAGE, requestUrl, targetPath } from './request-url';
import { writeWebResponse, type SendOptions } from './send-response';

const SEND_HEAD: SendOptions = { head: true };
const SEND_BODY: SendOptions = {};

export type NextFunction = (error?: unknown) => void;

/** Host-independent: `next` is optional so a bare node:http server can use the middleware. */
export async function handleNodeRequest(
  router: Router<CompiledRoute>,
  req: IncomingMessage,
  res: ServerResponse,
  next: NextFunction,
): Promise<void> {
  const path = targetPath(req.url ?? '/');
  if (path === undefined) return next();
  const match = router.match(path);
  if (match === null) return next();
  // Whatever answers from here on, a body nobody reads is drained (bounded) after the response.
  drainAfterResponse(req, res);
  if (match === MALFORMED_PATH)
    return sendPlain(res, 400, 'Bad Request: malformed percent-encoding in the URL path');

  const route = match.value;
  const method = req.method ?? 'GET';
  const decision = dispatch(route.table, method);
  switch (decision.kind) {
    case 'pass':
      return next();
    case 'options':
      res.statusCode = 204;
      res.setHeader('allow', decision.allow);
      res.end();
      return;
    case 'not-allowed':
      res.setHeader('allow', decision.allow);
      return sendPlain(res, 405, 'Method Not Allowed');
  }

  const url = requestUrl(req);
  if (url === undefined) return sendPlain(res, 400, BAD_ORIGIN_MESSAGE);
  if (exceedsLimit(req, route.bodyLimit)) {
    res.setHeader('connection', 'close');
    return sendPlain(res, 413, 'Payload Too Large');
  }

  const request = new NodeRequest(req, res, method, url, route.bodyLimit) as unknown as Request;
  let response: Response;
  try {
    const result = runRoute(route, decision.entry, request, {
      params: match.params,
      node: { req: req as IncomingMessage & Record<string, unknown>, res },
    });
    // A handler that answers synchronously is not awaited: no microtask trips per request.
    response = result instanceof Promise ? await result : result;
  } catch (error) {
    return fail(res, next, error);
  }
  try {
    const streaming = writeWebResponse(res, response, method === 'HEAD' ? SEND_HEAD : SEND_BODY);
    if (streaming !== undefined) await streaming;
  } catch (error) {
    fail(res, next, error);
  }
}

/** Before anything is sent the host's error handler answers; after, the socket is all we have. */
function fail(res: ServerResponse, next: NextFunction, error: unknown): void {
  if (isClientGone(res, error)) return;
  if (res.headersSent) {
    res.destroy(error instanceof Error ? error : undefined);
    return;
  }
  if (error instanceof BodyLimitError) return sendPlain(res, 413, 'Payload Too Large');
  next(error);
}

/** The client left, and the error only says so: there is nobody to answer. */
function isClientGone(res: ServerResponse, error: unknown): boolean {
  if (!res.destroyed && !res.socket?.destroyed) return false;
  return error instanceof ClientClosedError || (error as { code?: unknown } | null)?.code === 'ECONNRESET';
}

function exceedsLimit(req: IncomingMessage, limit: number | false): boolean {
  if (limit === false) return false;
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) > limit;
}

export function sendPlain(res: ServerResponse, status: number, message: string): void {
  res.statusCode = status;
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(message));
  res.end(message);
}

/** What a bare node:http server gets when no `next` is given: 404 and 500, no stack traces. */
export function finalNext(res: ServerResponse): NextFunction {
  return (error?: unknown) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error === undefined) return sendPlain(res, 404, 'Not Found');
    sendPlain(res, 500, 'Internal Server Error');
  };
}
