/**
 * The `Last-Event-ID` a reconnecting client sent. A browser's EventSource sends the last event id
 * UTF-8 encoded (WHATWG HTML, section 9.2.3, "reestablish the connection"), and header values reach
 * a `Request` as bytes, one character per byte (Fetch: a header value is a byte sequence), so an id
 * such as `café-日本-7` arrives as `cafÃ©-æ—¥æœ¬-7` until its bytes are read as UTF-8 again.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const NOT_ASCII = /[\u0080-\uffff]/;
const NOT_BYTES = /[\u0100-\uffff]/;

export function lastEventIdOf(request: Request): string | undefined {
  const value = request.headers.get('last-event-id');
  if (value === null) return undefined;
  // ASCII reads the same either way; what is not bytes was never on the wire.
  if (!NOT_ASCII.test(value) || NOT_BYTES.test(value)) return value;
  const bytes = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) bytes[i] = value.charCodeAt(i);
  try {
    return utf8.decode(bytes);
  } catch {
    // Not UTF-8: a client that sent its id as Latin-1 gets it back as it sent it.
    return value;
  }
}
