/**
 * The `ws` package, an optional peer dependency: imported only when a tree declares a WebSocket
 * handler, so an app without one neither installs nor loads it (issue 28).
 */
import type * as Ws from 'ws';

export type WsLibrary = typeof Ws;

let loading: Promise<WsLibrary> | undefined;

/** Resolves to `ws`, once per process; rejects with the install command when it is missing. */
export function loadWebSocketLibrary(needer: string): Promise<WsLibrary> {
  loading ??= import('ws').then(
    // Under `import()`, a CommonJS package's exports may sit on `default` as well as beside it.
    (mod) =>
      (mod as { WebSocketServer?: unknown }).WebSocketServer ? mod : (mod.default as unknown as WsLibrary),
    (error: unknown) => {
      loading = undefined;
      throw isMissing(error)
        ? new Error(`${needer} exports websocket, which needs the ws package: npm install ws`, {
            cause: error,
          })
        : error;
    },
  );
  return loading;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
