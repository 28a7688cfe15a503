/**
 * The `ws` package, an optional peer dependency: imported only when a tree declares a WebSocket
 * handler, so an app without one neither installs nor loads it.
 */
import type * as Ws from 'ws';
import { importPackage } from '../load';

export type WsLibrary = typeof Ws;

let loading: Promise<WsLibrary> | undefined;

/** Resolves to `ws`, once per process; rejects with the install command when it is missing. */
export function loadWebSocketLibrary(needer: string): Promise<WsLibrary> {
  if (loading === undefined) loading = importWs(needer);
  return loading;
}

async function importWs(needer: string): Promise<WsLibrary> {
  // Through the module system that loaded the library: under Jest, Jest's `require` (it has no `import()`).
  let mod: unknown;
  try {
    mod = await importPackage('ws');
  } catch (error) {
    loading = undefined;
    throw isMissing(error)
      ? new Error(`${needer} exports websocket, which needs the ws package: npm install ws`, { cause: error })
      : error;
  }
  // Under `import()`, a CommonJS package's exports may sit on `default` as well as beside it; `require` gives them.
  const library = mod as WsLibrary & { default?: WsLibrary };
  return library.WebSocketServer ? library : library.default!;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
