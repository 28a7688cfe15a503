/**
 * An endpoint module's `websocket` export, checked once when the module loads: an object whose
 * hooks are functions. A typo in a hook's name is an error here, not a hook that silently never runs.
 */
import { PLAIN_TEXT } from './answers';
import { WEBSOCKET_EXPORT } from '../http-methods';
import type { WebSocketHandler } from '../types';

const HOOKS: readonly string[] = ['upgrade', 'open', 'message', 'close', 'error', 'drain'];

/** The module's WebSocket hooks, `undefined` when it exports none; throws on a malformed export. */
export function socketHandlerOf(
  mod: Readonly<Record<string, unknown>>,
  displayPath: string,
): WebSocketHandler | undefined {
  const value = mod[WEBSOCKET_EXPORT];
  if (value === undefined) return undefined;
  const example = '`export const websocket = { open(socket) {}, message(socket, message) {} }`';
  if (typeof value !== 'object' || value === null) {
    throw new TypeError(`${displayPath}: the websocket export is not an object of hooks; write ${example}.`);
  }
  for (const [name, hook] of Object.entries(value)) {
    if (!HOOKS.includes(name)) {
      throw new TypeError(
        `${displayPath}: websocket.${name} is not a WebSocket hook; the hooks are ${HOOKS.join(', ')}.`,
      );
    }
    if (hook !== undefined && typeof hook !== 'function') {
      throw new TypeError(`${displayPath}: websocket.${name} is not a function; write ${example}.`);
    }
  }
  return value as WebSocketHandler;
}

/**
 * A GET without an upgrade to a route that serves only WebSockets gets `426 Upgrade Required`
 * (RFC 9110, 15.5.22), which names the protocol to switch to, rather than a 405 that says GET is not
 * served. Added to the exports when the table is built, so no request pays for it.
 */
export function withUpgradeRequired(exports: Record<string, unknown>): Record<string, unknown> {
  const servesGet = ['GET', 'ANY', 'default'].some((name) => typeof exports[name] === 'function');
  if (exports[WEBSOCKET_EXPORT] === undefined || servesGet) return exports;
  return { ...exports, GET: upgradeRequired };
}

function upgradeRequired(): Response {
  return new Response('Upgrade Required: this URL serves WebSockets', {
    status: 426,
    headers: { upgrade: 'websocket', 'content-type': PLAIN_TEXT },
  });
}
