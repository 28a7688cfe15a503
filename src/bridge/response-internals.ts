/**
 * Fast path: the string or bytes a Response was built from, read from undici's internal state
 * instead of through its body stream. Found by feature detection once at startup; when the
 * runtime's Response looks different, this returns `undefined` and the stream path is used.
 */
const stateKey = Object.getOwnPropertySymbols(new Response('')).find((s) => s.description === 'state');

interface UndiciBodyState {
  body?: { source?: unknown; stream?: ReadableStream } | null;
}

export function internalBodySource(response: Response): string | Uint8Array | undefined {
  if (stateKey === undefined || response.bodyUsed) return undefined;
  const state = (response as unknown as Record<symbol, UndiciBodyState | undefined>)[stateKey];
  const source = state?.body?.source;
  if (typeof source === 'string' || source instanceof Uint8Array) return source;
  return undefined;
}
