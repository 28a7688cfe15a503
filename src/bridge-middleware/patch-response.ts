/**
 * Patches on one ServerResponse object — never on the prototype — for a capture: methods replaced
 * on the instance, `headersSent` answered by the capture, a way to step aside for a moment (the
 * bridge's own writes go out through the methods from before), and a clean removal that leaves
 * alone whatever someone wrapped around the patches since.
 */
import type { ServerResponse } from 'node:http';

export type Method = (...args: unknown[]) => unknown;

/** What a capture replaces. `on` is only stepped around: compression() behind it replaces it. */
const PATCHED = [
  'writeHead',
  'write',
  'end',
  'flushHeaders',
  'setHeader',
  'appendHeader',
  'removeHeader',
  'setHeaders',
  'cork',
  'uncork',
  'on',
] as const;
export type PatchedName = (typeof PATCHED)[number];

// Left in place during passThrough: Node's own write() corks through `this.cork()` and uncorks on
// the next tick, outside it, so both calls must reach the same (passing-aware) patch.
const KEPT_IN_PLACE = new Set<PatchedName>(['cork', 'uncork']);

export interface Patch {
  /** The methods from before the patch. */
  original: Record<PatchedName, Method | undefined>;
  /** Inside `passThrough`: the real methods are in place. */
  passing(): boolean;
  /** Runs `fn` with the methods from before in place. Re-entrant. */
  passThrough<T>(fn: () => T): T;
  remove(): void;
}

export function patchResponse(
  res: ServerResponse,
  installed: Partial<Record<PatchedName, Method>>,
  /** What the chain sees as `res.headersSent` while it does not see Node's own. */
  headersSent: () => boolean,
): Patch {
  const target = res as unknown as Record<PatchedName, Method | undefined>;
  const original = {} as Record<PatchedName, Method | undefined>;
  const ownBefore = new Set<PatchedName>();
  for (const name of PATCHED) {
    original[name] = target[name];
    if (Object.prototype.hasOwnProperty.call(res, name)) ownBefore.add(name);
    const method = installed[name];
    if (method && original[name]) target[name] = method;
  }
  const ownHeadersSent = Object.getOwnPropertyDescriptor(res, 'headersSent');
  const nodeHeadersSent = () =>
    Boolean(Reflect.get(Object.getPrototypeOf(res) as object, 'headersSent', res));
  let passing = 0;
  let removed = false;
  Object.defineProperty(res, 'headersSent', {
    configurable: true,
    enumerable: true,
    get: () => (passing === 0 && headersSent()) || nodeHeadersSent(),
  });

  return {
    original,
    passing: () => passing > 0,
    passThrough<T>(fn: () => T): T {
      if (passing > 0 || removed) return fn();
      const current = {} as Record<PatchedName, Method | undefined>;
      for (const name of PATCHED) {
        if (KEPT_IN_PLACE.has(name)) continue;
        current[name] = target[name];
        if (original[name]) target[name] = original[name];
      }
      passing++;
      try {
        return fn();
      } finally {
        passing--;
        for (const name of PATCHED) if (current[name]) target[name] = current[name];
      }
    },
    remove() {
      if (removed) return;
      removed = true;
      for (const name of PATCHED) {
        if (!installed[name] || target[name] !== installed[name]) continue; // wrapped since: theirs
        if (ownBefore.has(name)) target[name] = original[name];
        else delete target[name];
      }
      if (ownHeadersSent) Object.defineProperty(res, 'headersSent', ownHeadersSent);
      else delete (res as { headersSent?: boolean }).headersSent;
    },
  };
}
