/**
 * An answer that Node middleware in the route's chain (`expressMiddleware`) wrote to `res` itself: a
 * 429, a 401, a redirect. The chain's outer middleware get it as a Response with the status and
 * headers of `res`, and no body (those bytes went to the client, or are going); the host sends
 * nothing more for it.
 */
import type { ServerResponse } from 'node:http';

const sentAnswers = new WeakSet<Response>();

/** `res`'s answer as a Response: its status (599 for one a Response cannot hold), its headers, no body. */
export function sentAnswer(res: ServerResponse): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined) continue;
    try {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else headers.append(name, String(value));
    } catch {
      // A value Node sent and Headers refuses (obs-text): the client got it; the Response goes without.
    }
  }
  const representable = res.statusCode >= 200 && res.statusCode <= 599;
  const response = new Response(null, {
    status: representable ? res.statusCode : 599,
    statusText: representable ? res.statusMessage : '',
    headers,
  });
  sentAnswers.add(response);
  return response;
}

/** Whether `response` is one `sentAnswer` made: already on its way to the client. */
export function isSentAnswer(response: Response): boolean {
  return sentAnswers.has(response);
}

/** A Response returned for a route whose answer Node middleware in its chain had already sent. */
export class AnswerAlreadySentError extends Error {
  constructor() {
    super(
      'The answer was already sent on res (by Express middleware in the route, through expressMiddleware, or by code writing to context.node.res), so the Response returned instead was dropped: a middleware outside expressMiddleware returns the Response its next() gave.',
    );
    this.name = 'AnswerAlreadySentError';
  }
}
