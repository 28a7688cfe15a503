/**
 * The route table as a Web-standard `fetch(request) => Response` handler: for unit tests
 * through the real table, and for hosts other than Node. 404 when nothing matches; a handler
 * error is told to `onError` and answered with a 500, as the Node side answers it without a host
 * error handler (the promise never rejects for it).
 */
import { MALFORMED_PATH, type Router } from '../router';
import { answerFor, answerResponse, INTERNAL_ERROR, MALFORMED_PATH_ANSWER, NOT_FOUND } from './answers';
import { dispatch } from './method-table';
import { EndpointCall, type HostRequest } from './endpoint-call';
import type { CompiledRoute } from './route';
import { Failure, runRoute } from './run-route';

/** `.fetch` as a host: no mount, no Node objects, no error handler but the 500 below. */
class FetchRequest implements HostRequest {
  readonly node = undefined;
  /** Runs the `after()` callbacks: set when the first one is registered. */
  done: (() => void) | undefined;

  constructor(readonly request: Request) {}

  buildRequest(): Request {
    return this.request;
  }
  mountPath(): string {
    return '';
  }
  errorsGoToNext(): boolean {
    return false;
  }
  isExpected(): boolean {
    return false;
  }
  whenDone(run: () => void): void {
    this.done = run;
  }
}

export async function handleFetch(router: Router<CompiledRoute>, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const match = router.match(url.pathname);
  if (match === null) return answerResponse(NOT_FOUND);
  if (match === MALFORMED_PATH) return answerResponse(MALFORMED_PATH_ANSWER);

  const route = match.value;
  const decision = dispatch(route.table, request.method);
  if (decision.kind !== 'handler') {
    // `pass`: the page that serves GET here lives in the host app, which `.fetch` does not have.
    return answerResponse(answerFor(decision) ?? NOT_FOUND);
  }
  const host = new FetchRequest(request);
  const call = new EndpointCall(match.params, route, decision.entry.exportName, host);
  const outcome = await runRoute(route, decision.entry, call);
  let response = outcome instanceof Failure ? answerResponse(INTERNAL_ERROR) : outcome;
  if (request.method === 'HEAD' && response.body !== null) {
    await response.body.cancel();
    response = new Response(null, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }
  return host.done ? withAfterCallbacks(response, host.done) : response;
}

/**
 * The Response, its body wrapped so that `after()` callbacks run once it has been read to the end,
 * cancelled or has failed — "after the response was sent", for a caller that is not a socket. A
 * null body: at once, once the caller has the Response.
 */
function withAfterCallbacks(response: Response, done: () => void): Response {
  const body = response.body;
  if (body === null) {
    setImmediate(done);
    return response;
  }
  const reader = body.getReader(); // `done` runs the callbacks once, however often called
  const wrapped = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          controller.close();
          done();
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        controller.error(error);
        done();
      }
    },
    async cancel(reason) {
      try {
        await reader.cancel(reason);
      } finally {
        done();
      }
    },
  });
  return new Response(wrapped, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
