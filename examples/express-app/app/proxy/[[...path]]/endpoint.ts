/**
 * /proxy/* — an `ANY` handler forwards every method to an upstream and returns its Response.
 *
 * `[[...path]]` is an optional catch-all: `/proxy/a/b` gives `params.path = ['a', 'b']`, and
 * plain `/proxy` leaves `params.path` out. The upstream is `UPSTREAM_URL`; by default this
 * app's own legacy routes, so `/proxy/health` answers what `/legacy/health` does.
 */

// Headers that describe this hop, not the message: fetch sets its own.
const HOP_BY_HOP = [
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'expect',
  'upgrade',
];

export async function ANY(request: Request, { params }: { params: { path?: string[] } }): Promise<Response> {
  // Read per request (not at import), so tests and a late-bound PORT can point it elsewhere.
  const upstream = process.env.UPSTREAM_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}/legacy`;
  const target = new URL(
    upstream.replace(/\/$/, '') + '/' + (params.path ?? []).map(encodeURIComponent).join('/'),
  );
  target.search = new URL(request.url).search;

  const headers = new Headers(request.headers);
  for (const name of HOP_BY_HOP) headers.delete(name);

  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = {
    method: request.method,
    headers,
    body: hasBody ? request.body : undefined,
    duplex: 'half', // Node's fetch needs this to stream a request body
    redirect: 'manual', // hand redirects to the client, as a proxy should
    signal: request.signal, // stop the upstream call when the client goes away
  };
  try {
    // Returned as it is. The library drops the upstream's content-encoding and content-length,
    // which no longer describe the body once fetch has decoded it.
    return await fetch(target, init);
  } catch (error) {
    if (request.signal.aborted) throw error; // the client left; nobody to answer
    return Response.json({ error: 'Bad Gateway' }, { status: 502 });
  }
}
