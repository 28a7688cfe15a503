/**
 * The ETag and the 304 of a body the bridge sends whole, as the host app would give them from
 * `res.send`. In an Express app that is the app's own: its compiled `etag` setting (`etag fn`,
 * which `app.set('etag', …)` sets, a custom function included) and its `req.fresh`, so a route
 * moved into the tree answers byte for byte as before, on Express 4 and 5 alike. Elsewhere, only
 * the `etag` mount option turns them on, with the same tag format (src/dispatch/entity-tags.ts).
 * Streams never get one: their bytes are not known when the head goes out.
 */
import { hash } from 'node:crypto';
import type { ExpressRequest } from './express-request';
import { formatEntityTag, isFresh, NOT_MODIFIED_DROPS, type EtagMode } from '../dispatch';
import type { ResponseWriter } from './response-writer';

type EntityTagger = (body: Buffer, encoding?: BufferEncoding) => string | undefined;

/**
 * Sets the ETag of `bytes`, the whole body about to be sent, when `mode` asks for one and none is set
 * yet (by the handler, or by middleware before it); then returns true when the request is fresh and
 * `res` has been turned into a 304, whose body must not be sent.
 */
export function sendsNotModified(res: ResponseWriter, bytes: Uint8Array, mode: EtagMode): boolean {
  const req = res.req as ExpressRequest;
  const settings = typeof req.app?.get === 'function' ? req.app : undefined;
  // Following a host that is not Express, or off there: nothing to do. An Express app still decides
  // freshness with `etag` off, as its `res.send` does for an ETag or Last-Modified the handler set.
  if ((mode === 'host' || mode === 'off') && !settings) return false;
  const tagger = taggerFor(mode, settings);
  if (tagger && !res.getHeader('etag')) {
    const tag = tagger(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (tag) res.setHeader('ETag', tag);
  }
  const headers = req.headers;
  if (headers['if-none-match'] === undefined && headers['if-modified-since'] === undefined) return false;
  // Express's own decision where there is one: Express 4 and 5 differ (`If-None-Match: *`, QUERY).
  const fresh =
    'fresh' in req
      ? req.fresh === true
      : isFresh(
          req.method ?? 'GET',
          res.statusCode,
          (name) => headerValue(headers[name]),
          headerValue(res.getHeader('etag')),
          headerValue(res.getHeader('last-modified')),
        );
  if (!fresh) return false;
  res.statusCode = 304;
  res.statusMessage = '';
  for (const name of NOT_MODIFIED_DROPS) res.removeHeader(name);
  return true;
}

function taggerFor(mode: EtagMode, settings: ExpressRequest['app']): EntityTagger | undefined {
  switch (mode) {
    case 'host': {
      const compiled = settings?.get?.('etag fn');
      if (typeof compiled !== 'function') return undefined;
      // Express's own generator hashes through a Hash stream per call; a one-shot hash gives the
      // same tag for less. A function the app set itself (`app.set('etag', fn)`) is always called.
      if ((compiled as { name?: string }).name === 'generateETag') {
        const setting = settings?.get?.('etag');
        if (setting === true || setting === 'weak') return weakTag;
        if (setting === 'strong') return strongTag;
      }
      return compiled as EntityTagger;
    }
    case 'weak':
      return weakTag;
    case 'strong':
      return strongTag;
    case 'off':
      return undefined;
  }
}

const weakTag: EntityTagger = (body) => formatEntityTag(body.byteLength, hash('sha1', body, 'base64'), true);
const strongTag: EntityTagger = (body) =>
  formatEntityTag(body.byteLength, hash('sha1', body, 'base64'), false);

function headerValue(value: string | number | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}
