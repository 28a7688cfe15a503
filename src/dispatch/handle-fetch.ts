/**
 * The route table as a Web-standard `fetch(request) => Response` handler: for unit tests
 * through the real table, and for hosts other than Node. 404 when nothing matches.
 */
import { MALFORMED_PATH, type Router } from '../router';
import { dispatch } from './method-table';
import type { CompiledRoute } from './route';
import { runRoute } from './run-route';

export async function handleFetch(router: Router<CompiledRoute>, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const match = router.match(url.pathname);
  if (match === null) return plain(404, 'Not Found');
  if (match === MALFORMED_PATH) return plain(400, 'Bad Request: malformed percent-encoding in the URL path');

  const route = match.value;
  const decision = dispatch(route.table, request.method);
  switch (decision.kind) {
    case 'pass':
      // The page that serves GET here lives in the host app, which `.fetch` does not have.
      return plain(404, 'Not Found');
    case 'options':
      return new Response(null, { status: 204, headers: { allow: decision.allow } });
    case 'not-allowed':
      return plain(405, 'Method Not Allowed', { allow: decision.allow });
  }
  const response = await runRoute(route, decision.entry, request, { params: match.params });
  if (request.method !== 'HEAD' || response.body === null) return response;
  await response.body.cancel();
  return new Response(null, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function plain(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(message, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
  });
}
